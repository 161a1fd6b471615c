// Unpadded batches (issue 14, point 2): every layer but attention runs on the real tokens alone,
// and that must change nothing but time and memory. Logits and gradients equal the padded path's
// on batches of very uneven lengths; with dropout on, the same elements of the same real tokens
// are dropped, so even then the two paths agree.
#include <algorithm>
#include <map>

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "data/Batch.h"
#include "model/Dropout.h"
#include "train/Recompute.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::gradients;
using test::maxGradientDifference;
using test::Recorder;
using test::smallConfig;

// fp32 sums of the same terms in another order (rows of other matrix shapes).
constexpr double kSamePathTolerance = 1e-5;

// Examples of 4 to 64 tokens: lengths spread over a factor of 16.
std::vector<const Encoding*> unevenBatch(const TrainingData& data, std::size_t count) {
    std::vector<const Encoding*> batch;
    for (std::size_t i = 0; i < count; ++i) {
        batch.push_back(&data.train.encodings[i]);
    }
    return batch;
}

// Forward and backward of the mean cross-entropy against alternating labels, as a training step
// does; returns the logits and leaves the gradients.
at::Tensor logitsAndBackward(ModelBundle& bundle, const TokenBatch& batch) {
    auto logits = bundle.model->forward(batch);
    const auto labels = at::arange(logits.size(0), at::kLong).remainder(2);
    at::cross_entropy_loss(logits, labels).backward();
    return logits.detach();
}

void clearGradients(ModelBundle& bundle) {
    for (auto& parameter : bundle.model->parameters()) {
        parameter.mutable_grad() = at::Tensor();
    }
}

struct PathResult {
    at::Tensor logits;
    std::map<std::string, at::Tensor> gradients;
};

PathResult runPath(ModelBundle& bundle, const TokenBatch& batch, std::uint64_t seed) {
    clearGradients(bundle);
    at::manual_seed(seed);
    PathResult result;
    result.logits = logitsAndBackward(bundle, batch);
    result.gradients = gradients(bundle);
    return result;
}

double logitDifference(const PathResult& a, const PathResult& b) {
    return (a.logits - b.logits).abs().max().item<double>();
}

TEST(Unpadded, LogitsAndGradientsEqualThePaddedPathOnVeryUnevenLengths) {
    const auto data = test::makeTinyData(24, 4, 31, /*minWords=*/1, /*maxWords=*/70, 64);
    const auto batch = unevenBatch(data, 24);
    std::size_t shortest = 1000;
    std::size_t longest = 0;
    for (const auto* example : batch) {
        shortest = std::min(shortest, example->size());
        longest = std::max(longest, example->size());
    }
    ASSERT_GE(longest, 8 * shortest) << "the test needs very uneven lengths";

    auto bundle = test::makeModel(3, 32, 4, /*dropout=*/0.0, 41);
    bundle.model->train();
    PaddingOptions fixed;
    fixed.fixedLength = 64;
    const auto padded = runPath(bundle, paddedTokenBatch(collate(batch, 0, fixed, c10::kCPU)), 1);
    const auto dynamic = runPath(bundle, paddedTokenBatch(collate(batch, 0, {}, c10::kCPU)), 1);
    // Attention groups of one length each (the CPU's), groups padded inside (CUDA's), and one
    // group for all.
    const auto perLength = packBatch(batch, c10::kCPU, AttentionGrouping{.share = 1.0});
    ASSERT_GE(perLength.layout.groups.size(), 8U);
    for (const auto& group : perLength.layout.groups) {
        EXPECT_FALSE(group.gridRows.defined()) << "a group of one length needs no padding";
    }
    const auto samePerLength = runPath(bundle, perLength, 1);
    const AttentionGrouping split{.share = 0.7};
    const auto packedBatch = packBatch(batch, c10::kCPU, split);
    ASSERT_GE(packedBatch.layout.groups.size(), 3U);
    const auto packed = runPath(bundle, packedBatch, 1);
    const AttentionGrouping whole{.share = 0.0};
    const auto oneGroupBatch = packBatch(batch, c10::kCPU, whole);
    ASSERT_EQ(oneGroupBatch.layout.groups.size(), 1U);
    const auto oneGroup = runPath(bundle, oneGroupBatch, 1);

    for (const auto* other : {&dynamic, &samePerLength, &packed, &oneGroup}) {
        const double logits = logitDifference(padded, *other);
        const double grads = maxGradientDifference(padded.gradients, other->gradients);
        std::cout << "padded vs other path: logits " << logits << ", gradients " << grads << "\n";
        EXPECT_LT(logits, kSamePathTolerance);
        EXPECT_LT(grads, kSamePathTolerance);
    }
    // The packed batch holds the real tokens only.
    std::int64_t real = 0;
    for (const auto* example : batch) {
        real += static_cast<std::int64_t>(example->size());
    }
    EXPECT_EQ(packedBatch.inputIds.numel(), real);
}

TEST(Unpadded, WithDropoutTheSameRealTokensLoseTheSameElements) {
    const auto data = test::makeTinyData(16, 4, 32, 1, 70, 64);
    const auto batch = unevenBatch(data, 16);
    auto bundle = test::makeModel(2, 32, 4, /*dropout=*/0.2, 42);
    bundle.model->train();
    PaddingOptions fixed;
    fixed.fixedLength = 64;
    const auto padded = runPath(bundle, paddedTokenBatch(collate(batch, 0, fixed, c10::kCPU)), 7);
    const auto dynamic = runPath(bundle, paddedTokenBatch(collate(batch, 0, {}, c10::kCPU)), 7);
    const auto packedBatch = packBatch(batch, c10::kCPU, {.share = 0.7});
    ASSERT_GE(packedBatch.layout.groups.size(), 2U);
    const auto packed = runPath(bundle, packedBatch, 7);
    const auto perLength = runPath(bundle, packBatch(batch, c10::kCPU, {.share = 1.0}), 7);
    for (const auto* other : {&dynamic, &packed, &perLength}) {
        EXPECT_LT(logitDifference(padded, *other), kSamePathTolerance);
        EXPECT_LT(maxGradientDifference(padded.gradients, other->gradients), kSamePathTolerance);
    }
    // Guard: dropout is really on, so another draw gives other logits.
    const auto redrawn = runPath(bundle, packedBatch, 8);
    EXPECT_GT(logitDifference(packed, redrawn), 1e-3);
}

