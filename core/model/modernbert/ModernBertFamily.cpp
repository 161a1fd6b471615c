// ModernBERT's table: pre-norm layers without biases, a fused Wqkv, rotary position embeddings
// with one base for global layers and one for local ones, a local sliding window on every layer
// that is not global, a gated GELU feed-forward (Wi gives input and gate), a final norm, and a
// head of dense + activation + LayerNorm over [CLS] or the mean of the tokens. config.json comes
// in two forms: the first releases' (global_attn_every_n_layers, global_rope_theta,
// local_rope_theta) and transformers 5's (layer_types, rope_parameters); both are read.

#include "Error.h"
#include "io/Json.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig modernBertDefaults() {
    EncoderConfig config;
    config.modelType = "modernbert";
    config.vocabSize = 50368;
    config.hiddenSize = 768;
    config.intermediateSize = 1152;
    config.numHiddenLayers = 22;
    config.numAttentionHeads = 12;
    config.hiddenAct = "gelu";
    config.maxPositionEmbeddings = 8192;
    config.layerNormEps = 1e-5;
    config.normBias = false;
    config.attentionBias = false;
    config.mlpBias = false;
    config.classifierBias = false;
    config.padTokenId = 50283;
    config.typeVocabSize = 0;
    config.hiddenDropoutProb = 0.0;  // embedding_dropout
    config.attentionProbsDropoutProb = 0.0;
    config.classifierDropout = 0.0;
    config.globalRopeTheta = 160'000.0;
    config.localRopeTheta = 10'000.0;
    return config;
}

std::vector<ConfigKey> modernBertKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"hidden_size", &EncoderConfig::hiddenSize},
        {"num_hidden_layers", &EncoderConfig::numHiddenLayers},
        {"num_attention_heads", &EncoderConfig::numAttentionHeads},
        {"intermediate_size", &EncoderConfig::intermediateSize},
        {"hidden_activation", &EncoderConfig::hiddenAct},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"initializer_cutoff_factor", &EncoderConfig::initializerCutoffFactor},
        {"norm_eps", &EncoderConfig::layerNormEps},
        {"norm_bias", &EncoderConfig::normBias},
        {"pad_token_id", &EncoderConfig::padTokenId},
        {"attention_bias", &EncoderConfig::attentionBias},
        {"attention_dropout", &EncoderConfig::attentionProbsDropoutProb},
        {"embedding_dropout", &EncoderConfig::hiddenDropoutProb},
        {"mlp_bias", &EncoderConfig::mlpBias},
        {"mlp_dropout", &EncoderConfig::mlpDropout},
        {"local_attention", &EncoderConfig::localAttention},
        {"classifier_dropout", &EncoderConfig::classifierDropout},
        {"classifier_bias", &EncoderConfig::classifierBias},
        {"classifier_activation", &EncoderConfig::classifierActivation},
    };
}

double ropeTheta(const nlohmann::json& json, const char* layerType, const char* legacyKey,
                 double fallback, const std::filesystem::path& source) {
    const auto parameters = json.find("rope_parameters");
    if (parameters != json.end() && parameters->is_object()) {
        const auto kind = parameters->find(layerType);
        if (kind != parameters->end() && kind->is_object()) {
            if (jsonField<std::string>(*kind, "rope_type", "default", source) != "default") {
                throw InputError(source, std::string("rope_parameters.") + layerType +
                                             ".rope_type must be \"default\" (scaled rotary "
                                             "embeddings are not supported)");
            }
            // An entry without a base takes the first releases' key (transformers' setdefault).
            return jsonField<double>(*kind, "rope_theta",
                                     jsonField<double>(json, legacyKey, fallback, source), source);
        }
    }
    return jsonField<double>(json, legacyKey, fallback, source);
}

void finishModernBert(EncoderConfig& config, const nlohmann::json& json,
                      const std::filesystem::path& source) {
    const auto layers = static_cast<std::size_t>(config.numHiddenLayers);
    config.slidingLayers.assign(layers, false);
    const auto types = json.find("layer_types");
    if (types != json.end() && !types->is_null()) {
        if (!types->is_array() || types->size() != layers) {
            throw InputError(source, "layer_types must list one type per layer (" +
                                         std::to_string(layers) + ")");
        }
        for (std::size_t i = 0; i < layers; ++i) {
            const auto& type = (*types)[i];
            if (type == "sliding_attention") {
                config.slidingLayers[i] = true;
            } else if (type != "full_attention") {
                throw InputError(source, "layer_types[" + std::to_string(i) + "] is " +
                                             type.dump() +
                                             " (full_attention or sliding_attention)");
            }
        }
    } else {
        const auto every = jsonField<std::int64_t>(json, "global_attn_every_n_layers", 3, source);
        if (every <= 0) {
            throw InputError(source, "field \"global_attn_every_n_layers\" must be positive");
        }
        for (std::size_t i = 0; i < layers; ++i) {
            config.slidingLayers[i] = i % static_cast<std::size_t>(every) != 0;
        }
    }
    config.globalRopeTheta =
        ropeTheta(json, "full_attention", "global_rope_theta", config.globalRopeTheta, source);
    config.localRopeTheta =
        ropeTheta(json, "sliding_attention", "local_rope_theta", config.localRopeTheta, source);
    if (!(config.globalRopeTheta > 0.0) || !(config.localRopeTheta > 0.0)) {
        throw InputError(source, "the rotary bases (rope_theta) must be positive");
    }
    if (config.headDim() % 2 != 0) {
        throw InputError(source, "rotary embeddings need an even head size, not " +
                                     std::to_string(config.headDim()));
    }
    const auto pooling = jsonField<std::string>(json, "classifier_pooling", "cls", source);
    if (pooling == "cls") {
        config.pooling = Pooling::First;
    } else if (pooling == "mean") {
        config.pooling = Pooling::Mean;
    } else {
        throw InputError(source, "classifier_pooling \"" + pooling + "\" is not cls or mean");
    }
}

