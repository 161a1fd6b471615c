// ELECTRA's table (the discriminator): BERT's keys and layers, embeddings of embedding_size
// projected up to hidden_size when the two differ, and a classification head with GELU.

#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig electraDefaults() {
    EncoderConfig config;
    config.modelType = "electra";
    config.embeddingSize = 128;
    config.hiddenSize = 256;
    config.numAttentionHeads = 4;
    config.intermediateSize = 1024;
    return config;
}

std::vector<ConfigKey> electraKeys() {
    auto keys = bertConfigKeys();
    keys.push_back({"embedding_size", &EncoderConfig::embeddingSize});
    return keys;
}

bool projects(const EncoderConfig& m) {
    return m.embeddingWidth() != m.hiddenSize;
}

ParameterCounts electraCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);
    const std::int64_t h = m.hiddenSize;
    const std::int64_t e = m.embeddingWidth();
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings + m.typeVocabSize) * e + 2 * e +
                        (projects(m) ? e * h + h : 0);
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // Sequence: classifier.dense + classifier.out_proj; token: the linear classifier alone.
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape electraActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    if (projects(m)) {
        // embeddings_project keeps its input: the embeddings' dropout output (a low-precision
        // copy under autocast).
        shape.embeddingBytesPerToken += (context.autocast ? 2 : 4) * m.embeddingWidth();
        shape.linearWeights += m.embeddingWidth() * m.hiddenSize;
    }
    if (m.head == HeadKind::Token) {
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.effectiveClassifierDropout(), context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // the head's dense layer
    }
    return shape;
}

}  // namespace

const FamilyTraits& electraFamily() {
    static const FamilyTraits traits{
        .name = "ELECTRA",
        .modelTypes = {{"electra", "Electra", "BertTokenizer"}},
        .defaults = electraDefaults,
        .keys = electraKeys(),
        .finishConfig = checkAbsolutePositions,
        .countParameters = electraCounts,
        .activations = electraActivations,
        .basePrefix = "electra.",
        // ElectraClassificationHead: RoBERTa's with GELU.
        .sequenceHead = {.dropoutFirst = true,
                         .dense = "classifier.dense",
                         .activation = Activation::Gelu,
                         .classifier = "classifier.out_proj"},
        .tokenHead = {},
    };
    return traits;
}

}  // namespace bert