TEST(Unpadded, GradientCheckpointingReplaysThePackedLayout) {
    const auto data = test::makeTinyData(12, 4, 33, 1, 70, 64);
    const auto batch = unevenBatch(data, 12);
    const auto packedBatch = packBatch(batch, c10::kCPU, {.share = 0.7});
    auto plain = test::makeModel(2, 32, 4, 0.1, 43);
    auto recomputed = test::makeModel(2, 32, 4, 0.1, 43);
    plain.model->train();
    recomputed.model->train();
    recomputed.model->setLayerRunner(recomputingLayerRunner());
    const auto a = runPath(plain, packedBatch, 5);
    const auto b = runPath(recomputed, packedBatch, 5);
    EXPECT_LT(logitDifference(a, b), 1e-6);
    EXPECT_LT(maxGradientDifference(a.gradients, b.gradients), 1e-6);
}

TEST(Unpadded, AttentionGroupsCutWhereLengthsFallBelowTheShare) {
    // Longest first; a new group where a length is below 0.7 of its group's longest.
    const auto groups =
        attentionGroups({300, 20, 512, 400, 350, 90, 60, 64, 30}, AttentionGrouping{.share = 0.7});
    const std::vector<std::vector<std::size_t>> expected = {{512, 400}, {350, 300}, {90, 64},
                                                            {60},       {30},       {20}};
    EXPECT_EQ(groups, expected);
    // The CPU's grouping: one length per group.
    const std::vector<std::vector<std::size_t>> perLength = {{9, 9}, {8}, {3, 3}};
    EXPECT_EQ(attentionGroups({3, 9, 8, 3, 9}, AttentionGrouping::forDevice(c10::kCPU)), perLength);
}

TEST(Unpadded, MaskRowsDrawTheirCountersWhateverTheRowWidth) {
    // A row keyed k with stride w is row k of the row-major mask of width w, for long rows and
    // for short ones (drawn a few Philox blocks at a time).
    for (const std::int64_t width : {3, 5, 64, 100, 384}) {
        const auto reference = philoxKeepMask({40, width}, 0.8, 99);
        const auto keys = at::tensor(std::vector<std::int64_t>{39, 0, 17, 17, 5}, at::kLong);
        const auto rows = philoxKeepMask({5, width}, 0.8, 99, MaskLayout{keys, width});
        EXPECT_TRUE(at::equal(rows, reference.index_select(0, keys))) << "width " << width;
    }
    // A stride wider than the row: the row is the start of the wider row-major row.
    const auto wide = philoxKeepMask({6, 50}, 0.5, 7);
    const auto keys = at::arange(6, at::kLong);
    EXPECT_TRUE(
        at::equal(philoxKeepMask({6, 7}, 0.5, 7, MaskLayout{keys, 50}), wide.narrow(1, 0, 7)));
}

TEST(Unpadded, TrainingEqualsDynamicPaddingStepForStepWithDropout) {
    const auto data = test::makeTinyData(48, 16, 34, 1, 70, 64);
    auto run = [&](PaddingMode padding, Recorder& recorder) {
        auto bundle = test::makeModel(2, 32, 4, 0.1, 44);
        auto config = smallConfig();
        config.padding = padding;
        config.maxSteps = 6;
        config.evalsPerEpoch = 1;
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        EXPECT_EQ(result.status, RunStatus::Completed) << result.error;
        return bundle;
    };
    Recorder paddedSteps;
    Recorder unpaddedSteps;
    const auto padded = run(PaddingMode::Dynamic, paddedSteps);
    const auto unpadded = run(PaddingMode::Unpadded, unpaddedSteps);
    ASSERT_EQ(paddedSteps.steps.size(), unpaddedSteps.steps.size());
    for (std::size_t i = 0; i < paddedSteps.steps.size(); ++i) {
        EXPECT_NEAR(paddedSteps.steps[i].loss, unpaddedSteps.steps[i].loss, 1e-5) << "step " << i;
        EXPECT_EQ(unpaddedSteps.steps[i].paddingShare, 0.0);
        EXPECT_EQ(unpaddedSteps.steps[i].paddedTokens, unpaddedSteps.steps[i].realTokens);
    }
    EXPECT_GT(paddedSteps.steps.front().paddingShare, 0.1) << "the data must have padding";
    double worst = 0.0;
    const auto a = padded.model->named_parameters();
    const auto b = unpadded.model->named_parameters();
    for (const auto& item : a) {
        worst = std::max(worst, (item.value() - b[item.key()]).abs().max().item<double>());
    }
    std::cout << "dynamic padding vs unpadded after 6 steps with dropout: max |weight difference| "
              << worst << "\n";
    EXPECT_LT(worst, 1e-5);
    ASSERT_FALSE(unpaddedSteps.evaluations.empty());
    EXPECT_NEAR(paddedSteps.evaluations.back().loss, unpaddedSteps.evaluations.back().loss, 1e-5);
}

}  // namespace
}  // namespace bert
