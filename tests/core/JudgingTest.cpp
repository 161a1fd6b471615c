// Issue 12, point 4: judging the model. Class weighting, the best checkpoint by a chosen metric,
// early stopping with patience, and evaluations several times per epoch.

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "TinyModel.h"
#include "TrainerProbes.h"
#include "support/TestSupport.h"
#include "train/Metrics.h"
#include "train/Trainer.h"
#include "train/TrainingState.h"
#include "train/TrainingStateFile.h"

namespace bert {
namespace {

// Balanced weights multiply each example's loss by N / (classes x n_label): on a window of one
// class the weighted loss is the unweighted one times that class's weight, exactly.
TEST(ClassWeighting, BalancedWeighsEachClassByItsRarity) {
    auto data = test::makeTinyData(64, 16, 5);
    // Make "pos" (label 1) rare: keep 8 of its examples.
    TokenizedSet kept;
    std::size_t positives = 0;
    for (std::size_t i = 0; i < data.train.size(); ++i) {
        if (data.train.labels[i] == 1 && ++positives > 8) {
            continue;
        }
        kept.encodings.push_back(data.train.encodings[i]);
        kept.labels.push_back(data.train.labels[i]);
        kept.lengths.push_back(data.train.lengths[i]);
    }
    data.train = kept;
    const double total = static_cast<double>(data.train.size());
    const double negatives = total - 8.0;
    std::vector<std::size_t> positiveWindow;
    std::vector<std::size_t> negativeWindow;
    for (std::size_t i = 0; i < data.train.size(); ++i) {
        (data.train.labels[i] == 1 ? positiveWindow : negativeWindow).push_back(i);
    }
    negativeWindow.resize(8);

    auto bundle = test::makeModel(2, 32, 4, 0.0, 21);  // no dropout: equal inputs, equal losses
    test::Recorder recorder;
    auto plainConfig = test::smallConfig();
    auto weightedConfig = plainConfig;
    weightedConfig.classWeighting = ClassWeighting::Balanced;
    Trainer plain(bundle, data, plainConfig, recorder);
    const double plainPositive = plain.computeGradients(positiveWindow);
    const double plainNegative = plain.computeGradients(negativeWindow);
    plain.clearGradients();
    Trainer weighted(bundle, data, weightedConfig, recorder);
    const double weightedPositive = weighted.computeGradients(positiveWindow);
    const double weightedNegative = weighted.computeGradients(negativeWindow);
    weighted.clearGradients();
    EXPECT_NEAR(weightedPositive, plainPositive * total / (2.0 * 8.0), 1e-5);
    EXPECT_NEAR(weightedNegative, plainNegative * total / (2.0 * negatives), 1e-5);
    EXPECT_GT(weightedPositive / plainPositive, 2.0) << "the rare class must weigh more";
}

TEST(EarlyStopping, StopsAfterPatienceEvaluationsWithoutImprovement) {
    const auto data = test::makeTinyData(128, 32, 7);
    auto bundle = test::makeModel(2, 32, 4, 0.0, 4);
    test::Recorder recorder;
    auto config = test::smallConfig();
    config.epochs = 5;
    config.learningRate = 1e-12;  // nothing learns: no evaluation is better than the first
    config.bestMetric = BestMetric::Loss;
    config.earlyStoppingPatience = 2;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_EQ(recorder.count(EventKind::EarlyStopped), 1U);
    // No evaluation is better than the first; two more without a better loss end the run. Of
    // equal evaluations the later is kept (the tie rule), without counting as an improvement.
    ASSERT_EQ(recorder.evaluations.size(), 3U);
    EXPECT_LT(recorder.steps.size(), trainer.totalSteps());
    EXPECT_EQ(result.bestEval.step, recorder.evaluations.back().step);
    EXPECT_EQ(result.finalEval.step, recorder.evaluations.back().step);
}

// The best checkpoint follows the chosen metric, not accuracy: with loss, the best/ folder
// holds the evaluation of lowest loss.
TEST(BestMetric, TheBestCheckpointIsChosenByTheRunsMetric) {
    const auto data = test::makeTinyData(128, 32, 9);
    auto bundle = test::makeModel(2, 32, 4, 0.1, 6);
    test::Recorder recorder;
    test::TempDir dir;
    auto config = test::smallConfig();
    config.epochs = 2;
    config.learningRate = 3e-3;
    config.bestMetric = BestMetric::Loss;
    config.saveCheckpoints = true;
    Trainer trainer(bundle, data, config, recorder, dir.path());
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    ASSERT_EQ(recorder.evaluations.size(), 8U) << "4 evaluations per epoch by default";
    const auto lowest = std::min_element(
        recorder.evaluations.begin(), recorder.evaluations.end(),
        [](const EvalMetrics& a, const EvalMetrics& b) { return a.loss < b.loss; });
    EXPECT_EQ(result.bestEval.step, lowest->step);
    const auto stateFile =
        checkpointFolder(dir.path(), CheckpointKind::Best, 0) / "trainer_state.json";
    std::ifstream in(stateFile);
    ASSERT_TRUE(in) << stateFile;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto best = parseTrainingState(text, stateFile);
    EXPECT_EQ(best.position.step, lowest->step);
    EXPECT_DOUBLE_EQ(best.metric, lowest->loss);
    ASSERT_TRUE(best.bestScore.has_value());
    EXPECT_DOUBLE_EQ(*best.bestScore, -lowest->loss);
}

// A tie of the best metric goes to the lower validation loss (then the later step): the best/
// folder holds that evaluation's weights, not the first of the ties (an NER run served step 5,
// loss 1.24, instead of its last, 0.066).
TEST(BestMetric, ATiedMetricKeepsTheEvaluationOfLowerLoss) {
    const auto data = test::makeTinyData(128, 16, 9);
    auto bundle = test::makeModel(2, 32, 4, 0.0, 6);
    test::Recorder recorder;
    test::TempDir dir;
    auto config = test::smallConfig();
    config.epochs = 3;
    config.learningRate = 3e-3;
    config.bestMetric = BestMetric::Accuracy;
    config.saveCheckpoints = true;
    Trainer trainer(bundle, data, config, recorder, dir.path());
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    const auto& evaluations = recorder.evaluations;
    double top = 0.0;
    for (const auto& eval : evaluations) {
        top = std::max(top, eval.accuracy);
    }
    const EvalMetrics* firstTop = nullptr;
    const EvalMetrics* lowestTop = nullptr;
    for (const auto& eval : evaluations) {
        if (eval.accuracy == top) {
            firstTop = firstTop == nullptr ? &eval : firstTop;
            lowestTop = lowestTop == nullptr || eval.loss <= lowestTop->loss ? &eval : lowestTop;
        }
    }
    ASSERT_NE(firstTop, lowestTop) << "this run must tie on accuracy with a lower loss later";
    ASSERT_LT(lowestTop->loss, firstTop->loss);
    EXPECT_EQ(result.bestEval.step, lowestTop->step);
    const auto stateFile =
        checkpointFolder(dir.path(), CheckpointKind::Best, 0) / "trainer_state.json";
    std::ifstream in(stateFile);
    ASSERT_TRUE(in) << stateFile;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto best = parseTrainingState(text, stateFile);
    EXPECT_EQ(best.position.step, lowestTop->step);
    EXPECT_DOUBLE_EQ(best.bestLoss, lowestTop->loss);
    EXPECT_EQ(best.bestStep, lowestTop->step);
    // The screens' choice is the trainer's.
    EXPECT_EQ(bestEvaluation(evaluations, BestMetric::Accuracy)->step, lowestTop->step);
}

}  // namespace
}  // namespace bert
