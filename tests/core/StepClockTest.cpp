// What a step's figures count, checked on the CPU with hooks that stand in for the GPU
// (train/TestHooks.h): on CUDA the host waits for the queued work only where it reads values,
// so a step clock stopped before that read reported several times the real throughput; and an
// evaluation batch that ran out of memory after its loss was added counted that loss twice; and
// with a read per logged step (log_every_steps 1, the default) every step drained the GPU, so a
// logged step is now read while the next one runs (BERT_STUDIO_TEST_DEFER_STEP_READS does on
// the CPU what CUDA does).
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <optional>

#include <gtest/gtest.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "data/HostReads.h"
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

/// What a run reports, in order, with the sum of the weights as each step is reported.
struct OrderProbe : test::Recorder {
    const ModelBundle* bundle = nullptr;
    std::vector<std::string> order;
    std::vector<double> weightsAtReport;
    void onStep(const StepMetrics& m) override {
        Recorder::onStep(m);
        order.push_back("step " + std::to_string(m.step));
        double sum = 0.0;
        for (const auto& parameter : bundle->model->parameters()) {
            sum += parameter.detach().to(at::kDouble).sum().item<double>();
        }
        weightsAtReport.push_back(sum);
    }
    void onEvaluation(const EvalMetrics& m) override {
        Recorder::onEvaluation(m);
        order.push_back("evaluation");
    }
    void onEpochEnd(const EpochSummary& e) override {
        Recorder::onEpochEnd(e);
        order.push_back("epoch end");
    }
};

TEST(StepClock, ALoggedStepIsReadWhileTheNextRunsAndReportedAsItWasBefore) {
    const auto data = test::makeTinyData(64, 24, 74);
    auto config = test::smallConfig();
    config.batchSize = 16;  // 4 steps an epoch
    config.trialStep = false;
    config.epochs = 2;
    config.evalsPerEpoch = 2;  // after step 2 and at the epoch's end
    auto train = [&](bool deferred, OrderProbe& probe, std::uint64_t& reads) {
        auto bundle = test::makeModel(2, 32, 4, 0.0, 74);
        probe.bundle = &bundle;
        std::optional<ScopedVariable> defer;
        if (deferred) {
            defer.emplace("BERT_STUDIO_TEST_DEFER_STEP_READS", "1");
        }
        const auto before = hostReadCount();
        Trainer trainer(bundle, data, config, probe);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
        reads = hostReadCount() - before;
    };
    OrderProbe now;
    OrderProbe late;
    std::uint64_t readsNow = 0;
    std::uint64_t readsLate = 0;
    train(false, now, readsNow);
    train(true, late, readsLate);

    // The same reports in the same order: every step before the evaluation that follows it.
    const std::vector<std::string> expected{
        "step 1", "step 2", "evaluation", "step 3", "step 4", "epoch end", "evaluation",
        "step 5", "step 6", "evaluation", "step 7", "step 8", "epoch end", "evaluation"};
    EXPECT_EQ(now.order, expected);
    EXPECT_EQ(late.order, expected);
    ASSERT_EQ(late.steps.size(), now.steps.size());
    for (std::size_t i = 0; i < now.steps.size(); ++i) {
        EXPECT_EQ(late.steps[i].step, now.steps[i].step);
        EXPECT_EQ(late.steps[i].loss, now.steps[i].loss) << "step " << now.steps[i].step;
        EXPECT_EQ(late.steps[i].gradNorm, now.steps[i].gradNorm);
        EXPECT_EQ(late.steps[i].examples, now.steps[i].examples);
        EXPECT_EQ(late.steps[i].realTokens, now.steps[i].realTokens);
        EXPECT_EQ(late.steps[i].epoch, now.steps[i].epoch);
    }
    EXPECT_EQ(readsLate, readsNow) << "one read per logged step either way";
    // Read one step late: when steps 1, 3, 5 and 7 are reported the next step has already
    // updated the weights; the others are reported at once, before an evaluation.
    for (const std::size_t step : {1, 3, 5, 7}) {
        EXPECT_EQ(late.weightsAtReport[step - 1], now.weightsAtReport[step]) << "step " << step;
        EXPECT_NE(late.weightsAtReport[step - 1], now.weightsAtReport[step - 1]);
    }
    for (const std::size_t step : {2, 4, 6, 8}) {
        EXPECT_EQ(late.weightsAtReport[step - 1], now.weightsAtReport[step - 1]) << "step " << step;
    }
    EXPECT_EQ(late.evaluations.back().loss, now.evaluations.back().loss);
}

TEST(StepClock, LoggingEveryFewStepsReportsTheSameFiguresWhenReadLate) {
    const auto data = test::makeTinyData(80, 16, 75);
    auto config = test::smallConfig();
    config.batchSize = 16;  // 5 steps an epoch
    config.trialStep = false;
    config.logEverySteps = 2;  // steps 2, 4 and 5 (the epoch's last)
    config.evalsPerEpoch = 1;
    auto train = [&](bool deferred) {
        OrderProbe probe;
        auto bundle = test::makeModel(2, 32, 4, 0.0, 75);
        probe.bundle = &bundle;
        std::optional<ScopedVariable> defer;
        if (deferred) {
            defer.emplace("BERT_STUDIO_TEST_DEFER_STEP_READS", "1");
        }
        Trainer trainer(bundle, data, config, probe);
        const std::atomic<bool> cancel{false};
        EXPECT_EQ(trainer.run(cancel).status, RunStatus::Completed);
        return probe;
    };
    const auto now = train(false);
    const auto late = train(true);
    const std::vector<std::string> expected{"step 2", "step 4", "step 5", "epoch end",
                                            "evaluation"};
    EXPECT_EQ(now.order, expected);
    EXPECT_EQ(late.order, expected);
    ASSERT_EQ(late.steps.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(late.steps[i].loss, now.steps[i].loss) << "report " << i;
        EXPECT_EQ(late.steps[i].examples, now.steps[i].examples);
    }
    // Step 2 is read while step 3 runs, step 4 while step 5 runs (a step late, not a logged
    // step late); step 5 at the epoch's end.
    EXPECT_NE(late.weightsAtReport[0], now.weightsAtReport[0]);
    EXPECT_NE(late.weightsAtReport[0], now.weightsAtReport[1]);
    EXPECT_EQ(late.weightsAtReport[1], now.weightsAtReport[2]);
    EXPECT_EQ(late.weightsAtReport[2], now.weightsAtReport[2]);
}

}  // namespace
}  // namespace bert
