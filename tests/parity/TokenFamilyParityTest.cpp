// Every family's token classifier against transformers' AutoModelForTokenClassification on the
// same weights (issue 29, point 4): random small models that transformers itself creates
// (tests/parity/token_families.py: families.py's cases, BERT, RoBERTa, XLM-RoBERTa, CamemBERT,
// DistilBERT, ELECTRA, ModernBERT with biases on and off and with texts past its default local
// window, MPNet with texts short and past its relative buckets' 128), every parameter perturbed,
// plus a multi-label and a regression sequence classifier:
//  - every weight of the file loads (bert.* without bert.pooler.*, classifier.*), nothing is
//    left over, and the head, the tags and problem_type come from config.json;
//  - eval logits within 1e-5 on every real token of padded batches of single sequences and of
//    pairs, and of the same sequences unpadded (packed rows in packed order, attention groups
//    of one length and of mixed lengths);
//  - our export of the loaded model loads in transformers' Auto class for its head with the
//    same logits, id2label and problem_type.
#include <iostream>

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

namespace bert {
namespace {

constexpr float kLogitTolerance = 1e-5F;

// The sequences of a padded batch without their padding.
std::vector<Encoding> unpaddedRows(const PaddedInputs& inputs) {
    std::vector<Encoding> rows;
    const auto lengths = inputs.attentionMask.sum(1);
    for (std::int64_t b = 0; b < inputs.inputIds.size(0); ++b) {
        Encoding encoding;
        for (std::int64_t s = 0; s < lengths[b].item<std::int64_t>(); ++s) {
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

// The largest difference over the real tokens: logits and reference [B, S, labels] (padding
// rows ignored: their logits mean nothing, and no loss or metric reads them), or [B, labels]
// for a sequence head.
float realTokenDifference(const at::Tensor& logits, const at::Tensor& reference,
                          const at::Tensor& attentionMask) {
    auto difference = (logits - reference).abs();
    if (difference.dim() == 3) {
        difference = difference * attentionMask.unsqueeze(-1).to(difference.scalar_type());
    }
    return difference.max().item<float>();
}

class TokenFamilyParity : public test::ScriptCases<TokenFamilyParity> {
public:
    static constexpr const char* kScript = "tests/parity/token_families.py";
};

TEST_F(TokenFamilyParity, EveryFamilysTokenClassifierLoadsWholeAndGivesTransformersLogits) {
    const auto folders = caseFolders();
    ASSERT_EQ(folders.size(), 21U);  // 19 token classifiers, a multi-label and a regression
    for (const auto& folder : folders) {
        const auto name = folder.filename().string();
        SCOPED_TRACE(name);
        const auto caseInfo = nlohmann::json::parse(test::readFile(folder / "case.json"));
        const bool token = caseInfo["head"] == "token";
        const auto bundle = loadModelFolder(folder);
        EXPECT_TRUE(bundle.report.missingKeys.empty()) << bundle.report.describe();
        EXPECT_TRUE(bundle.report.unexpectedKeys.empty()) << bundle.report.describe();
        EXPECT_EQ(bundle.config.head, token ? HeadKind::Token : HeadKind::Sequence);
        EXPECT_EQ(bundle.config.labels, caseInfo["labels"].get<std::vector<std::string>>());
        if (caseInfo["problem_type"].is_null()) {
            EXPECT_FALSE(bundle.config.problemType.has_value());
        } else {
            ASSERT_TRUE(bundle.config.problemType.has_value());
            EXPECT_EQ(problemTypeName(*bundle.config.problemType), caseInfo["problem_type"]);
        }
        bundle.model->eval();
        const torch::NoGradGuard noGrad;
        const auto expected = readSafeTensors(folder / "expected.safetensors");
        for (const std::string kind : {"single", "pair"}) {
            const PaddedInputs inputs{expected.find(kind + ".input_ids"),
                                      expected.find(kind + ".token_type_ids"),
                                      expected.find(kind + ".attention_mask")};
            const auto reference = expected.find(kind + ".logits");
            const auto logits = bundle.model->forward(inputs);
            ASSERT_EQ(logits.sizes(), reference.sizes());
            const float padded = realTokenDifference(logits, reference, inputs.attentionMask);
            const auto rows = unpaddedRows(inputs);
            std::vector<const Encoding*> batch;
            for (const auto& row : rows) {
                batch.push_back(&row);
            }
            // Attention groups of one length each (the CPU's), and mixed lengths in one group.
            float unpadded[2] = {0.0F, 0.0F};
            const double shares[2] = {1.0, 0.3};
            for (int i = 0; i < 2; ++i) {
                const auto packed =
                    packBatch(batch, c10::kCPU, AttentionGrouping{.share = shares[i]});
                const auto packedLogits = bundle.model->forward(packed);
                // A token head's rows are the packed tokens; a sequence head's the sequences.
                const auto expectedRows = token ? packedRows(reference, packed.layout) : reference;
                ASSERT_EQ(packedLogits.sizes(), expectedRows.sizes());
                unpadded[i] = (packedLogits - expectedRows).abs().max().item<float>();
            }
            std::cout << name << " " << kind << ": max |logit difference| padded " << padded
                      << ", unpadded " << unpadded[0] << " / " << unpadded[1] << "\n";
            EXPECT_LE(padded, kLogitTolerance) << kind;
            EXPECT_LE(unpadded[0], kLogitTolerance) << kind;
            EXPECT_LE(unpadded[1], kLogitTolerance) << kind;
        }
    }
}

TEST_F(TokenFamilyParity, OurExportLoadsInTransformersAutoClassWithOurLogitsAndProblemType) {
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
    ASSERT_EQ(test::runPythonScript("tests/parity/token_families.py", loadArguments, log), 0)
        << test::readFile(log);
    for (auto& [name, bundle, inputs, caseInfo] : exports) {
        SCOPED_TRACE(name);
        const auto out = dir_->path() / "loaded" / name;
        bundle.model->eval();
        const torch::NoGradGuard noGrad;
        const auto reference = readSafeTensors(out / "loaded.safetensors").find("logits");
        const auto logits = bundle.model->forward(inputs);
        ASSERT_EQ(logits.sizes(), reference.sizes());
        const float difference = realTokenDifference(logits, reference, inputs.attentionMask);
        std::cout << name << ": exported, transformers' max |logit difference| = " << difference
                  << "\n";
        EXPECT_LE(difference, kLogitTolerance);
        const auto loaded = nlohmann::json::parse(test::readFile(out / "loaded.json"));
        EXPECT_EQ(loaded["class"], caseInfo["class"]);
        const auto labels = caseInfo["labels"].get<std::vector<std::string>>();
        EXPECT_EQ(loaded["id2label"][std::to_string(labels.size() - 1)], labels.back());
        EXPECT_EQ(loaded["problem_type"], caseInfo["problem_type"]);
    }
}

}  // namespace
}  // namespace bert
