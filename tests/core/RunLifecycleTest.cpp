// A run's life through the store, as the command line and the studio drive it (runTrainingJob,
// resumeTrainingRun), where issue 10 found records lost or false.
#include <cmath>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "TinyModel.h"
#include "hf/ModelFolder.h"
#include "runs/RunRecorder.h"
#include "runs/RunStore.h"
#include "runs/TrainingJob.h"
#include "support/TestSupport.h"
#include "train/TrainingState.h"

namespace bert {
namespace {

class RunLifecycle : public ::testing::Test {
protected:
    void SetUp() override {
        auto bundle = test::makeModel(2, 32, 4, 0.0, 3);
        exportModelFolder(dir_ / "model", *bundle.model, *bundle.tokenizer);
        test::writeReviewsCsv(dir_ / "reviews.csv", 64);
        job_.modelFolder = dir_ / "model";
        job_.data.trainFile = dir_ / "reviews.csv";
        job_.data.columns.text = "review";
        job_.data.columns.label = "sentiment";
        job_.training.batchSize = 8;
        job_.training.maxLength = 32;
        job_.training.learningRate = 1e-3;
    }
    test::TempDir dir_;
    TrainingJob job_;
};

// Issue 10: a NaN loss made the store's NOT NULL constraint drop the whole batch of step rows
// (0 of 20 stored), and the run was then listed "completed" with an accuracy.
TEST_F(RunLifecycle, ANonFiniteLossIsStoredAndTheRunStopsAsDiverged) {
    {  // a model whose weights hold a NaN: every loss is NaN
        auto bundle = loadModelFolder(dir_ / "model");
        const torch::NoGradGuard noGrad;
        test::classifierOf(bundle).weight[0][0].fill_(std::numeric_limits<float>::quiet_NaN());
        exportModelFolder(dir_ / "model", *bundle.model, *bundle.tokenizer);
    }
    job_.training.epochs = 3;
    job_.training.maxNonFiniteSteps = 4;
    const std::atomic<bool> cancel{false};
    const auto session = runTrainingJob(job_, dir_ / "runs.sqlite", nullptr, cancel);
    EXPECT_EQ(session.result.status, RunStatus::Failed);
    EXPECT_NE(session.result.error.find("diverged at step 4"), std::string::npos)
        << session.result.error;
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    const auto steps = store.steps(session.runId);
    ASSERT_EQ(steps.size(), 4U) << "step rows were lost";
    for (const auto& step : steps) {
        EXPECT_TRUE(std::isnan(step.loss)) << "step " << step.step;
    }
    EXPECT_EQ(store.run(session.runId)->status, RunStatus::Failed);
}

// Issue 10: after a kill during a checkpoint write, resume wrote duplicate evaluation rows and
// left the partial files (163 MB) that nothing removes.
TEST_F(RunLifecycle, ResumeRemovesWhatAnInterruptedCheckpointLeftAndEvaluationsStayOnePerStep) {
    job_.training.epochs = 4;
    struct CancelAt : TrainerObserver {
        std::atomic<bool>* flag = nullptr;
        void onStep(const StepMetrics& m) override {
            if (m.step == 10) {
                flag->store(true);
            }
        }
    } observer;
    std::atomic<bool> cancel{false};
    observer.flag = &cancel;
    const auto first = runTrainingJob(job_, dir_ / "runs.sqlite", &observer, cancel);
    ASSERT_EQ(first.result.status, RunStatus::Cancelled) << first.result.error;
    const auto folder = RunStore(dir_ / "runs.sqlite").runFolder(first.runId);
    // What a kill in the middle of writing checkpoint-12 and best/ would leave.
    std::filesystem::create_directories(folder / "checkpoint-12");
    test::writeFile(folder / "checkpoint-12" / "model.safetensors", std::string(1 << 20, 'x'));
    test::writeFile(folder / "best" / "model.safetensors.tmp-1234", std::string(1 << 20, 'x'));
    {  // and an evaluation recorded twice
        RunRecorder recorder(dir_ / "runs.sqlite", first.runId);
        EvalMetrics eval;
        eval.step = 8;
        eval.accuracy = 0.25;
        recorder.onEvaluation(eval);
        eval.accuracy = 0.75;
        recorder.onEvaluation(eval);
    }
    const std::atomic<bool> go{false};
    const auto resumed = resumeTrainingRun(first.runId, dir_ / "runs.sqlite", nullptr, go);
    ASSERT_EQ(resumed.result.status, RunStatus::Completed) << resumed.result.error;
    EXPECT_FALSE(std::filesystem::exists(folder / "checkpoint-12"))
        << "an incomplete checkpoint survived";
    EXPECT_FALSE(std::filesystem::exists(folder / "best" / "model.safetensors.tmp-1234"));
    EXPECT_FALSE(latestCheckpoint(folder).empty());
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    std::map<std::size_t, int> perStep;
    for (const auto& evaluation : store.evaluations(first.runId)) {
        ++perStep[evaluation.step];
    }
    for (const auto& [step, count] : perStep) {
        EXPECT_EQ(count, 1) << "step " << step << " evaluated " << count << " times in the store";
    }
}

// Issue 26, point 3: a checkpoint is written into <folder>.tmp-N and switched into place in one
// step. A staging folder is never a checkpoint, however complete; where the file system cannot
// swap two folders, a kill between the two renames leaves the old best/ in best.previous, and the
// next resume puts it back.
TEST_F(RunLifecycle, AStagingFolderIsNeverACheckpointAndAMovedAsideOneComesBack) {
    job_.training.epochs = 2;
    const std::atomic<bool> go{false};
    const auto session = runTrainingJob(job_, dir_ / "runs.sqlite", nullptr, go);
    ASSERT_EQ(session.result.status, RunStatus::Completed) << session.result.error;
    const auto folder = RunStore(dir_ / "runs.sqlite").runFolder(session.runId);
    const auto latest = latestCheckpoint(folder);
    ASSERT_FALSE(latest.empty());
    ASSERT_TRUE(std::filesystem::exists(folder / "best" / "trainer_state.json"));
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        EXPECT_EQ(entry.path().filename().string().find(".tmp-"), std::string::npos)
            << "left behind: " << entry.path();
    }

    // A complete staging folder of a later step, as a kill right before its switch leaves it.
    const auto staging = folder / "checkpoint-99.tmp-12345";
    std::filesystem::copy(latest, staging);
    auto state = nlohmann::json::parse(test::readFile(staging / "trainer_state.json"));
    state["step"] = 99;
    test::writeFile(staging / "trainer_state.json", state.dump());
    EXPECT_EQ(latestCheckpoint(folder), latest) << "a staging folder was taken for a checkpoint";

    const auto bestWeights = test::readFile(folder / "best" / "model.safetensors");
    std::filesystem::rename(folder / "best", folder / "best.previous");
    removeIncompleteCheckpoints(folder);
    EXPECT_EQ(test::readFile(folder / "best" / "model.safetensors"), bestWeights)
        << "best/ did not come back";
    EXPECT_FALSE(std::filesystem::exists(folder / "best.previous"));
    EXPECT_FALSE(std::filesystem::exists(staging));
    EXPECT_EQ(latestCheckpoint(folder), latest);
}

}  // namespace
}  // namespace bert
