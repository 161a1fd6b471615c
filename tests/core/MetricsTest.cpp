// Issue 12, point 4: per-class precision, recall, F1 and support, and the warnings a
// practitioner must see (one run reached accuracy 0.82 with macro-F1 0.57, never predicting
// one class, and nothing said so).

#include <cmath>

#include <gtest/gtest.h>

#include "train/Metrics.h"

namespace bert {
namespace {

TEST(Metrics, PerClassReportMatchesScikitLearn) {
    // sklearn.metrics.classification_report on y_true/y_pred giving this matrix:
    // a: precision 0.8 recall 0.8, b: precision 0.5 recall 0.5.
    const ConfusionMatrix confusion = {{8, 2}, {2, 2}};
    const auto rows = perClassOf(confusion);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_DOUBLE_EQ(rows[0].precision, 0.8);
    EXPECT_DOUBLE_EQ(rows[0].recall, 0.8);
    EXPECT_DOUBLE_EQ(rows[0].f1, 0.8);
    EXPECT_EQ(rows[0].support, 10);
    EXPECT_DOUBLE_EQ(rows[1].precision, 0.5);
    EXPECT_DOUBLE_EQ(rows[1].recall, 0.5);
    EXPECT_EQ(rows[1].support, 4);
    EXPECT_DOUBLE_EQ(macroF1Of(confusion), (0.8 + 0.5) / 2.0);
}

TEST(Metrics, ANeverPredictedClassAndImbalanceAreSaid) {
    // 82 of 100 right, "spam" never predicted: the case from the issue.
    const ConfusionMatrix confusion = {{82, 0}, {18, 0}};
    const auto warnings = modelWarnings(confusion, {"ham", "spam"});
    bool neverPredicted = false;
    bool imbalanced = false;
    bool gap = false;
    for (const auto& warning : warnings) {
        neverPredicted |= warning.kind == ModelWarning::Kind::NeverPredicted &&
                          warning.classA == "spam" && warning.support == 18;
        imbalanced |= warning.kind == ModelWarning::Kind::Imbalanced && warning.classA == "ham" &&
                      warning.classB == "spam";
        gap |= warning.kind == ModelWarning::Kind::AccuracyAboveF1;
        EXPECT_FALSE(warning.text.empty());
    }
    EXPECT_TRUE(neverPredicted);
    EXPECT_TRUE(imbalanced);
    EXPECT_TRUE(gap);
}

TEST(Metrics, AGoodBalancedModelGetsNoWarning) {
    EXPECT_TRUE(modelWarnings({{45, 5}, {4, 46}}, {"neg", "pos"}).empty());
}

TEST(Metrics, TheBestMetricIsOrientedSoHigherIsBetter) {
    EvalMetrics eval;
    eval.loss = 0.4;
    eval.accuracy = 0.9;
    eval.macroF1 = 0.7;
    EXPECT_DOUBLE_EQ(scoreOf(eval, BestMetric::Loss), -0.4);
    EXPECT_DOUBLE_EQ(metricOf(eval, BestMetric::Loss), 0.4);
    EXPECT_DOUBLE_EQ(scoreOf(eval, BestMetric::MacroF1), 0.7);
    EXPECT_DOUBLE_EQ(scoreOf(eval, BestMetric::Accuracy), 0.9);
}

// A tie of the best metric goes to the lower validation loss, then to the later step: an NER run
// whose entity F1 tied served its first evaluation (loss 1.24) instead of its last (0.066).
TEST(Metrics, ATieOfTheBestMetricGoesToTheLowerLossThenTheLaterStep) {
    auto evaluation = [](std::size_t step, double loss, double f1) {
        EvalMetrics eval;
        eval.step = step;
        eval.loss = loss;
        eval.task = {
            {"main", "entity_f1"}, {"higher_is_better", true}, {"figures", {{"entity_f1", f1}}}};
        return eval;
    };
    const std::vector<EvalMetrics> evaluations = {
        evaluation(5, 1.24, 1.0), evaluation(10, 0.30, 0.5), evaluation(15, 0.066, 1.0),
        evaluation(20, 0.066, 1.0), evaluation(25, 0.07, 1.0)};
    const auto* best = bestEvaluation(evaluations, BestMetric::Task);
    ASSERT_NE(best, nullptr);
    EXPECT_EQ(best->step, 20U) << "lowest loss among the ties, then the later step";
    // The comparison itself, as the trainer uses it.
    EXPECT_TRUE(ranksAbove({1.0, 0.066, 15}, {1.0, 1.24, 5}));
    EXPECT_FALSE(ranksAbove({1.0, 1.24, 15}, {1.0, 0.066, 5}));
    EXPECT_TRUE(ranksAbove({1.0, 0.066, 20}, {1.0, 0.066, 15}));
    EXPECT_FALSE(ranksAbove({0.9, 0.01, 30}, {1.0, 1.24, 5})) << "the metric comes first";
    EXPECT_TRUE(ranksAbove({0.5, 2.0, 1}, {std::nan(""), 0.1, 9})) << "a number beats NaN";
    EXPECT_FALSE(ranksAbove({std::nan(""), 0.1, 9}, {0.5, 2.0, 1}));
    // By loss, equal losses go to the later step.
    EXPECT_EQ(bestEvaluation(evaluations, BestMetric::Loss)->step, 20U);
}

}  // namespace
}  // namespace bert
