// DistilBERT's table: its own config.json names (dim, n_layers, hidden_dim, ...), no token
// types, LayerNorm eps fixed at 1e-12, no dropout after the attention's output projection, and
// pre_classifier + ReLU before the classifier.

#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig distilBertDefaults() {
    EncoderConfig config;
    config.modelType = "distilbert";
    config.numHiddenLayers = 6;
    config.typeVocabSize = 0;
    config.classifierDropout = 0.2;
    return config;
}

std::vector<ConfigKey> distilBertKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"dim", &EncoderConfig::hiddenSize},
        {"n_layers", &EncoderConfig::numHiddenLayers},
        {"n_heads", &EncoderConfig::numAttentionHeads},
        {"hidden_dim", &EncoderConfig::intermediateSize},
        {"activation", &EncoderConfig::hiddenAct},
        {"dropout", &EncoderConfig::hiddenDropoutProb},
        {"attention_dropout", &EncoderConfig::attentionProbsDropoutProb},
        {"seq_classif_dropout", &EncoderConfig::classifierDropout},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"pad_token_id", &EncoderConfig::padTokenId},
    };
}

ParameterCounts distilBertCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);
    const std::int64_t h = m.hiddenSize;
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings) * h + 2 * h;
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // Sequence: pre_classifier + classifier; token: the classifier alone.
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape distilBertActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    // One dropout fewer than BERT's layer: none after the attention's out_lin.
    if (m.hiddenDropoutProb > 0.0) {
        shape.layerBytesPerToken -= m.hiddenSize;
    }
    if (m.head == HeadKind::Token) {
        // DistilBertForTokenClassification drops with config.dropout, not seq_classif_dropout.
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.hiddenDropoutProb, context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // pre_classifier
    }
    return shape;
}

double hiddenDropout(const EncoderConfig& config) {
    return config.hiddenDropoutProb;
}

}  // namespace

const FamilyTraits& distilBertFamily() {
    static const FamilyTraits traits{
        .name = "DistilBERT",
        .modelTypes = {{"distilbert", "DistilBert", "BertTokenizer"}},
        .defaults = distilBertDefaults,
        .keys = distilBertKeys(),
        .countParameters = distilBertCounts,
        .activations = distilBertActivations,
        .basePrefix = "distilbert.",
        // pre_classifier + ReLU on [CLS], dropout (seq_classif_dropout), classifier.
        .sequenceHead = {.dense = "pre_classifier", .activation = Activation::Relu},
        // DistilBertForTokenClassification drops with config.dropout, not seq_classif_dropout.
        .tokenHead = {.dropout = hiddenDropout},
    };
    return traits;
}

}  // namespace bert
