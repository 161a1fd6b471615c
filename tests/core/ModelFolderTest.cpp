#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "TinyModel.h"
#include "data/Batch.h"
#include "hf/ModelFolder.h"
#include "hf/SafeTensors.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

at::Tensor logitsOf(SequenceClassifier& model, const Tokenizer& tokenizer,
                    const std::vector<std::string>& texts) {
    std::vector<Encoding> encodings;
    for (const auto& text : texts) {
        encodings.push_back(tokenizer.encode(text));
    }
    std::vector<const Encoding*> batch;
    for (const auto& encoding : encodings) {
        batch.push_back(&encoding);
    }
    model.eval();
    const torch::NoGradGuard noGrad;
    return model.forward(collate(batch, tokenizer.padId(), {}, c10::kCPU));
}

const std::vector<std::string> kTexts = {"the cat sat on the mat .", "i loved it !",
                                         "win free money now , click here"};

// Expects fn to throw InputError whose file is file and whose message contains fragment.
template <typename Fn>
void expectInputError(Fn&& fn, const std::filesystem::path& file, const std::string& fragment) {
    try {
        fn();
        FAIL() << "expected InputError about " << file;
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), file) << error.what();
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
}

class ModelFolderTest : public ::testing::Test {
protected:
    void SetUp() override {
        bundle_ = test::makeTinyModel(7, {"ham", "spam", "eggs"});
        exportModelFolder(dir_.path(), *bundle_.model, *bundle_.tokenizer);
    }
    void editConfig(const std::function<void(nlohmann::json&)>& edit) {
        auto json = nlohmann::json::parse(test::readFile(dir_ / "config.json"));
        edit(json);
        test::writeFile(dir_ / "config.json", json.dump());
    }

    test::TempDir dir_;
    ModelBundle bundle_ = test::makeTinyModel(0);
};

TEST_F(ModelFolderTest, ExportThenLoadGivesIdenticalLogitsAndLabels) {
    auto loaded = loadModelFolder(dir_.path());
    EXPECT_TRUE(loaded.report.missingKeys.empty());
    EXPECT_TRUE(loaded.report.unexpectedKeys.empty());
    EXPECT_EQ(loaded.config.labels, (std::vector<std::string>{"ham", "spam", "eggs"}));
    EXPECT_TRUE(at::equal(logitsOf(*loaded.model, *loaded.tokenizer, kTexts),
                          logitsOf(*bundle_.model, *bundle_.tokenizer, kTexts)));
    const auto config = nlohmann::json::parse(test::readFile(dir_ / "config.json"));
    EXPECT_EQ(config["architectures"][0], "BertForSequenceClassification");
    EXPECT_EQ(config["label2id"]["spam"], 1);
    EXPECT_EQ(config["id2label"]["2"], "eggs");
}

TEST_F(ModelFolderTest, BaseModelCheckpointGetsAFreshHeadAndAReport) {
    // A base-model checkpoint: names without "bert.", no classifier, plus an MLM head.
    std::vector<std::pair<std::string, at::Tensor>> base;
    for (auto& [name, tensor] : readSafeTensors(dir_ / "model.safetensors").tensors) {
        if (name.rfind("bert.", 0) == 0) {
            base.emplace_back(name.substr(5), tensor);
        }
    }
    base.emplace_back("cls.predictions.bias", at::zeros({4}));
    base.emplace_back("embeddings.position_ids", at::arange(64, at::kLong));
    writeSafeTensors(dir_ / "model.safetensors", base);
    const auto loaded = loadModelFolder(dir_.path());
    EXPECT_EQ(loaded.report.missingKeys,
              (std::vector<std::string>{"classifier.bias", "classifier.weight"}));
    EXPECT_EQ(loaded.report.unexpectedKeys, (std::vector<std::string>{"cls.predictions.bias"}));
    EXPECT_TRUE(loaded.report.freshClassifier);
    EXPECT_NE(loaded.report.describe().find("newly initialized: classifier.bias"),
              std::string::npos);
    // The encoder weights did load.
    EXPECT_TRUE(at::equal(test::bertOf(loaded).embeddings->word_embeddings->weight,
                          test::bertOf(bundle_).embeddings->word_embeddings->weight));
}

TEST_F(ModelFolderTest, NewLabelSetReplacesTheHead) {
    LoadOptions options;
    options.labels = std::vector<std::string>{"positive", "negative"};
    const auto loaded = loadModelFolder(dir_.path(), options);
    EXPECT_EQ(test::classifierOf(loaded).weight.size(0), 2);
    EXPECT_TRUE(loaded.report.freshClassifier);
    EXPECT_EQ(loaded.config.labels, *options.labels);
}

TEST_F(ModelFolderTest, ShapeThatDisagreesWithConfigNamesTensorAndShapes) {
    editConfig([](nlohmann::json& json) { json["intermediate_size"] = 48; });
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "model.safetensors",
                     "\"bert.encoder.layer.0.intermediate.dense.bias\" has shape [64] but "
                     "config.json");
}

