#include "TinyModel.h"

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "hf/ModelFolder.h"
#include "model/Classifiers.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert::test {

std::vector<std::string> tinyVocabulary() {
    std::vector<std::string> vocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    for (const char* word :
         {"the",   "a",    "cat",   "dog",     "sat",   "on",     "mat",   "good",  "bad",
          "movie", "film", "great", "awful",   "i",     "loved",  "hated", "it",    "was",
          "very",  "not",  ".",     ",",       "!",     "##s",    "##ed",  "##ing", "free",
          "money", "win",  "now",   "meeting", "today", "report", "click", "here",  "offer"}) {
        vocabulary.emplace_back(word);
    }
    return vocabulary;
}

ModelBundle makeModel(std::int64_t layers, std::int64_t hidden, std::int64_t heads, double dropout,
                      std::uint64_t seed, std::vector<std::string> labels, std::int64_t vocabSize) {
    EncoderConfig config;
    config.vocabSize =
        vocabSize > 0 ? vocabSize : static_cast<std::int64_t>(tinyVocabulary().size());
    config.hiddenSize = hidden;
    config.numHiddenLayers = layers;
    config.numAttentionHeads = heads;
    config.intermediateSize = 4 * hidden;
    config.maxPositionEmbeddings = 512;
    config.hiddenDropoutProb = dropout;
    config.attentionProbsDropoutProb = dropout;
    config.labels = std::move(labels);
    auto model = createClassifier(config);
    model->initializeWeights(seed);
    return ModelBundle{config, tinyTokenizer(), model, {}};
}

TrainingData makeTinyData(std::size_t trainCount, std::size_t validationCount, std::uint64_t seed,
                          std::size_t minWords, std::size_t maxWords, std::size_t maxLength) {
    const auto vocabulary = tinyVocabulary();
    const std::vector<std::string> positive = {"good", "great", "loved"};
    const std::vector<std::string> neutral = {"the", "a",    "cat",     "dog",  "sat",
                                              "on",  "mat",  "movie",   "film", "it",
                                              "was", "very", "meeting", "today"};
    std::mt19937_64 random(seed);
    auto makeSet = [&](std::size_t count) {
        ExampleSet set;
        set.file = "tiny.csv";
        for (std::size_t i = 0; i < count; ++i) {
            const bool isPositive = i % 2 == 0;
            const std::size_t words = minWords + random() % (maxWords - minWords + 1);
            std::string text;
            for (std::size_t w = 0; w < words; ++w) {
                text += neutral[random() % neutral.size()] + " ";
            }
            if (isPositive) {
                text += positive[random() % positive.size()];
            } else {
                text += "bad";
            }
            set.examples.push_back({text, "", isPositive ? "pos" : "neg", i + 2});
        }
        return set;
    };
    const auto train = makeSet(trainCount);
    const auto validation = makeSet(validationCount);
    const WordPieceTokenizer tokenizer(vocabulary, {});
    TrainingData data;
    data.labels = buildLabelMap(train);
    data.train = tokenizeExamples(train, tokenizer, data.labels, maxLength);
    data.validation = tokenizeExamples(validation, tokenizer, data.labels, maxLength);
    data.fingerprint = "tiny";
    return data;
}

void writeReviewsCsv(const std::filesystem::path& file, int rows) {
    std::ofstream csv(file);
    csv << "review,sentiment\n";
    for (int i = 0; i < rows; ++i) {
        csv << (i % 2 == 0 ? "\"i loved it, a great film !\"" : "\"the film was very bad , awful\"")
            << "," << (i % 2 == 0 ? "pos" : "neg") << "\n";
    }
}

ModelBundle makeTinyModel(std::uint64_t seed, std::vector<std::string> labels) {
    EncoderConfig config;
    config.vocabSize = static_cast<std::int64_t>(tinyVocabulary().size());
    config.hiddenSize = 32;
    config.numHiddenLayers = 2;
    config.numAttentionHeads = 4;
    config.intermediateSize = 64;
    config.maxPositionEmbeddings = 64;
    config.labels = std::move(labels);
    auto model = createClassifier(config);
    model->initializeWeights(seed);
    return ModelBundle{config, tinyTokenizer(), model, {}};
}

const std::vector<std::string>& familyModelTypes() {
    // The first model type of every registered family (model/FamilyList.h): a new family is in
    // every test that loops over them.
    static const std::vector<std::string> types = [] {
        std::vector<std::string> first;
        for (const auto* family : modelFamilies()) {
            first.push_back(family->modelTypes.front().name);
        }
        return first;
    }();
    return types;
}

