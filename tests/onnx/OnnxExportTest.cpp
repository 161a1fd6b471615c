// ONNX export (core/export/OnnxExport.h) of BERT checked by the consumer users deploy with: ONNX
// Runtime (tests/onnx/onnx_runtime.py, the venv's onnxruntime) loads what we wrote and gives our
// logits within 1e-5 in fp32 on the tricky strings and 64 real e-mails:
//  (a) random models of every activation we implement, gelu_new among them;
//  (b) the real MiniLM with a classifier head;
//  (c) weights in external data, as models beyond 2 GB must be written.
// tests/onnx/OnnxFamilyTest.cpp does the same for every other family;
// tests/cli/CliTest.cpp exports a trained run with `export --format onnx`.
#include <iostream>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>

#include "DefaultModel.h"
#include "data/Batch.h"
#include "data/TableReader.h"
#include "export/OnnxExport.h"
#include "hf/ModelFolder.h"
#include "model/Classifiers.h"
#include "onnx/OnnxRuntime.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

// fp32 on both sides, different kernels and summation orders (issue 28 asks 1e-4; we measure
// below 3e-7).
constexpr float kLogitTolerance = 1e-5F;
// Tokens per text: long enough that the e-mails' batches are mostly uneven padding.
constexpr std::size_t kMaxLength = 128;
// Real e-mails in the comparison.
constexpr std::size_t kMailCount = 64;

/// The test inputs, encoded by a tokenizer: the tricky strings, then the e-mails if present.
std::vector<std::string> comparisonTexts() {
    const auto cases =
        nlohmann::json::parse(test::readFile(test::sourcePath("tests/parity/tricky_strings.json")));
    std::vector<std::string> texts;
    for (const auto& text : cases["single"]) {
        texts.push_back(text.get<std::string>());
    }
    if (const auto corpus = test::sharedDataFile("spamassassin-part1.csv"); !corpus.empty()) {
        const auto table = readTable(corpus, TableFormat::Csv, kMailCount);
        const auto column = table.columnIndex("text");
        for (const auto& row : table.rows) {
            texts.push_back(row.at(*column));
        }
    } else {
        std::cout << "../shared/data/spamassassin-part1.csv is absent: tricky strings only\n";
    }
    return texts;
}

PaddedInputs encodeAll(const Tokenizer& tokenizer, const std::vector<std::string>& texts) {
    std::vector<Encoding> encodings;
    for (const auto& text : texts) {
        encodings.push_back(tokenizer.encode(text, kMaxLength));
    }
    std::vector<const Encoding*> batch;
    for (const auto& encoding : encodings) {
        batch.push_back(&encoding);
    }
    return collate(batch, tokenizer.padId(), {}, c10::kCPU);
}

class OnnxExport : public ::testing::Test {
protected:
    void SetUp() override {
        if (!onnxExportAvailable()) {
            GTEST_SKIP() << "this build has no ONNX export (libonnx-dev was not found)";
        }
        if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
            GTEST_SKIP() << reason;
        }
    }

    /// Exports the model, runs it in ONNX Runtime and compares with our own eval logits.
    float exportedDifference(SequenceClassifier& model, const PaddedInputs& inputs,
                             const OnnxExportOptions& options = {}) {
        const auto file = dir_.path() / "model.onnx";
        writeOnnxModel(file, model, options);
        const auto theirs = test::onnxRuntimeLogits(file, inputs, dir_.path());
        if (!theirs.defined()) {
            return std::numeric_limits<float>::infinity();
        }
        model.eval();
        const torch::NoGradGuard noGrad;
        const auto ours = model.forward(inputs);
        EXPECT_EQ(theirs.sizes(), ours.sizes());
        return (theirs - ours).abs().max().item<float>();
    }

    test::TempDir dir_;
};

