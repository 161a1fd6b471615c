// Every encoder family against transformers on the same weights (issue 28): random small
// models that transformers itself creates (tests/parity/families.py: BERT, RoBERTa,
// XLM-RoBERTa, CamemBERT, DistilBERT, ELECTRA, ModernBERT with [CLS] and mean pooling, biases
// on and off, the default local window on sequences longer than it, both config.json forms,
// mmBERT's shape (both forms in one file, disagreeing) and Ettin's (seven layers, bases given
// only in the first releases' keys);
// MPNet on short sequences and on sequences past its relative position buckets' reach of 128;
// DeBERTa-v3 with few buckets past their reach, with v3's 256 buckets past the exact 128, and
// deberta-v2 with absolute positions, token types, c2p alone and unbucketed distances; EuroBERT
// with late, mean and first-token pooling over two, four and one key-value heads for four query
// heads, biases on and off, on sequences up to 300),
// every parameter perturbed so that nothing sits at its initial value:
//  - every weight of the file loads, and nothing is left over;
//  - eval logits within 1e-5 on padded batches of single sequences and of pairs, and on the
//    same sequences unpadded (packed, in attention groups of one length and of mixed lengths);
//  - our export of the loaded model loads in transformers' AutoModelForSequenceClassification
//    (the family's own class) with the same logits;
//  - the trainer decays the parameters transformers' Trainer decays, no more and no fewer.
#include <iostream>
#include <set>
#include <string>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>

#include "ScriptCases.h"
#include "data/Batch.h"
#include "hf/ModelFolder.h"
#include "hf/SafeTensors.h"
#include "model/FamilyTraits.h"
#include "support/TestSupport.h"
#include "train/WeightDecay.h"

