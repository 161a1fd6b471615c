// Every technique on every model family (issue 28, point 4). The techniques are written once,
// against SequenceClassifier; these tests hold each family to the same definitions the BERT
// tests hold BERT to: a layout or a memory technique changes how a step computes, never what.
#include <cmath>
#include <functional>
#include <iostream>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::gradients;
using test::maxGradientDifference;
using test::Recorder;
using test::smallConfig;

constexpr std::int64_t kLayers = 3;
constexpr std::int64_t kHidden = 32;
constexpr std::int64_t kHeads = 4;

// The gradients of one window under config, on a fresh model of the family, with the default
// generator at a fixed seed (dropout draws the same masks whatever the layout).
std::map<std::string, at::Tensor> gradientsUnder(const std::string& type, double dropout,
                                                 const TrainingData& data,
                                                 const TrainingConfig& config) {
    Recorder recorder;
    auto bundle = test::makeFamilyModel(type, kLayers, kHidden, kHeads, dropout, 5);
    Trainer trainer(bundle, data, config, recorder);
    at::manual_seed(99);
    trainer.computeGradients({0, 1, 2, 3, 4, 5, 6, 7});
    return gradients(bundle);
}

TEST(FamilyTechniques, LayoutsCheckpointingAndAccumulationGiveEveryFamilyTheSameGradients) {
    // Lengths from 3 to 40 words: padding, attention groups and ModernBERT's window (16) matter.
    const auto data = test::makeTinyData(32, 8, 31, 3, 40, 64);
    for (const auto& type : test::familyModelTypes()) {
        auto fixed = smallConfig();
        fixed.padding = PaddingMode::Fixed;
        // With dropout: padded, dynamically padded, unpadded and recomputed layers draw the same
        // masks for the same tokens (model/Dropout.h), so their gradients are the same.
        const auto reference = gradientsUnder(type, 0.1, data, fixed);
        struct Variant {
            const char* name;
            std::function<void(TrainingConfig&)> apply;
        };
        for (const auto& variant : std::vector<Variant>{
                 {"dynamic padding", [](TrainingConfig& c) { c.padding = PaddingMode::Dynamic; }},
                 {"unpadded", [](TrainingConfig& c) { c.padding = PaddingMode::Unpadded; }},
                 {"gradient checkpointing",
                  [](TrainingConfig& c) { c.gradientCheckpointing = true; }},
                 {"unpadded + checkpointing",
                  [](TrainingConfig& c) {
                      c.padding = PaddingMode::Unpadded;
                      c.gradientCheckpointing = true;
                  }}}) {
            auto config = fixed;
            variant.apply(config);
            const double difference =
                maxGradientDifference(reference, gradientsUnder(type, 0.1, data, config));
            std::cout << type << ", " << variant.name
                      << ": max |gradient difference| = " << difference << "\n";
            EXPECT_LT(difference, 5e-6) << type << ", " << variant.name;
        }
        // Without dropout (micro-batches number their sequences from 0, so masks would move):
        // four micro-batches of two are one batch of eight.
        const auto whole = gradientsUnder(type, 0.0, data, fixed);
        auto accumulating = fixed;
        accumulating.batchSize = 2;
        accumulating.accumulationSteps = 4;
        const double accumulated =
            maxGradientDifference(whole, gradientsUnder(type, 0.0, data, accumulating));
        std::cout << type << ", accumulation 4 x 2: max |gradient difference| = " << accumulated
                  << "\n";
        EXPECT_LT(accumulated, 5e-6) << type;
        // Guard for the test itself: another dropout draw does change the gradients.
        Recorder recorder;
        auto other = test::makeFamilyModel(type, kLayers, kHidden, kHeads, 0.1, 5);
        Trainer trainer(other, data, fixed, recorder);
        at::manual_seed(100);
        trainer.computeGradients({0, 1, 2, 3, 4, 5, 6, 7});
        EXPECT_GT(maxGradientDifference(reference, gradients(other)), 1e-4) << type;
    }
}

// Everything at once, as the README's "all of the above" row: unpadded batches grouped by length,
// accumulation, frozen embeddings and lowest layer with the frozen-prefix cache, bf16 autocast,
// gradient checkpointing, and a memory cap between what micro-batches of 8 and 4 need, so that
// the first step runs out of memory and recovers at 4 x 4, the effective batch kept.
TEST(FamilyTechniques, EveryFamilyTrainsWithEveryTechniqueAtOnceAndRecoversFromOutOfMemory) {
    const auto data = test::makeTinyData(64, 16, 32, 10, 60, 64);
    for (const auto& type : test::familyModelTypes()) {
        auto config = smallConfig();
        config.padding = PaddingMode::Unpadded;
        config.groupByLength = true;
        config.batchSize = 8;
        config.accumulationSteps = 2;
        config.freezeEmbeddings = true;
        config.freezeLayers = 1;
        config.cacheFrozenPrefix = true;
        config.precision = Precision::Bf16;
        config.gradientCheckpointing = true;
        config.maxSteps = 4;
        auto peakAt = [&](std::size_t batch) {
            auto c = config;
            c.cacheFrozenPrefix = false;  // the trial measures the prefix too: the larger peak
            return test::trialPeakAtBatch(
                [&] { return test::makeFamilyModel(type, kLayers, 64, kHeads, 0.1, 7); }, data, c,
                batch);
        };
        const auto peak8 = peakAt(8);
        const auto peak4 = peakAt(4);
        ASSERT_GT(peak8, peak4) << type;

        Recorder recorder;
        auto bundle = test::makeFamilyModel(type, kLayers, 64, kHeads, 0.1, 7);
        std::map<std::string, at::Tensor> before;
        for (const auto& item : bundle.model->named_parameters()) {
            before[item.key()] = item.value().detach().clone();
        }
        // The cap counts everything allocated, as the trial peaks do: the model is resident.
        config.memoryCapBytes = (peak8 + peak4) / 2;
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << type << ": " << result.error;
        EXPECT_GE(recorder.count(EventKind::OomRecovered), 1U) << type;
        ASSERT_EQ(recorder.steps.size(), 4U) << type;
        for (const auto& step : recorder.steps) {
            EXPECT_EQ(step.microBatch * step.accumulation, 16U) << type;
            EXPECT_TRUE(std::isfinite(step.loss)) << type;
        }
        EXPECT_EQ(recorder.steps.back().microBatch, 4U) << type;
        // Trained: the top layer and the head moved; frozen: the embeddings and layer 0 did not.
        std::size_t moved = 0;
        for (const auto& item : bundle.model->named_parameters()) {
            const bool changed = !at::equal(before.at(item.key()), item.value());
            moved += changed ? 1 : 0;
            if (!item.value().requires_grad()) {
                EXPECT_FALSE(changed) << type << ": frozen " << item.key() << " changed";
            }
        }
        for (const auto& parameter : bundle.model->layer(kLayers - 1).parameters()) {
            EXPECT_TRUE(parameter.requires_grad()) << type;
        }
        for (const auto& stage : bundle.model->embeddingModules()) {
            for (const auto& parameter : stage->parameters()) {
                EXPECT_FALSE(parameter.requires_grad()) << type;
            }
        }
        EXPECT_GT(moved, 0U) << type;
        std::cout << type << ": every technique, cap between trial peaks of 8 ("
                  << (peak8 >> 10) << " KiB) and 4 (" << (peak4 >> 10) << " KiB): "
                  << recorder.steps.size() << " steps at " << recorder.steps.back().microBatch
                  << " x " << recorder.steps.back().accumulation << ", " << moved
                  << " tensors trained\n";
    }
}

}  // namespace
}  // namespace bert