TEST_F(ModelFolderTest, ConfigThatIsNotJson) {
    test::writeFile(dir_ / "config.json", "{\"hidden_size\": 32,");
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "config.json",
                     "is not valid JSON");
}

TEST_F(ModelFolderTest, UnknownActivation) {
    editConfig([](nlohmann::json& json) { json["hidden_act"] = "mish"; });
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "config.json",
                     "hidden_act \"mish\" is not supported (supported: gelu, gelu_new");
}

TEST_F(ModelFolderTest, MissingTokenizer) {
    std::filesystem::remove(dir_ / "vocab.txt");
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_.path(),
                     "has no tokenizer: neither tokenizer.json");
}

TEST_F(ModelFolderTest, VocabularyWithoutSpecialTokens) {
    test::writeFile(dir_ / "vocab.txt", "[PAD]\n[CLS]\nhello\n");
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "vocab.txt",
                     "lacks the special token(s) [UNK], [SEP]");
}

TEST_F(ModelFolderTest, VocabularyLargerThanTheModel) {
    std::string vocab = test::readFile(dir_ / "vocab.txt");
    for (int i = 0; i < 10; ++i) {
        vocab += "extra" + std::to_string(i) + "\n";
    }
    test::writeFile(dir_ / "vocab.txt", vocab);
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "vocab.txt",
                     "they belong to different models");
}

TEST_F(ModelFolderTest, MissingWeights) {
    std::filesystem::remove(dir_ / "model.safetensors");
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_.path(),
                     "has no weights: model.safetensors, model.safetensors.index.json");
}

TEST_F(ModelFolderTest, ShardedWeightsLoadAsOneFile) {
    // save_pretrained's layout for large models: shards and an index naming each tensor's.
    const auto tensors = readSafeTensors(dir_ / "model.safetensors").tensors;
    std::vector<std::pair<std::string, at::Tensor>> first(tensors.begin(),
                                                          tensors.begin() + tensors.size() / 2);
    std::vector<std::pair<std::string, at::Tensor>> second(tensors.begin() + tensors.size() / 2,
                                                           tensors.end());
    writeSafeTensors(dir_ / "model-00001-of-00002.safetensors", first);
    writeSafeTensors(dir_ / "model-00002-of-00002.safetensors", second);
    nlohmann::json index = {{"metadata", {{"total_size", 0}}},
                            {"weight_map", nlohmann::json::object()}};
    for (const auto& [name, tensor] : first) {
        index["weight_map"][name] = "model-00001-of-00002.safetensors";
    }
    for (const auto& [name, tensor] : second) {
        index["weight_map"][name] = "model-00002-of-00002.safetensors";
    }
    std::filesystem::remove(dir_ / "model.safetensors");
    test::writeFile(dir_ / "model.safetensors.index.json", index.dump());
    const auto loaded = loadModelFolder(dir_.path());
    EXPECT_TRUE(loaded.report.missingKeys.empty()) << loaded.report.describe();
    EXPECT_TRUE(at::equal(logitsOf(*loaded.model, *loaded.tokenizer, kTexts),
                          logitsOf(*bundle_.model, *bundle_.tokenizer, kTexts)));

    // An index may only name files beside it, and a shard must hold what the index says.
    index["weight_map"][first.front().first] = "../elsewhere.safetensors";
    test::writeFile(dir_ / "model.safetensors.index.json", index.dump());
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "model.safetensors.index.json",
                     "not a file beside the index");
    index["weight_map"][first.front().first] = "model-00002-of-00002.safetensors";
    test::writeFile(dir_ / "model.safetensors.index.json", index.dump());
    expectInputError([&] { loadModelFolder(dir_.path()); },
                     dir_ / "model-00001-of-00002.safetensors", "places in another shard");
}

TEST_F(ModelFolderTest, CorruptPytorchBinIsAClearError) {
    std::filesystem::remove(dir_ / "model.safetensors");
    test::writeFile(dir_ / "pytorch_model.bin", "PK\x03\x04 this is not a real archive");
    expectInputError([&] { loadModelFolder(dir_.path()); }, dir_ / "pytorch_model.bin",
                     "LibTorch cannot read this pickle");
}

