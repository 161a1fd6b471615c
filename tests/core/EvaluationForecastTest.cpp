// Issue 27, points 5 and 8 (engine side): the forecast counts evaluation's peak, and suggestFit
// lowers the evaluation batch when evaluation alone does not fit; evaluation reports its batches.
// Prints the figures.
#include <algorithm>
#include <cstdio>
#include <functional>

#include <gtest/gtest.h>

#include "TinyModel.h"
#include "memory/DeviceTraits.h"
#include "train/EvaluationForecast.h"
#include "train/MemoryForecast.h"
#include "memory/MemoryMonitor.h"
#include "train/Trainer.h"

namespace bert {
namespace {

constexpr std::int64_t kVocabulary = 30522;
constexpr std::int64_t kLayers = 4;
constexpr std::int64_t kHidden = 128;
constexpr std::int64_t kHeads = 4;

/// The peak of each evaluation of a run, from its first progress report to its result, and
/// the progress reports themselves.
struct EvaluationPeaks final : TrainerObserver {
    MemoryMonitor monitor{c10::Device(c10::kCPU)};
    std::vector<std::int64_t> peaks;
    std::vector<std::pair<std::size_t, std::size_t>> progress;
    std::vector<TrainerEvent> events;
    void onEvaluationProgress(std::size_t done, std::size_t batches) override {
        if (done == 0) {
            monitor.resetPeak();
        }
        progress.emplace_back(done, batches);
    }
    void onEvaluation(const EvalMetrics&) override { peaks.push_back(monitor.sample().peak); }
    void onEvent(const TrainerEvent& event) override { events.push_back(event); }
};

double mib(std::int64_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

TrainingConfig oneStep() {
    TrainingConfig config;
    config.batchSize = 4;
    config.maxLength = 128;
    config.maxSteps = 1;
    config.saveCheckpoints = false;
    config.trialStep = false;
    config.threads = 1;
    return config;
}

TEST(EvaluationForecast, TheEvaluationPeakIsForecastWithin20Percent) {
    const MemoryMonitor countFromHere{c10::Device(c10::kCPU)};
    const auto data = test::makeTinyData(16, 96, 5, 60, 110, 128);
    struct Row {
        const char* name;
        std::function<void(TrainingConfig&)> apply;
    };
    const std::vector<Row> rows = {
        {"dynamic padding, eval batch 32", [](TrainingConfig& c) { c.evalBatchSize = 32; }},
        {"dynamic padding, eval batch 64", [](TrainingConfig& c) { c.evalBatchSize = 64; }},
        {"fixed padding, eval batch 64",
         [](TrainingConfig& c) {
             c.padding = PaddingMode::Fixed;
             c.evalBatchSize = 64;
         }},
        {"unpadded, eval batch 64",
         [](TrainingConfig& c) {
             c.padding = PaddingMode::Unpadded;
             c.evalBatchSize = 64;
         }},
        {"bf16, eval batch 64",
         [](TrainingConfig& c) {
             c.precision = Precision::Bf16;
             c.evalBatchSize = 64;
         }},
        {"frozen embeddings, eval batch 16",
         [](TrainingConfig& c) {
             c.freezeEmbeddings = true;
             c.evalBatchSize = 16;
         }},
    };
    std::printf("\n%-36s %10s %10s %8s\n", "evaluation (CPU)", "peak MiB", "forecast", "error");
    for (const auto& row : rows) {
        auto config = oneStep();
        config.padding = PaddingMode::Dynamic;
        row.apply(config);
        auto bundle =
            test::makeModel(kLayers, kHidden, kHeads, 0.1, 3, {"neg", "pos"}, kVocabulary);
        EvaluationPeaks watcher;
        Trainer trainer(bundle, data, config, watcher);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
        ASSERT_FALSE(watcher.peaks.empty());
        const auto measured = watcher.peaks.back();
        const auto forecast = forecastEvaluationPeak(bundle.config, config,
                                                     ExampleLengths::of(data.validation.lengths));
        const double error =
            static_cast<double>(forecast - measured) / static_cast<double>(measured);
        std::printf("%-36s %10.2f %10.2f %+7.1f%%\n", row.name, mib(measured), mib(forecast),
                    100.0 * error);
        EXPECT_LE(std::abs(error), 0.20) << row.name;
    }
}

// Every family's evaluation is forecast from its own table (model/FamilyTraits.h): ModernBERT's
// gated feed-forward holds twice BERT's intermediate tensors.
TEST(EvaluationForecast, EveryFamilysEvaluationPeakIsForecastAsAnUpperBound) {
    const MemoryMonitor countFromHere{c10::Device(c10::kCPU)};
    const auto data = test::makeTinyData(16, 96, 5, 60, 110, 128);
    std::printf("\n%-36s %10s %10s %8s\n", "evaluation at 64 (CPU)", "peak MiB", "forecast",
                "error");
    for (const auto& type : test::familyModelTypes()) {
        auto config = oneStep();
        config.padding = PaddingMode::Dynamic;
        config.evalBatchSize = 64;
        auto bundle = test::makeFamilyModel(type, kLayers, kHidden, kHeads, 0.1, 3, {"neg", "pos"},
                                            kVocabulary);
        EvaluationPeaks watcher;
        Trainer trainer(bundle, data, config, watcher);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << type << ": " << result.error;
        ASSERT_FALSE(watcher.peaks.empty()) << type;
        const auto measured = watcher.peaks.back();
        const auto forecast = forecastEvaluationPeak(bundle.config, config,
                                                     ExampleLengths::of(data.validation.lengths));
        const double error =
            static_cast<double>(forecast - measured) / static_cast<double>(measured);
        std::printf("%-36s %10.2f %10.2f %+7.1f%%\n", type.c_str(), mib(measured), mib(forecast),
                    100.0 * error);
        // An upper bound: never under the measured peak, at most 45% over (the CPU's fused
        // kernel forms fewer score maps than counted; see EvaluationForecast.cpp).
        EXPECT_GE(error, 0.0) << type;
        EXPECT_LE(error, 0.45) << type;
    }
}

// Under a cap that holds a training step but not an evaluation at batch 64, the advice lowers
// the evaluation batch alone, and a run with it evaluates without running out of memory.
TEST(EvaluationForecast, TheAdviceLowersTheEvaluationBatchAndTheRunEvaluatesWithinTheCap) {
    const MemoryMonitor countFromHere{c10::Device(c10::kCPU)};
    const auto data = test::makeTinyData(16, 96, 5, 60, 110, 128);
    auto bundle = test::makeModel(kLayers, kHidden, kHeads, 0.1, 3, {"neg", "pos"}, kVocabulary);
    auto config = oneStep();
    config.padding = PaddingMode::Dynamic;
    config.evalBatchSize = 64;
    const auto lengths = ExampleLengths::of(data.validation.lengths);
    const auto training = forecastMemory(bundle.config, config, lengths).total();
    const auto evaluation = forecastEvaluationPeak(bundle.config, config, lengths);
    ASSERT_GT(evaluation, training * 5 / 4) << "the case needs evaluation to weigh more";
    const std::int64_t cap = training + (evaluation - training) / 3;
    EXPECT_EQ(forecastRunPeak(bundle.config, config, lengths), evaluation);
    const auto advice = suggestFit(bundle.config, config, lengths, cap, deviceTraits("cpu"));
    ASSERT_TRUE(advice.fits);
    std::printf("training %.1f MiB, evaluation %.1f MiB, cap %.1f MiB: %s\n", mib(training),
                mib(evaluation), mib(cap), advice.description.c_str());
    EXPECT_LT(advice.config.evalBatchSize, config.evalBatchSize);
    EXPECT_NE(advice.description.find("evaluate in batches of"), std::string::npos);
    EXPECT_EQ(advice.config.batchSize, config.batchSize) << "training did not need a change";
    EXPECT_LE(forecastRunPeak(bundle.config, advice.config, lengths), cap);
    const auto largest = largestFittingBatch(bundle.config, config, lengths, cap);
    ASSERT_TRUE(largest);
    // The same evaluation batch for the same training settings (the advice may have chosen bf16,
    // which weighs more in evaluation on a CPU).
    EXPECT_LT(largest->evalBatchSize, config.evalBatchSize);
    EXPECT_EQ(largest->evalBatchSize, fittingEvaluationBatch(bundle.config, config, lengths, cap));

    // Without the advice, evaluation runs out of memory under the cap (what the forecast said);
    // with it, no evaluation does.
    {
        auto unadvised = config;
        unadvised.memoryCapBytes = cap;
        EvaluationPeaks watcher;
        Trainer trainer(bundle, data, unadvised, watcher);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
        EXPECT_TRUE(std::any_of(watcher.events.begin(), watcher.events.end(), [](const auto& e) {
            return e.kind == EventKind::EvalOomRecovered;
        })) << "evaluation at 64 fitted the cap the forecast said it would not";
    }
    auto capped = advice.config;
    capped.memoryCapBytes = cap;
    EvaluationPeaks watcher;
    Trainer trainer(bundle, data, capped, watcher);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    for (const auto& event : watcher.events) {
        EXPECT_NE(event.kind, EventKind::EvalOomRecovered) << event.message;
    }
}

// Point 8: an evaluation reports 0 of N as it begins and then each batch.
TEST(EvaluationForecast, EvaluationReportsItsBatches) {
    const auto data = test::makeTinyData(16, 10, 5, 3, 10, 32);
    auto bundle = test::makeTinyModel(3);
    auto config = oneStep();
    config.evalBatchSize = 4;
    EvaluationPeaks watcher;
    Trainer trainer(bundle, data, config, watcher);
    trainer.evaluate();
    EXPECT_EQ(watcher.progress,
              (std::vector<std::pair<std::size_t, std::size_t>>{{0, 3}, {1, 3}, {2, 3}, {3, 3}}));
}

}  // namespace
}  // namespace bert
