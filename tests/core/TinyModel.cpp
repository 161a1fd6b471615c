#include "TinyModel.h"

namespace bert::test {

std::vector<std::string> tinyVocabulary() {
    std::vector<std::string> vocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    for (const char* word : {"the", "a", "cat", "dog", "sat", "on", "mat", "good", "bad", "movie",
                             "film", "great", "awful", "i", "loved", "hated", "it", "was", "very",
                             "not", ".", ",", "!", "##s", "##ed", "##ing", "free", "money", "win",
                             "now", "meeting", "today", "report", "click", "here", "offer"}) {
        vocabulary.emplace_back(word);
    }
    return vocabulary;
}

ModelBundle makeTinyModel(std::uint64_t seed, std::vector<std::string> labels) {
    BertConfig config;
    config.vocabSize = static_cast<std::int64_t>(tinyVocabulary().size());
    config.hiddenSize = 32;
    config.numHiddenLayers = 2;
    config.numAttentionHeads = 4;
    config.intermediateSize = 64;
    config.maxPositionEmbeddings = 64;
    config.labels = std::move(labels);
    BertForSequenceClassification model(config);
    model->initializeWeights(seed);
    return ModelBundle{config, WordPieceTokenizer(tinyVocabulary(), {}), model, {}};
}

}  // namespace bert::test