TEST(BertConfigTest, ValidatesFields) {
    const std::filesystem::path source = "config.json";
    EXPECT_THROW(
        EncoderConfig::fromJson({{"hidden_size", 100}, {"num_attention_heads", 12}}, source),
        InputError);
    // A family we do not implement is refused with its type and the supported ones.
    try {
        EncoderConfig::fromJson({{"model_type", "xlnet"}}, source);
        FAIL() << "xlnet was accepted";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), source);
        EXPECT_NE(std::string(error.what()).find("\"xlnet\""), std::string::npos);
        EXPECT_NE(std::string(error.what())
                      .find("supported: bert, roberta, xlm-roberta, "
                            "camembert, distilbert, electra, modernbert"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_EQ(EncoderConfig::fromJson({{"model_type", "roberta"}}, source).padTokenId, 1);
    EXPECT_THROW(EncoderConfig::fromJson({{"hidden_dropout_prob", 1.5}}, source), InputError);
    EXPECT_THROW(EncoderConfig::fromJson({{"hidden_size", "big"}}, source), InputError);
    const auto config = EncoderConfig::fromJson({{"id2label", {{"1", "b"}, {"0", "a"}}}}, source);
    EXPECT_EQ(config.labels, (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(EncoderConfig::fromJson({{"num_labels", 4}}, source).numLabels(), 4);
}

// EuroBERT's config.json in both forms (the first releases' rope_theta, transformers 5's
// rope_parameters), grouped-query attention and the three poolings; what the engine does not
// implement is refused by name.
TEST(EuroBertConfigTest, ReadsBothFormsAndRefusesWhatItDoesNotImplementByName) {
    const std::filesystem::path source = "config.json";
    const nlohmann::json base = {{"model_type", "eurobert"}, {"vocab_size", 1000},
                                 {"hidden_size", 64},        {"num_attention_heads", 4},
                                 {"num_hidden_layers", 2},   {"intermediate_size", 96},
                                 {"pad_token_id", 0}};
    auto with = [&](const nlohmann::json& extra) {
        auto json = base;
        json.update(extra);
        return json;
    };
    const auto defaults = EncoderConfig::fromJson(base, source);
    EXPECT_EQ(defaults.keyValueHeads(), 4);
    EXPECT_EQ(defaults.pooling, Pooling::Late);
    EXPECT_DOUBLE_EQ(defaults.globalRopeTheta, 10'000.0);
    EXPECT_EQ(defaults.hiddenAct, "silu");
    EXPECT_FALSE(defaults.attentionBias);
    EXPECT_FALSE(defaults.mlpBias);
    const auto legacy = EncoderConfig::fromJson(with({{"rope_theta", 250'000.0},
                                                      {"rope_scaling", nullptr},
                                                      {"num_key_value_heads", 2},
                                                      {"head_dim", 16},
                                                      {"classifier_pooling", "bos"}}),
                                                source);
    EXPECT_DOUBLE_EQ(legacy.globalRopeTheta, 250'000.0);
    EXPECT_EQ(legacy.keyValueHeads(), 2);
    EXPECT_EQ(legacy.pooling, Pooling::First);
    const auto current = EncoderConfig::fromJson(
        with({{"rope_parameters", {{"rope_type", "default"}, {"rope_theta", 250'000.0}}},
              {"num_key_value_heads", nullptr},
              {"classifier_pooling", "mean"}}),
        source);
    EXPECT_DOUBLE_EQ(current.globalRopeTheta, 250'000.0);
    EXPECT_EQ(current.keyValueHeads(), 4);
    EXPECT_EQ(current.pooling, Pooling::Mean);
    // What it writes reads back the same.
    const auto again = EncoderConfig::fromJson(legacy.toJson(), source);
    EXPECT_EQ(again.keyValueHeads(), 2);
    EXPECT_EQ(again.pooling, Pooling::First);
    EXPECT_DOUBLE_EQ(again.globalRopeTheta, 250'000.0);
    const std::vector<std::pair<nlohmann::json, std::string>> refused = {
        {{{"classifier_pooling", "cls"}}, "classifier_pooling \"cls\" is not bos, mean or late"},
        {{{"rope_parameters", {{"rope_type", "yarn"}, {"rope_theta", 1e4}}}}, "\"yarn\""},
        {{{"rope_scaling", {{"type", "linear"}, {"factor", 2.0}}}}, "rope_scaling"},
        {{{"num_key_value_heads", 3}}, "num_key_value_heads 3"},
        {{{"head_dim", 32}}, "head_dim 32"},
    };
    for (const auto& [extra, named] : refused) {
        try {
            EncoderConfig::fromJson(with(extra), source);
            ADD_FAILURE() << extra.dump() << " was accepted";
        } catch (const InputError& error) {
            EXPECT_EQ(error.file(), source);
            EXPECT_NE(std::string(error.what()).find(named), std::string::npos) << error.what();
        }
    }
}

TEST(BertConfigTest, PresetsHaveTheirPublishedSizes) {
    const auto base = EncoderConfig::preset("base");
    EXPECT_EQ(base.numHiddenLayers, 12);
    EXPECT_EQ(base.hiddenSize, 768);
    const auto model = createClassifier(base);
    // bert-base-uncased with a 2-label head: 109,483,778 parameters.
    EXPECT_EQ(summarizeParameters(*model).count, 109483778);
    EXPECT_EQ(base.parameterCount(), 109483778);
    EXPECT_THROW(EncoderConfig::preset("huge"), InputError);
}

}  // namespace
}  // namespace bert
