// What a step's figures count, checked on the CPU with hooks that stand in for the GPU
// (train/TestHooks.h): on CUDA the host waits for the queued work only where it reads values,
// so a step clock stopped before that read reported several times the real throughput; and an
// evaluation batch that ran out of memory after its loss was added counted that loss twice.
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <gtest/gtest.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "train/Trainer.h"

namespace bert {
namespace {

/// Sets an environment variable for one scope.
class ScopedVariable {
public:
    ScopedVariable(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
    ~ScopedVariable() { ::unsetenv(name_); }
    ScopedVariable(const ScopedVariable&) = delete;
    ScopedVariable& operator=(const ScopedVariable&) = delete;

private:
    const char* name_;
};

TEST(StepClock, TheReadThatWaitsForTheDeviceIsPartOfTheStepsTime) {
    const auto data = test::makeTinyData(64, 24, 71);
    auto config = test::smallConfig();
    config.batchSize = 16;
    config.trialStep = false;
    config.maxSteps = 3;
    config.evalsPerEpoch = 1;
    test::Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 71);
    {
        // Each read waits 400 ms, as for a GPU that drains a long queue there.
        const ScopedVariable wait("BERT_STUDIO_TEST_HOST_READ_MS", "400");
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    }
    ASSERT_EQ(recorder.steps.size(), 3U);
    for (const auto& step : recorder.steps) {
        // One read per logged step: 16 examples in at least 0.4 s.
        EXPECT_LE(step.samplesPerSecond, 16.0 / 0.4) << "step " << step.step;
        EXPECT_GT(step.samplesPerSecond, 0.0);
        EXPECT_LE(step.tokensPerSecond, static_cast<double>(step.realTokens) / 0.4);
    }
}

TEST(StepClock, AnEvaluationBatchThatRunsOutOfMemoryCountsItsLossOnce) {
    const auto data = test::makeTinyData(32, 48, 72);
    auto config = test::smallConfig();
    config.trialStep = false;
    config.maxSteps = 1;
    config.evalsPerEpoch = 1;
    config.evalBatchSize = 16;
    auto evaluatedLoss = [&](const char* failingBatch) {
        test::Recorder recorder;
        auto bundle = test::makeModel(2, 32, 4, 0.0, 72);
        std::optional<ScopedVariable> failing;
        if (failingBatch != nullptr) {
            failing.emplace("BERT_STUDIO_TEST_EVAL_OUT_OF_MEMORY", failingBatch);
        }
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        EXPECT_EQ(result.status, RunStatus::Completed) << result.error;
        EXPECT_EQ(recorder.count(EventKind::EvalOomRecovered) > 0, failingBatch != nullptr);
        return result.finalEval.loss;
    };
    const double whole = evaluatedLoss(nullptr);
    const double halved = evaluatedLoss("16");  // batches of 16 fail: evaluated in eights
    EXPECT_NEAR(halved, whole, 1e-5 * std::abs(whole));
}

}  // namespace
}  // namespace bert
