// EuroBERT's table (transformers' EuroBertConfig, model_type "eurobert"): a bidirectional Llama
// block. Token embeddings alone; pre-norm layers with RMSNorm, grouped-query attention (keys and
// values with num_key_value_heads heads, each shared by a group of query heads) with rotary
// position embeddings, a SwiGLU feed-forward (down(silu(gate(x)) * up(x))), no biases unless
// attention_bias / mlp_bias say so; a final norm. The sequence head pools by classifier_pooling
// ("bos": the first token, "mean": the mean of the real tokens, "late": dense, GELU and the
// classifier over every token, then the mean of the real tokens' logits); the token head is the
// classifier alone. No dropout but attention_dropout.

#include <cmath>

#include "Error.h"
#include "io/Json.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig euroBertDefaults() {
    EncoderConfig config;
    config.modelType = "eurobert";
    config.vocabSize = 128256;
    config.hiddenSize = 768;
    config.intermediateSize = 3072;
    config.numHiddenLayers = 12;
    config.numAttentionHeads = 12;
    config.hiddenAct = "silu";
    config.maxPositionEmbeddings = 8192;
    config.layerNormEps = 1e-5;  // rms_norm_eps
    config.initializerRange = 0.02;
    config.padTokenId = 128001;
    config.typeVocabSize = 0;
    config.hiddenDropoutProb = 0.0;
    config.attentionProbsDropoutProb = 0.0;
    config.classifierDropout = 0.0;
    config.attentionBias = false;
    config.mlpBias = false;
    config.normBias = false;
    config.classifierBias = true;  // EuroBertForSequenceClassification's dense has a bias
    config.pooling = Pooling::Late;
    config.globalRopeTheta = 10'000.0;  // RopeParameters' default; the checkpoints set 250,000
    return config;
}

std::vector<ConfigKey> euroBertKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"hidden_size", &EncoderConfig::hiddenSize},
        {"intermediate_size", &EncoderConfig::intermediateSize},
        {"num_hidden_layers", &EncoderConfig::numHiddenLayers},
        {"num_attention_heads", &EncoderConfig::numAttentionHeads},
        {"hidden_act", &EncoderConfig::hiddenAct},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"rms_norm_eps", &EncoderConfig::layerNormEps},
        {"pad_token_id", &EncoderConfig::padTokenId},
        {"attention_bias", &EncoderConfig::attentionBias},
        {"attention_dropout", &EncoderConfig::attentionProbsDropoutProb},
        {"mlp_bias", &EncoderConfig::mlpBias},
    };
}

bool present(const nlohmann::json& json, const char* key) {
    const auto it = json.find(key);
    return it != json.end() && !it->is_null();
}

void finishEuroBert(EncoderConfig& config, const nlohmann::json& json,
                    const std::filesystem::path& source) {
    // num_key_value_heads: null or absent means as many as the query heads.
    config.numKeyValueHeads = present(json, "num_key_value_heads")
                                  ? jsonField<std::int64_t>(json, "num_key_value_heads", 0, source)
                                  : config.numAttentionHeads;
    if (config.numKeyValueHeads <= 0 || config.numAttentionHeads % config.numKeyValueHeads != 0) {
        throw InputError(source, "num_attention_heads " + std::to_string(config.numAttentionHeads) +
                                     " is not a multiple of num_key_value_heads " +
                                     std::to_string(config.numKeyValueHeads));
    }
    if (present(json, "head_dim")) {
        const auto headDim = jsonField<std::int64_t>(json, "head_dim", 0, source);
        if (headDim != config.headDim()) {
            throw InputError(source, "head_dim " + std::to_string(headDim) +
                                         " is not hidden_size / num_attention_heads (" +
                                         std::to_string(config.headDim()) +
                                         "); BERT Studio supports only that head size");
        }
    }
    // The rotary base: transformers 5's rope_parameters, or the first releases' rope_theta (and
    // rope_scaling, which must be none).
    const auto parameters = json.find("rope_parameters");
    if (parameters != json.end() && parameters->is_object()) {
        const auto type = jsonField<std::string>(*parameters, "rope_type", "default", source);
        if (type != "default") {
            throw InputError(source, "rope_parameters.rope_type \"" + type +
                                         "\" is not supported (only \"default\": scaled rotary "
                                         "embeddings are not)");
        }
        config.globalRopeTheta =
            jsonField<double>(*parameters, "rope_theta", config.globalRopeTheta, source);
    } else {
        if (present(json, "rope_scaling")) {
            throw InputError(source, "rope_scaling is not supported (scaled rotary embeddings)");
        }
        config.globalRopeTheta =
            jsonField<double>(json, "rope_theta", config.globalRopeTheta, source);
    }
    if (!(std::isfinite(config.globalRopeTheta) && config.globalRopeTheta > 0.0)) {
        throw InputError(source, "the rotary base (rope_theta) must be a positive number");
    }
    if (config.headDim() % 2 != 0) {
        throw InputError(source, "rotary embeddings need an even head size, not " +
                                     std::to_string(config.headDim()));
    }
    const auto pooling = jsonField<std::string>(json, "classifier_pooling", "late", source);
    if (pooling == "bos") {
        config.pooling = Pooling::First;
    } else if (pooling == "mean") {
        config.pooling = Pooling::Mean;
    } else if (pooling == "late") {
        config.pooling = Pooling::Late;
    } else {
        throw InputError(source, "classifier_pooling \"" + pooling + "\" is not bos, mean or late");
    }
}