namespace bert {
namespace {

constexpr float kLogitTolerance = 1e-5F;

float maxDifference(const at::Tensor& a, const at::Tensor& b) {
    return (a.to(at::kFloat) - b.to(at::kFloat)).abs().max().item<float>();
}

// The sequences of a padded batch without their padding.
std::vector<Encoding> unpaddedRows(const PaddedInputs& inputs) {
    std::vector<Encoding> rows;
    for (std::int64_t b = 0; b < inputs.inputIds.size(0); ++b) {
        Encoding encoding;
        for (std::int64_t s = 0; s < inputs.inputIds.size(1); ++s) {
            if (inputs.attentionMask[b][s].item<std::int64_t>() == 0) {
                break;
            }
            encoding.inputIds.push_back(
                static_cast<std::int32_t>(inputs.inputIds[b][s].item<std::int64_t>()));
            encoding.tokenTypeIds.push_back(
                static_cast<std::int32_t>(inputs.tokenTypeIds[b][s].item<std::int64_t>()));
            encoding.attentionMask.push_back(1);
        }
        rows.push_back(std::move(encoding));
    }
    return rows;
}

class FamilyParity : public test::ScriptCases<FamilyParity> {
public:
    static constexpr const char* kScript = "tests/parity/families.py";
};

TEST_F(FamilyParity, EveryFamilyLoadsWholeAndGivesTransformersLogitsPaddedAndUnpadded) {
    const auto folders = caseFolders();
    ASSERT_EQ(folders.size(), 19U);
    for (const auto& folder : folders) {
        const auto name = folder.filename().string();
        const auto bundle = loadModelFolder(folder);
        EXPECT_TRUE(bundle.report.missingKeys.empty()) << name << ": " << bundle.report.describe();
        EXPECT_TRUE(bundle.report.unexpectedKeys.empty())
            << name << ": " << bundle.report.describe();
        EXPECT_EQ(bundle.config.labels,
                  (std::vector<std::string>{"negative", "neutral", "positive"}));
        bundle.model->eval();
        const torch::NoGradGuard noGrad;
        const auto expected = readSafeTensors(folder / "expected.safetensors");
        for (const std::string kind : {"single", "pair"}) {
            const PaddedInputs inputs{expected.find(kind + ".input_ids"),
                                      expected.find(kind + ".token_type_ids"),
                                      expected.find(kind + ".attention_mask")};
            const auto reference = expected.find(kind + ".logits");
            const float padded = maxDifference(bundle.model->forward(inputs), reference);
            const auto rows = unpaddedRows(inputs);
            std::vector<const Encoding*> batch;
            for (const auto& row : rows) {
                batch.push_back(&row);
            }
            // Attention groups of one length each (the CPU's), and mixed lengths in one group.
            const float oneLength = maxDifference(
                bundle.model->forward(packBatch(batch, c10::kCPU, AttentionGrouping{.share = 1.0})),
                reference);
            const float mixed = maxDifference(
                bundle.model->forward(packBatch(batch, c10::kCPU, AttentionGrouping{.share = 0.3})),
                reference);
            std::cout << name << " " << kind << ": max |logit difference| padded " << padded
                      << ", unpadded " << oneLength << " / " << mixed << "\n";
            EXPECT_LE(padded, kLogitTolerance) << name << " " << kind;
            EXPECT_LE(oneLength, kLogitTolerance) << name << " " << kind;
            EXPECT_LE(mixed, kLogitTolerance) << name << " " << kind;
        }
    }
}

TEST_F(FamilyParity, OurExportOfEveryFamilyLoadsInTransformersWithOurLogits) {
    struct Exported {
        std::string name;
        ModelBundle bundle;
        PaddedInputs inputs;
        nlohmann::json caseInfo;
    };
    std::vector<Exported> exports;
    std::vector<std::string> loadArguments = {"load", (dir_->path() / "loaded").string()};
    for (const auto& folder : caseFolders()) {
        const auto name = folder.filename().string();
        auto bundle = loadModelFolder(folder);
        {
            // Move the weights away from what transformers saved: the check is about our export.
            const torch::NoGradGuard noGrad;
            for (auto& parameter : bundle.model->parameters()) {
                parameter.mul_(1.01);
            }
        }
        const auto exported = dir_->path() / "exported" / name;
        exportModelFolder(exported, *bundle.model, *bundle.tokenizer, 128);
        const auto config = nlohmann::json::parse(test::readFile(exported / "config.json"));
        const auto caseInfo = nlohmann::json::parse(test::readFile(folder / "case.json"));
        EXPECT_EQ(config["architectures"][0], caseInfo["class"]) << name;

        const auto expected = readSafeTensors(folder / "expected.safetensors");
        const PaddedInputs inputs{expected.find("pair.input_ids"),
                                  expected.find("pair.token_type_ids"),
                                  expected.find("pair.attention_mask")};
        std::vector<std::pair<std::string, at::Tensor>> saved = {
            {"input_ids", inputs.inputIds}, {"attention_mask", inputs.attentionMask}};
        if (caseInfo["token_types"].get<bool>()) {
            saved.emplace_back("token_type_ids", inputs.tokenTypeIds);
        }
        writeSafeTensors(exported / "inputs.safetensors", saved);
        loadArguments.push_back(exported.string());
        exports.push_back({name, std::move(bundle), inputs, caseInfo});
    }
    // One Python process loads them all (each start costs seconds of imports).
    const auto log = dir_->path() / "load.log";
    ASSERT_EQ(test::runPythonScript("tests/parity/families.py", loadArguments, log), 0)
        << test::readFile(log);
    for (auto& [name, bundle, inputs, caseInfo] : exports) {
        const auto out = dir_->path() / "loaded" / name;
        bundle.model->eval();
        const torch::NoGradGuard noGrad;
        const float difference =
            maxDifference(bundle.model->forward(inputs),
                          readSafeTensors(out / "loaded.safetensors").find("logits"));
        std::cout << name << ": exported, transformers' max |logit difference| = " << difference
                  << "\n";
        EXPECT_LE(difference, kLogitTolerance) << name;
        const auto loaded = nlohmann::json::parse(test::readFile(out / "loaded.json"));
        EXPECT_EQ(loaded["class"], caseInfo["class"]) << name;
        EXPECT_EQ(loaded["id2label"]["2"], "positive") << name;
    }
}

// Guards the bug where our rule looked for "LayerNorm" in a parameter's name: ModernBERT's and
// DistilBERT's norm weights were decayed, which Trainer does not, and ModernBERT's training
// parity with Trainer was 100 times BERT's (2.8e-4 in its regression losses over 50 steps).
TEST_F(FamilyParity, EveryFamilyDecaysTheWeightsTransformersTrainerDecays) {
    for (const auto& folder : caseFolders()) {
        const auto name = folder.filename().string();
        const auto bundle = loadModelFolder(folder);
        const auto caseInfo = nlohmann::json::parse(test::readFile(folder / "case.json"));
        const auto decayed = caseInfo.at("decayed").get<std::set<std::string>>();
        std::size_t ours = 0;
        std::size_t undecayed = 0;
        for (const auto& item : bundle.model->named_parameters()) {
            const bool decays = takesWeightDecay(item.key());
            EXPECT_EQ(decays, decayed.count(item.key()) == 1)
                << name << ": " << item.key() << (decays ? " decayed" : " not decayed")
                << " by ours, " << (decays ? "not " : "") << "by Trainer";
            ours += decays ? 1 : 0;
            undecayed += decays ? 0 : 1;
        }
        EXPECT_EQ(ours, decayed.size()) << name;
        EXPECT_GT(undecayed, 0U) << name;
    }
}

}  // namespace
}  // namespace bert
