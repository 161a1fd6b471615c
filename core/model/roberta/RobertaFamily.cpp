// RoBERTa's table, shared by XLM-RoBERTa and CamemBERT (transformers' XLMRoberta* and Camembert*
// classes are RoBERTa's code under other names): BERT's keys and layers, position ids that
// start after the padding id, and a classification head in place of the pooler.

#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig robertaDefaults() {
    EncoderConfig config;
    config.modelType = "roberta";
    config.vocabSize = 50265;
    config.padTokenId = 1;
    return config;
}

ParameterCounts robertaCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);
    const std::int64_t h = m.hiddenSize;
    counts.embeddings = (m.vocabSize + m.maxPositionEmbeddings + m.typeVocabSize) * h + 2 * h;
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // Sequence: classifier.dense + classifier.out_proj; token: the linear classifier alone.
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape robertaActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    if (m.head == HeadKind::Token) {
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.effectiveClassifierDropout(), context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // the head's dense layer
    }
    return shape;
}

}  // namespace

const FamilyTraits& robertaFamily() {
    static const FamilyTraits traits{
        .name = "RoBERTa",
        .modelTypes = {{"roberta", "Roberta", "RobertaTokenizer"},
                       {"xlm-roberta", "XLMRoberta", "XLMRobertaTokenizer"},
                       {"camembert", "Camembert", "CamembertTokenizer"}},
        .defaults = robertaDefaults,
        .keys = bertConfigKeys(),
        .finishConfig = checkAbsolutePositions,
        .countParameters = robertaCounts,
        .activations = robertaActivations,
        .positionsAfterPadding = true,
        .basePrefix = "roberta.",
        // RobertaClassificationHead on <s>: dropout, dense, tanh, dropout, out_proj.
        .sequenceHead = {.dropoutFirst = true,
                         .dense = "classifier.dense",
                         .activation = Activation::Tanh,
                         .classifier = "classifier.out_proj"},
        .tokenHead = {},
    };
    return traits;
}

}  // namespace bert