TEST_F(OnnxExport, RandomModelsOfEveryActivationRunInOnnxRuntimeWithOurLogits) {
    const auto minilm = loadModelFolder(defaultModelFolder());
    const auto inputs = encodeAll(*minilm.tokenizer, comparisonTexts());
    const std::vector<std::string> activations = {"gelu", "gelu_new", "relu", "silu"};
    std::vector<std::shared_ptr<SequenceClassifier>> models;
    std::vector<test::OnnxRuntimeJob> jobs;
    for (const auto& activation : activations) {
        auto config = EncoderConfig::preset("mini", minilm.config.vocabSize);
        config.hiddenAct = activation;
        config.labels = {"negative", "neutral", "positive"};
        models.push_back(createClassifier(config));
        models.back()->initializeWeights(/*seed=*/17);
        models.back()->eval();
        const auto file = dir_.path() / (activation + ".onnx");
        writeOnnxModel(file, *models.back());
        jobs.push_back({file, inputs});
    }
    // One ONNX Runtime process for all of them.
    const auto results = test::runOnnxRuntime(jobs, dir_.path());
    ASSERT_EQ(results.size(), jobs.size());
    const torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < activations.size(); ++i) {
        const auto ours = models[i]->forward(inputs);
        ASSERT_EQ(results[i].logits.sizes(), ours.sizes());
        const float difference = (results[i].logits - ours).abs().max().item<float>();
        std::cout << "random " << activations[i]
                  << ": ONNX Runtime max |logit difference| = " << difference << "\n";
        EXPECT_LE(difference, kLogitTolerance) << activations[i];
    }
}

TEST_F(OnnxExport, MiniLMClassifierRunsInOnnxRuntimeWithOurLogitsAndDynamicAxes) {
    LoadOptions options;
    options.labels = std::vector<std::string>{"ham", "spam"};
    auto bundle = loadModelFolder(defaultModelFolder(), options);
    const auto texts = comparisonTexts();
    const auto inputs = encodeAll(*bundle.tokenizer, texts);
    const float difference = exportedDifference(*bundle.model, inputs);
    std::cout << "MiniLM over " << texts.size()
              << " texts: ONNX Runtime max |logit difference| = " << difference << "\n";
    EXPECT_LE(difference, kLogitTolerance);

    // Dynamic axes: the same file takes another batch size and sequence length.
    const auto small = encodeAll(*bundle.tokenizer, {"short", "a little longer than that"});
    nlohmann::json described;
    const auto logits =
        test::onnxRuntimeLogits(dir_.path() / "model.onnx", small, dir_.path(), &described);
    ASSERT_TRUE(logits.defined());
    EXPECT_EQ(logits.sizes(), (std::vector<std::int64_t>{2, 2}));
    std::vector<std::string> names;
    for (const auto& input : described["inputs"]) {
        names.push_back(input["name"]);
        EXPECT_EQ(input["type"], "tensor(int64)");
        EXPECT_EQ(input["shape"], nlohmann::json::parse(R"(["batch", "sequence"])"));
    }
    EXPECT_EQ(names, (std::vector<std::string>{"input_ids", "attention_mask", "token_type_ids"}));
    EXPECT_EQ(described["outputs"][0]["name"], "logits");
    EXPECT_EQ(described["outputs"][0]["shape"], nlohmann::json::parse(R"(["batch", 2])"));
    EXPECT_EQ(described["metadata"]["id2label.1"], "spam");
    EXPECT_EQ(described["producer"], "BERT Studio");
}

TEST_F(OnnxExport, WeightsInExternalDataLoadAsLargeModelsMust) {
    const auto minilm = loadModelFolder(defaultModelFolder());
    auto config = EncoderConfig::preset("tiny", minilm.config.vocabSize);
    auto model = createClassifier(config);
    model->initializeWeights(/*seed=*/5);
    const auto inputs = encodeAll(*minilm.tokenizer, {"external data", "works [UNK] too"});
    // A threshold of zero sends every weight out, as a 2 GB model would.
    const float difference = exportedDifference(*model, inputs, {.externalDataThresholdBytes = 0});
    EXPECT_LE(difference, kLogitTolerance);
    const auto graphBytes = std::filesystem::file_size(dir_.path() / "model.onnx");
    const auto dataBytes = std::filesystem::file_size(dir_.path() / "model.onnx.data");
    EXPECT_GE(dataBytes, static_cast<std::uintmax_t>(config.parameterCount() * 4 * 9 / 10));
    EXPECT_LT(graphBytes, dataBytes / 20) << "the weights stayed in the graph";

    // Written again under the threshold, the stale data file goes.
    writeOnnxModel(dir_.path() / "model.onnx", *model);
    EXPECT_FALSE(std::filesystem::exists(dir_.path() / "model.onnx.data"));
}

}  // namespace
}  // namespace bert
