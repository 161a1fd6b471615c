// Which parameters AdamW decays, on every family: what transformers' Trainer decays (every weight
// but biases and the normalisation layers'). Guards the bug where the rule looked for "LayerNorm"
// in the name and so decayed ModernBERT's and DistilBERT's norm weights, which Trainer does not:
// ModernBERT's parity with Trainer was 100 times BERT's, 2.7e-5 in its norm weights.
#include <atomic>
#include <map>
#include <set>
#include <string>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/nn/modules/normalization.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "model/eurobert/EuroBertModel.h"
#include "model/modernbert/ModernBertModel.h"
#include "train/Trainer.h"
#include "train/WeightDecay.h"

namespace bert {
namespace {

// Parameters Trainer leaves undecayed, found by what they are rather than by name: every
// parameter of a LayerNorm module (torch's or ModernBERT's bias-optional one) or of EuroBERT's
// RMSNorm, every bias, and MPNet's relative position bias table (an embedding, which Trainer's
// "bias" pattern finds in its name, encoder.relative_attention_bias: FamilyParity checks that
// against Trainer itself).
std::set<std::string> normAndBiasParameters(const ModelBundle& bundle) {
    std::set<std::string> names;
    const std::string relativeBias = "relative_attention_bias";
    for (const auto& module : bundle.model->named_modules()) {
        const bool undecayedModule =
            module.value()->as<torch::nn::LayerNorm>() != nullptr ||
            module.value()->as<ModernBertNorm>() != nullptr ||
            module.value()->as<EuroBertRmsNorm>() != nullptr ||
            (module.key().size() >= relativeBias.size() &&
             module.key().compare(module.key().size() - relativeBias.size(), relativeBias.size(),
                                  relativeBias) == 0);
        for (const auto& parameter : module.value()->named_parameters(/*recurse=*/false)) {
            const auto name =
                module.key().empty() ? parameter.key() : module.key() + "." + parameter.key();
            if (undecayedModule || parameter.key() == "bias") {
                names.insert(name);
            }
        }
    }
    return names;
}

// The weights after one step at the given weight decay, from the same start and batch.
std::map<std::string, at::Tensor> weightsAfterOneStep(const std::string& type,
                                                      const TrainingData& data,
                                                      double weightDecay) {
    auto config = test::smallConfig();
    config.maxSteps = 1;
    config.weightDecay = weightDecay;
    test::Recorder recorder;
    auto bundle = test::makeFamilyModel(type, 2, 32, 4, 0.0, 3);
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    EXPECT_EQ(result.status, RunStatus::Completed) << type << ": " << result.error;
    std::map<std::string, at::Tensor> weights;
    for (const auto& item : bundle.model->named_parameters()) {
        weights[item.key()] = item.value().detach().clone();
    }
    return weights;
}

TEST(WeightDecay, EveryFamilyDecaysWhatTransformersTrainerDecaysNotItsNormsOrBiases) {
    const auto data = test::makeTinyData(16, 4, 11);
    constexpr double kDecay = 0.5;
    const double learningRate = test::smallConfig().learningRate;  // no warmup: step 1's rate
    for (const auto& type : test::familyModelTypes()) {
        const auto start = test::makeFamilyModel(type, 2, 32, 4, 0.0, 3);
        const auto undecayed = normAndBiasParameters(start);
        std::size_t norms = 0;
        std::size_t decayed = 0;
        const auto without = weightsAfterOneStep(type, data, 0.0);
        const auto with = weightsAfterOneStep(type, data, kDecay);
        for (const auto& item : start.model->named_parameters()) {
            const auto& name = item.key();
            const bool expectDecay = undecayed.count(name) == 0;
            EXPECT_EQ(takesWeightDecay(name), expectDecay) << type << ": " << name;
            // AdamW's decoupled decay: the same Adam update, and the weight also shrunk by
            // lr x decay x its value before the step.
            const auto shrink = without.at(name) - with.at(name);
            const auto expected = expectDecay ? item.value().detach() * (learningRate * kDecay)
                                              : at::zeros_like(shrink);
            EXPECT_TRUE(at::allclose(shrink, expected, 1e-4, 1e-7))
                << type << ": " << name << (expectDecay ? " was not decayed" : " was decayed");
            norms += name.find("bias") == std::string::npos && !expectDecay ? 1 : 0;
            decayed += expectDecay ? 1 : 0;
        }
        EXPECT_GE(norms, 2U) << type << ": no norm weight found, the test checks nothing";
        EXPECT_GE(decayed, 4U) << type;
    }
}

TEST(WeightDecay, TheRuleReadsNamesAsTrainerReadsThem) {
    for (const char* undecayed :
         {"bert.embeddings.LayerNorm.weight", "classifier.bias", "model.final_norm.weight",
          "model.embeddings.norm.weight", "head.norm.weight", "model.layers.1.attn_norm.weight",
          "distilbert.transformer.layer.0.sa_layer_norm.weight", "x.rmsnorm.weight"}) {
        EXPECT_FALSE(takesWeightDecay(undecayed)) << undecayed;
    }
    for (const char* decayed :
         {"bert.encoder.layer.0.attention.self.query.weight", "model.layers.0.mlp.Wi.weight",
          "classifier.weight", "model.normal.weight", "normalizer.weight"}) {
        EXPECT_TRUE(takesWeightDecay(decayed)) << decayed;
    }
}

}  // namespace
}  // namespace bert