EncoderConfig familyConfig(const std::string& modelType, std::int64_t layers, std::int64_t hidden,
                           std::int64_t heads, double dropout,
                           const std::vector<std::string>& labels, std::int64_t vocabSize) {
    const auto vocabulary =
        vocabSize > 0 ? vocabSize : static_cast<std::int64_t>(tinyVocabulary().size());
    nlohmann::json json = {
        {"model_type", modelType}, {"vocab_size", vocabulary}, {"pad_token_id", 0}};
    if (modelType == "distilbert") {
        json.update({{"dim", hidden},
                     {"n_layers", layers},
                     {"n_heads", heads},
                     {"hidden_dim", 2 * hidden},
                     {"dropout", dropout},
                     {"attention_dropout", dropout},
                     {"seq_classif_dropout", dropout}});
    } else if (modelType == "modernbert") {
        json.update({{"hidden_size", hidden},
                     {"num_hidden_layers", layers},
                     {"num_attention_heads", heads},
                     {"intermediate_size", 3 * hidden / 2},
                     {"max_position_embeddings", 512},
                     {"local_attention", 16},
                     {"embedding_dropout", dropout},
                     {"attention_dropout", dropout},
                     {"mlp_dropout", dropout},
                     {"classifier_dropout", dropout}});
    } else if (modelType == "eurobert") {
        // Grouped-query attention where the heads allow it: two query heads per key-value head.
        json.update({{"hidden_size", hidden},
                     {"num_hidden_layers", layers},
                     {"num_attention_heads", heads},
                     {"num_key_value_heads", heads % 2 == 0 ? heads / 2 : heads},
                     {"intermediate_size", 3 * hidden / 2},
                     {"max_position_embeddings", 512},
                     {"attention_dropout", dropout},
                     {"rope_parameters", {{"rope_type", "default"}, {"rope_theta", 250000.0}}}});
    } else {
        json.update({{"hidden_size", hidden},
                     {"num_hidden_layers", layers},
                     {"num_attention_heads", heads},
                     {"intermediate_size", 2 * hidden},
                     {"hidden_dropout_prob", dropout},
                     {"attention_probs_dropout_prob", dropout},
                     // RoBERTa's and MPNet's positions start after the padding id.
                     {"max_position_embeddings",
                      modelType == "roberta" || modelType == "mpnet" ? 514 : 512}});
        if (modelType == "roberta") {
            json["type_vocab_size"] = 1;
        }
        if (modelType == "mpnet") {
            // MPNetEmbeddings fix the padding index at 1 (tinyVocabulary's [UNK]; the batches
            // pad with [PAD], 0, past each sequence's real tokens, where no position is read).
            json["pad_token_id"] = 1;
        }
        if (modelType == "electra") {
            json["embedding_size"] = hidden / 2;
        }
        if (modelType == "deberta-v2") {
            // DeBERTa-v3's form, with few buckets: distances past 8 are logarithmic and past 32
            // share the last bucket, within the tests' short texts.
            json.update({{"type_vocab_size", 0},
                         {"relative_attention", true},
                         {"position_biased_input", false},
                         {"position_buckets", 16},
                         {"max_relative_positions", 32},
                         {"pos_att_type", "p2c|c2p"},
                         {"share_att_key", true},
                         {"norm_rel_ebd", "layer_norm"},
                         {"pooler_dropout", dropout},
                         {"pooler_hidden_act", "gelu"},
                         {"layer_norm_eps", 1e-7}});
        }
    }
    nlohmann::json id2label = nlohmann::json::object();
    for (std::size_t i = 0; i < labels.size(); ++i) {
        id2label[std::to_string(i)] = labels[i];
    }
    json["id2label"] = id2label;
    return EncoderConfig::fromJson(json, modelType + "/config.json");
}

ModelBundle makeFamilyModel(const std::string& modelType, std::int64_t layers, std::int64_t hidden,
                            std::int64_t heads, double dropout, std::uint64_t seed,
                            std::vector<std::string> labels, std::int64_t vocabSize) {
    const auto config = familyConfig(modelType, layers, hidden, heads, dropout, labels, vocabSize);
    auto model = createClassifier(config);
    model->initializeWeights(seed);
    return ModelBundle{config, tinyTokenizer(), model, {}};
}

std::shared_ptr<const Tokenizer> tinyTokenizer() {
    return std::make_shared<WordPieceTokenizer>(tinyVocabulary(), TokenizerOptions{});
}

BertModelImpl& bertOf(const ModelBundle& bundle) {
    return dynamic_cast<BertModelImpl&>(dynamic_cast<FamilyClassifier&>(*bundle.model).encoder());
}

torch::nn::LinearImpl& classifierOf(const ModelBundle& bundle) {
    return dynamic_cast<FamilyClassifier&>(*bundle.model).classifier();
}

void cacheRepo(const std::filesystem::path& cache, const std::string& repo,
               const std::string& revision, const ModelBundle& bundle, bool withRef) {
    auto name = "models--" + repo;
    name.replace(name.find('/'), 1, "--");
    const auto root = cache / name;
    const auto staging = root / "staging";
    exportModelFolder(staging, *bundle.model, *bundle.tokenizer);
    std::filesystem::create_directories(root / "blobs");
    std::filesystem::create_directories(root / "snapshots" / revision);
    for (const auto& entry : std::filesystem::directory_iterator(staging)) {
        const auto blob = root / "blobs" / (revision + "-" + entry.path().filename().string());
        std::filesystem::rename(entry.path(), blob);
        std::filesystem::create_symlink(std::filesystem::path("../../blobs") / blob.filename(),
                                        root / "snapshots" / revision / entry.path().filename());
    }
    std::filesystem::remove(staging);
    if (withRef) {
        std::filesystem::create_directories(root / "refs");
        std::ofstream(root / "refs" / "main") << revision;
    }
}

}  // namespace bert::test