ParameterCounts euroBertCounts(const EncoderConfig& m) {
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    const std::int64_t kv = m.keyValueHeads() * m.headDim();
    const std::int64_t attentionBias = m.attentionBias ? 1 : 0;
    const std::int64_t mlpBias = m.mlpBias ? 1 : 0;
    ParameterCounts counts;
    counts.embeddings = m.vocabSize * h;                     // embed_tokens
    counts.perLayer = h                                      // input_layernorm
                      + 2 * h * h + attentionBias * 2 * h    // q_proj, o_proj
                      + 2 * h * kv + attentionBias * 2 * kv  // k_proj, v_proj
                      + h                                    // post_attention_layernorm
                      + 3 * h * i + mlpBias * (2 * i + h);   // gate, up, down
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // norm, then dense (with its bias) and the classifier, or the classifier alone.
    counts.head = h + (m.head == HeadKind::Token ? classifier : h * h + h + classifier);
    return counts;
}

ActivationShape euroBertActivations(const EncoderConfig& m, const ActivationContext& context) {
    constexpr std::int64_t kFloatBytes = 4;
    const bool autocast = context.autocast;
    const std::int64_t e = autocast ? 2 : kFloatBytes;
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    const std::int64_t kv = m.keyValueHeads() * m.headDim();
    const std::int64_t attentionMask = m.attentionProbsDropoutProb > 0.0 ? 1 : 0;
    // The input the linears of one norm's output save: shared in fp32, autocast's own copy each.
    auto linearInputs = [&](std::int64_t linears) {
        return autocast ? linears * e * h : kFloatBytes * h;
    };
    // One RMSNorm (as transformers computes it, in fp32): its input, the normalised rows the
    // weight multiplies, and the reciprocal root per row.
    const std::int64_t norm = 2 * kFloatBytes * h + kFloatBytes;
    ActivationShape shape;
    // Per token: both norms; the q/k/v projections' input and gate/up's; the rotary products'
    // fp32 inputs and rotated halves for q and k, and the cos and sin tables (fp32, head size);
    // the attention's inputs (CPU: the math path's fp32 scaled q and k and v, the keys and
    // values already expanded to every head; CUDA: q, k, v and the output in the autocast
    // dtype); o_proj's input; gate's output, its SiLU, up's output and their product.
    const std::int64_t attentionInputs = context.cuda ? 4 * e * h : 3 * kFloatBytes * h;
    shape.layerBytesPerToken = 2 * norm + linearInputs(3) + linearInputs(2) +
                               2 * kFloatBytes * (h + kv) + 2 * kFloatBytes * m.headDim() +
                               attentionInputs + e * h + 4 * e * i;
    shape.embeddingBytesPerToken = 0;  // embed_tokens keeps its indices alone
    shape.linearWeights = m.numHiddenLayers * (2 * h * h + 2 * h * kv + 3 * h * i) +
                          (m.head == HeadKind::Token ? 0 : h * h);
    shape.attentionMapBytes = attentionMask ? 2 * kFloatBytes + 1 : kFloatBytes;
    // gate's and up's outputs, the SiLU and the product, alive together.
    shape.evaluationFeedForwardBytesPerToken = 4 * e * i;
    // The residual and the norm's output (fp32), q, k and v, the rotated q and k (fp32), the
    // keys and values expanded to every head, the kernel's output, and on the CPU its two fp32
    // scaled copies.
    shape.evaluationAttentionBytesPerToken = 2 * kFloatBytes * h + e * (h + 2 * kv) +
                                             2 * kFloatBytes * (h + kv) + 2 * e * h + e * h +
                                             (context.cuda ? 0 : 2 * kFloatBytes * h);
    const std::int64_t linearInput = autocast ? 2 * h : kFloatBytes * h;
    if (m.head == HeadKind::Token) {
        // The final norm over every row and the classifier's input.
        shape.headBytesPerToken = norm + linearInput;
    } else if (m.pooling == Pooling::Late) {
        // Every row through the final norm, dense (its input), GELU (its input) and the
        // classifier (its input).
        shape.headBytesPerToken = norm + linearInput + e * h + linearInput;
    } else if (m.pooling == Pooling::Mean) {
        // Every row through the final norm, and the mean's product with the mask.
        shape.headBytesPerToken = norm + kFloatBytes * h;
    }
    return shape;
}

}  // namespace

const FamilyTraits& euroBertFamily() {
    static const FamilyTraits traits{
        .name = "EuroBERT",
        // transformers maps eurobert to no tokenizer class: tokenizer_config.json names it
        // (PreTrainedTokenizerFast, over the folder's tokenizer.json).
        .modelTypes = {{"eurobert", "EuroBert", ""}},
        .defaults = euroBertDefaults,
        .keys = euroBertKeys(),
        .finishConfig = finishEuroBert,
        .countParameters = euroBertCounts,
        .activations = euroBertActivations,
        .basePrefix = "model.",
        // EuroBertForSequenceClassification: dense, GELU, classifier, without dropout, over the
        // pooled rows (or every row with late pooling).
        .sequenceHead = {.dense = "dense",
                         .activation = Activation::Gelu,
                         .dropout = [](const EncoderConfig&) { return 0.0; }},
        // EuroBertForTokenClassification: the classifier alone.
        .tokenHead = {.dropout = [](const EncoderConfig&) { return 0.0; }},
    };
    return traits;
}

}  // namespace bert
