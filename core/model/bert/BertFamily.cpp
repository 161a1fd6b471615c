// BERT's table (model/FamilyTraits.h): transformers' BertConfig keys, parameter counts, and the
// activations one BERT layer keeps for backward. RoBERTa and ELECTRA reuse the layer parts.

#include "Error.h"
#include "io/Json.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig bertDefaults() {
    return EncoderConfig{};
}

ParameterCounts bertCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);
    const std::int64_t h = m.hiddenSize;
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings + m.typeVocabSize) * h + 2 * h;
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // The token head has no pooler (transformers builds BertModel without one).
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape bertActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    if (m.head == HeadKind::Token) {
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.effectiveClassifierDropout(), context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // the pooler
    }
    return shape;
}

}  // namespace

std::vector<ConfigKey> bertConfigKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"hidden_size", &EncoderConfig::hiddenSize},
        {"num_hidden_layers", &EncoderConfig::numHiddenLayers},
        {"num_attention_heads", &EncoderConfig::numAttentionHeads},
        {"intermediate_size", &EncoderConfig::intermediateSize},
        {"hidden_act", &EncoderConfig::hiddenAct},
        {"hidden_dropout_prob", &EncoderConfig::hiddenDropoutProb},
        {"attention_probs_dropout_prob", &EncoderConfig::attentionProbsDropoutProb},
        {"classifier_dropout", &EncoderConfig::classifierDropout},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"type_vocab_size", &EncoderConfig::typeVocabSize},
        {"layer_norm_eps", &EncoderConfig::layerNormEps},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"pad_token_id", &EncoderConfig::padTokenId},
    };
}

void checkAbsolutePositions(EncoderConfig&, const nlohmann::json& json,
                            const std::filesystem::path& source) {
    // Only absolute position embeddings are implemented (no common checkpoint uses the
    // relative_key kinds).
    const auto positions =
        jsonField<std::string>(json, "position_embedding_type", "absolute", source);
    if (positions != "absolute") {
        throw InputError(source, "position_embedding_type \"" + positions +
                                     "\" is not supported (only \"absolute\")");
    }
}

std::int64_t dropoutClassifierBytesPerToken(std::int64_t width, double dropout,
                                            const ActivationContext& context) {
    // The dropout's one-byte mask (ours on CPU, the fused kernel's on CUDA) and the classifier's
    // input: the dropout's fp32 output, or the low-precision copy autocast makes of it.
    return ((dropout > 0.0 ? 1 : 0) + (context.autocast ? 2 : 4)) * width;
}

ParameterCounts bertLayerCounts(const EncoderConfig& m) {
    const std::int64_t h = m.hiddenSize;
    const std::int64_t i = m.intermediateSize;
    ParameterCounts counts;
    counts.perLayer = 4 * (h * h + h)  // query, key, value, attention output
                      + 2 * h          // attention LayerNorm
                      + (h * i + i)    // intermediate
                      + (i * h + h)    // output
                      + 2 * h;         // output LayerNorm
    return counts;
}

ActivationShape bertLayerActivations(const EncoderConfig& m, const ActivationContext& context) {
    constexpr std::int64_t kFloatBytes = 4;
    const bool autocast = context.autocast;
    const std::int64_t e = autocast ? 2 : kFloatBytes;  // element of autocast's matmul outputs
    // Dropout keeps a one-byte mask per element: ours on CPU (model/Dropout.h), the fused
    // kernel's on CUDA.
    const std::int64_t mask = m.hiddenDropoutProb > 0.0 ? 1 : 0;
    // Bytes one layer keeps for backward per token, times hidden size: query/key/value's input
    // (under autocast each linear saves its own low-precision copy), the attention inputs, the
    // context feeding attention.output.dense, two dropout masks, two LayerNorm inputs (fp32),
    // and LayerNorm 1's output (or its copy) feeding the intermediate projection.
    // Attention on CPU takes ATen's math path (a padding mask and dropout rule out the flash
    // kernel), which upcasts half types to fp32 and keeps scaled query, key and value; on CUDA
    // the memory-efficient kernel keeps query, key, value and its output in the autocast dtype.
    const std::int64_t qkvInput = autocast ? 3 * e : kFloatBytes;
    const std::int64_t attentionInputs = context.cuda ? 4 * e : 3 * kFloatBytes;
    const std::int64_t perTokenHidden =
        qkvInput + attentionInputs + e + 2 * mask + 2 * kFloatBytes + (autocast ? e : kFloatBytes);
    // The activation's input and output (2 x intermediate size).
    const std::int64_t perTokenIntermediate = 2 * e;
    ActivationShape shape;
    shape.layerBytesPerToken =
        perTokenHidden * m.hiddenSize + perTokenIntermediate * m.intermediateSize;
    // Embeddings: the LayerNorm input (fp32) and the dropout mask, only when they train.
    shape.embeddingBytesPerToken = (kFloatBytes + mask) * m.embeddingWidth();
    shape.linearWeights = m.numHiddenLayers *
                          (4 * m.hiddenSize * m.hiddenSize + 2 * m.hiddenSize * m.intermediateSize);
    // CPU math path: the fp32 softmax output per head and query-key pair, and with attention
    // dropout its one-byte mask and the fp32 dropped weights.
    shape.attentionMapBytes = m.attentionProbsDropoutProb > 0.0 ? 2 * kFloatBytes + 1 : kFloatBytes;
    shape.evaluationFeedForwardBytesPerToken = perTokenIntermediate * m.intermediateSize;
    // The residual (fp32), query, key and value, and the kernel's output and scaled inputs (CPU:
    // two fp32 copies; CUDA: one in the autocast dtype).
    shape.evaluationAttentionBytesPerToken =
        (kFloatBytes + 3 * e + (context.cuda ? e : 2 * kFloatBytes)) * m.hiddenSize;
    return shape;
}

const FamilyTraits& bertFamily() {
    static const FamilyTraits traits{
        .name = "BERT",
        .modelTypes = {{"bert", "Bert", "BertTokenizer"}},
        .defaults = bertDefaults,
        .keys = bertConfigKeys(),
        .finishConfig = checkAbsolutePositions,
        .countParameters = bertCounts,
        .activations = bertActivations,
        .basePrefix = "bert.",
        // The pooler (dense + tanh on [CLS]) is the base model's, then dropout and classifier;
        // the token classifier has no pooler.
        .sequenceHead = {.dense = "bert.pooler.dense", .activation = Activation::Tanh},
        .tokenHead = {},
    };
    return traits;
}

}  // namespace bert
