// MPNet's table (transformers' MPNetConfig, model_type "mpnet"): BERT's layer shapes under other
// names (attention.attn.q/k/v/o), no token types, RoBERTa's position ids (counted after the
// padding id, which MPNetEmbeddings fixes at 1), and one relative position bias table
// (encoder.relative_attention_bias, buckets x heads) that every layer adds to its attention
// scores. The sequence head is RoBERTa's (classifier.dense, tanh, classifier.out_proj), its
// dropouts the hidden dropout (MPNetConfig has no classifier_dropout).

#include "Error.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

/// transformers' MPNetEmbeddings.padding_idx, whatever pad_token_id says.
constexpr std::int64_t kMpnetPaddingIdx = 1;
/// compute_position_bias's num_buckets: the buckets transformers uses, whatever
/// relative_attention_num_buckets says (it sizes the table only).
constexpr std::int64_t kMpnetBuckets = 32;

EncoderConfig mpnetDefaults() {
    EncoderConfig config;
    config.modelType = "mpnet";
    config.vocabSize = 30527;
    config.padTokenId = kMpnetPaddingIdx;
    config.typeVocabSize = 0;
    config.relativeAttentionNumBuckets = kMpnetBuckets;
    return config;
}

std::vector<ConfigKey> mpnetKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"hidden_size", &EncoderConfig::hiddenSize},
        {"num_hidden_layers", &EncoderConfig::numHiddenLayers},
        {"num_attention_heads", &EncoderConfig::numAttentionHeads},
        {"intermediate_size", &EncoderConfig::intermediateSize},
        {"hidden_act", &EncoderConfig::hiddenAct},
        {"hidden_dropout_prob", &EncoderConfig::hiddenDropoutProb},
        {"attention_probs_dropout_prob", &EncoderConfig::attentionProbsDropoutProb},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"layer_norm_eps", &EncoderConfig::layerNormEps},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"relative_attention_num_buckets", &EncoderConfig::relativeAttentionNumBuckets},
        {"pad_token_id", &EncoderConfig::padTokenId},
    };
}

void finishMpnet(EncoderConfig& config, const nlohmann::json&,
                 const std::filesystem::path& source) {
    // MPNetEmbeddings numbers positions after padding index 1 and zeroes that row whatever
    // pad_token_id says: another id would put the longest sequence's positions past the table.
    if (config.padTokenId != kMpnetPaddingIdx) {
        throw InputError(source, "pad_token_id " + std::to_string(config.padTokenId) +
                                     " is not supported for MPNet: transformers' MPNetEmbeddings "
                                     "fix the padding index at 1");
    }
    if (config.relativeAttentionNumBuckets < kMpnetBuckets) {
        throw InputError(source, "relative_attention_num_buckets " +
                                     std::to_string(config.relativeAttentionNumBuckets) +
                                     " is too small: transformers' MPNet uses 32 buckets");
    }
    if (config.maxPositionEmbeddings <= kMpnetPaddingIdx + 1) {
        throw InputError(source, "max_position_embeddings " +
                                     std::to_string(config.maxPositionEmbeddings) +
                                     " leaves no position after the padding index 1");
    }
}

ParameterCounts mpnetCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);  // q, k, v, o and the feed-forward: BERT's shapes
    const std::int64_t h = m.hiddenSize;
    // Word and position embeddings, their LayerNorm, and the relative position bias table,
    // which belongs to the embedding stage (freezing the embeddings freezes it).
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings) * h + 2 * h +
                        m.relativeAttentionNumBuckets * m.numAttentionHeads;
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // Sequence: classifier.dense + classifier.out_proj; token: the linear classifier alone.
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape mpnetActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    if (m.head == HeadKind::Token) {
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.hiddenDropoutProb, context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // the head's dense layer
    }
    // Every layer's attention takes the relative position bias with the padding mask as one
    // additive mask, G x heads x S x S in the attention's dtype: CUDA's memory-efficient kernel
    // keeps each layer's for backward; the CPU's math path adds it to the scores and keeps
    // nothing of it (train/MemoryForecast.cpp, EvaluationForecast.cpp).
    shape.attentionBiasBytes = context.autocast ? 2 : 4;
    return shape;
}

}  // namespace

const FamilyTraits& mpnetFamily() {
    static const FamilyTraits traits{
        .name = "MPNet",
        .modelTypes = {{"mpnet", "MPNet", "MPNetTokenizer"}},
        .defaults = mpnetDefaults,
        .keys = mpnetKeys(),
        .finishConfig = finishMpnet,
        .countParameters = mpnetCounts,
        .activations = mpnetActivations,
        .positionsAfterPadding = true,
        .basePrefix = "mpnet.",
        // MPNetClassificationHead on <s>: dropout, dense, tanh, dropout, out_proj; its dropout
        // and the token head's are hidden_dropout_prob.
        .sequenceHead = {.dropoutFirst = true,
                         .dense = "classifier.dense",
                         .activation = Activation::Tanh,
                         .classifier = "classifier.out_proj",
                         .dropout = [](const EncoderConfig& c) { return c.hiddenDropoutProb; }},
        .tokenHead = {.dropout = [](const EncoderConfig& c) { return c.hiddenDropoutProb; }},
    };
    return traits;
}

}  // namespace bert