std::int64_t norm(const EncoderConfig& m) {
    return m.hiddenSize * (m.normBias ? 2 : 1);
}

ParameterCounts modernBertCounts(const EncoderConfig& m) {
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    const std::int64_t attentionBias = m.attentionBias ? 1 : 0;
    const std::int64_t mlpBias = m.mlpBias ? 1 : 0;
    ParameterCounts counts;
    // tok_embeddings and norm; layer 0 has no attention norm (the embeddings' norm precedes
    // it): its absence is counted against the embeddings, so that every layer counts the same.
    counts.embeddings = m.vocabSize * h;
    counts.perLayer = norm(m)                                     // attn_norm
                      + h * 3 * h + attentionBias * 3 * h         // Wqkv
                      + h * h + attentionBias * h                 // attn.Wo
                      + norm(m)                                   // mlp_norm
                      + h * 2 * i + mlpBias * 2 * i               // Wi
                      + i * h + mlpBias * h;                      // mlp.Wo
    counts.head = norm(m)                                         // final_norm
                  + h * h + (m.classifierBias ? h : 0) + norm(m)  // head.dense, head.norm
                  + h * m.numLabels() + m.numLabels();            // classifier
    return counts;
}

ActivationShape modernBertActivations(const EncoderConfig& m, const ActivationContext& context) {
    constexpr std::int64_t kFloatBytes = 4;
    const bool autocast = context.autocast;
    const std::int64_t e = autocast ? 2 : kFloatBytes;
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    const std::int64_t attentionMask = m.attentionProbsDropoutProb > 0.0 ? 1 : 0;
    const std::int64_t mlpMask = m.mlpDropout > 0.0 ? 1 : 0;
    ActivationShape shape;
    // Per token: the two LayerNorms' inputs (fp32); Wqkv's and Wi's inputs (the norms'
    // outputs, fp32, or their low-precision copies under autocast); the rotary tables cos and
    // sin that the products with q and with k each keep (fp32, head size each: four tables; a
    // padded batch shares one per position, counted per token all the same); the attention
    // inputs (CPU: the math path's fp32 scaled q, k and v; CUDA: q, k, v and the output in the
    // autocast dtype);
    // attn.Wo's input; the attention dropout's mask; Wi's output (input and gate, 2 x
    // intermediate, kept whole by the activation's input view), the activation's output, and
    // the gated product feeding mlp.Wo (its dropout mask when mlp_dropout is on).
    const std::int64_t attentionInputs = context.cuda ? 4 * e * h : 3 * kFloatBytes * h;
    shape.layerBytesPerToken = 2 * kFloatBytes * h + 2 * e * h + 4 * kFloatBytes * m.headDim() +
                               attentionInputs + e * h + attentionMask * h + 2 * e * i + e * i +
                               e * i + mlpMask * i;
    // The embeddings' norm input (fp32) and dropout mask.
    shape.embeddingBytesPerToken = (kFloatBytes + (m.hiddenDropoutProb > 0.0 ? 1 : 0)) * h;
    shape.linearWeights = m.numHiddenLayers * (4 * h * h + 3 * h * i) + h * h;
    shape.attentionMapBytes = attentionMask ? 2 * kFloatBytes + 1 : kFloatBytes;
    // Wi's output (input and gate, 2 x intermediate), the activation's output and the gated
    // product, alive together while the product is formed.
    shape.evaluationFeedForwardBytesPerToken = 4 * e * i;
    // The residual and the norm's output (fp32), Wqkv's output, the rotated query and key (fp32),
    // the kernel's output, and on the CPU its two fp32 scaled copies.
    shape.evaluationAttentionBytesPerToken =
        (2 * kFloatBytes + 3 * e + 2 * kFloatBytes + e + (context.cuda ? 0 : 2 * kFloatBytes)) * h;
    if (m.head == HeadKind::Token) {
        // Every row through final_norm, head (dense, activation, norm), drop and classifier:
        // final_norm's input (fp32: the top layer's output, which nothing else keeps),
        // head.dense's input (fp32, or autocast's copy), the activation's input (dense's
        // output), head.norm's input (fp32: autocast runs norms in fp32), drop's mask, the
        // classifier's input (fp32, or autocast's copy), and each norm's mean and rstd.
        const std::int64_t linearInput = autocast ? 2 : kFloatBytes;
        const std::int64_t dropMask = m.effectiveClassifierDropout() > 0.0 ? 1 : 0;
        shape.headBytesPerToken =
            (kFloatBytes + linearInput + e + kFloatBytes + dropMask + linearInput) * h +
            2 * 2 * kFloatBytes;
    }
    return shape;
}

}  // namespace

const FamilyTraits& modernBertFamily() {
    static const FamilyTraits traits{
        .name = "ModernBERT",
        // transformers maps modernbert to no tokenizer class: tokenizer_config.json names it.
        .modelTypes = {{"modernbert", "ModernBert", ""}},
        .defaults = modernBertDefaults,
        .keys = modernBertKeys(),
        .finishConfig = finishModernBert,
        .countParameters = modernBertCounts,
        .activations = modernBertActivations,
        .basePrefix = "model.",
        // ModernBertPredictionHead (dense, classifier_activation, norm), drop, classifier: over
        // the pooled rows or every token alike.
        .sequenceHead = {.dense = "head.dense", .norm = "head.norm"},
        .tokenHead = {.dense = "head.dense", .norm = "head.norm"},
    };
    return traits;
}

}  // namespace bert
