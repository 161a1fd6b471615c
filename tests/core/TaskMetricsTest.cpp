// Issue 29, points 2 and 3: multi-label and regression metrics on small cases worked out by
// hand (TaskMetricsParityTest compares many random ones with scikit-learn and scipy).
#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "task/TaskMetricsJson.h"
#include "task/multilabel/MultiLabelMetrics.h"
#include "task/regression/RegressionMetrics.h"
#include "train/Metrics.h"

namespace bert {
namespace {

TEST(MultiLabelMetrics, AThresholdGivesEveryFigure) {
    // Predicted at 0.5: {0}, {0, 1}, {1}; true: {0}, {1}, {}.
    const std::vector<double> probabilities = {0.9, 0.2, 0.6, 0.7, 0.1, 0.5};
    const std::vector<std::uint8_t> truth = {1, 0, 0, 1, 0, 0};
    const MultiLabelScores scores{2, probabilities, truth};
    const auto report = multiLabelReportOf(scores);
    EXPECT_EQ(report.examples, 3U);
    EXPECT_DOUBLE_EQ(report.microPrecision, 0.5);
    EXPECT_DOUBLE_EQ(report.microRecall, 1.0);
    EXPECT_DOUBLE_EQ(report.microF1, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(report.macroF1, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(report.subsetAccuracy, 1.0 / 3.0);
    EXPECT_DOUBLE_EQ(report.hammingLoss, 2.0 / 6.0);
    ASSERT_EQ(report.perLabel.size(), 2U);
    EXPECT_EQ(report.perLabel[0].support, 1);
    EXPECT_EQ(report.perLabel[0].predicted, 2);
    EXPECT_DOUBLE_EQ(report.perLabel[0].precision, 0.5);
    EXPECT_DOUBLE_EQ(report.perLabel[0].recall, 1.0);

    // At 0.75 label 1 is never predicted: its precision and F1 are 0 (zero_division=0).
    const auto strict = multiLabelReportOf(scores, 0.75);
    EXPECT_DOUBLE_EQ(strict.perLabel[1].precision, 0.0);
    EXPECT_DOUBLE_EQ(strict.perLabel[1].f1, 0.0);
    EXPECT_DOUBLE_EQ(strict.perLabel[0].f1, 1.0);
    EXPECT_DOUBLE_EQ(strict.macroF1, 0.5);
    EXPECT_DOUBLE_EQ(strict.microF1, 2.0 / 3.0);
}

TEST(MultiLabelMetrics, AProbabilityEqualToTheThresholdIsPredicted) {
    const std::vector<double> probabilities = {0.5};
    const std::vector<std::uint8_t> truth = {1};
    EXPECT_DOUBLE_EQ(multiLabelReportOf({1, probabilities, truth}).microF1, 1.0);
}

TEST(MultiLabelMetrics, TheDecisionIsTheOneTheMetricsCount) {
    const std::vector<double> probabilities = {0.9, 0.5, 0.4999, 0.0};
    EXPECT_EQ(decideLabels(probabilities, 0.5), (std::vector<std::uint8_t>{1, 1, 0, 0}));
    EXPECT_EQ(decideLabels(probabilities, 0.95), (std::vector<std::uint8_t>{0, 0, 0, 0}));
}

TEST(MultiLabelMetrics, TheReportAndTheCurveAreStoredAndReadBack) {
    const std::vector<double> probabilities = {0.9, 0.2, 0.6, 0.7, 0.1, 0.5};
    const std::vector<std::uint8_t> truth = {1, 0, 0, 1, 0, 0};
    const MultiLabelScores scores{2, probabilities, truth};
    const auto report = multiLabelReportOf(scores, 0.35);
    const auto back = multiLabelReportFromJson(nlohmann::json::parse(toJson(report).dump()));
    EXPECT_EQ(toJson(back), toJson(report));
    EXPECT_EQ(back.threshold, 0.35);
    ASSERT_EQ(back.perLabel.size(), 2U);
    EXPECT_EQ(back.perLabel[1].support, report.perLabel[1].support);
    EXPECT_EQ(back.perLabel[0].f1, report.perLabel[0].f1);
    const auto curve = thresholdCurve(scores);
    const auto curveBack = thresholdCurveFromJson(nlohmann::json::parse(toJson(curve).dump()));
    ASSERT_EQ(curveBack.size(), curve.size());
    EXPECT_EQ(curveBack[12].microF1, curve[12].microF1);
    EXPECT_EQ(curveBack[12].threshold, curve[12].threshold);
    // Whatever is stored, reading never throws.
    EXPECT_EQ(multiLabelReportFromJson(nlohmann::json::parse("[1, 2]")).examples, 0U);
    EXPECT_TRUE(thresholdCurveFromJson(nlohmann::json::parse("{}")).empty());
}

TEST(MultiLabelMetrics, TheTunedThresholdMaximisesMicroF1) {
    const std::vector<double> probabilities = {0.9, 0.2, 0.6, 0.7, 0.1, 0.5};
    const std::vector<std::uint8_t> truth = {1, 0, 0, 1, 0, 0};
    const auto tuned = tuneThreshold({2, probabilities, truth});
    // Micro-F1 is 1 at 0.65 and 0.70 (0.9 and 0.7 predicted, both right); 0.65 is nearer 0.5.
    EXPECT_DOUBLE_EQ(tuned.threshold, 0.65);
    EXPECT_DOUBLE_EQ(tuned.microF1, 1.0);
    ASSERT_EQ(tuned.curve.size(), 19U);
    EXPECT_DOUBLE_EQ(tuned.curve.front().threshold, 0.05);
    EXPECT_DOUBLE_EQ(tuned.curve.back().threshold, 0.95);
    EXPECT_DOUBLE_EQ(tuned.curve[9].threshold, 0.5);
    EXPECT_DOUBLE_EQ(tuned.curve[9].microF1, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(tuned.curve.back().microF1, 0.0);  // nothing at 0.95 but nothing above 0.9
    EXPECT_DOUBLE_EQ(tuned.curve.back().microRecall, 0.0);
}

TEST(MultiLabelMetrics, ATieBetweenThresholdsEquallyNearOneHalfGoesToTheLower) {
    // Micro-F1 is 2/3 at every threshold from 0.05 to 0.90 except 0.50 (4/7), where an extra
    // false positive enters; 0.45 and 0.55 are equally near 0.5.
    const std::vector<double> probabilities = {0.9, 0.9, 0.5, 0.47, 0.46, 0.01};
    const std::vector<std::uint8_t> truth = {1, 1, 0, 1, 0, 1};
    const auto tuned = tuneThreshold({1, probabilities, truth});
    EXPECT_DOUBLE_EQ(tuned.curve[9].microF1, 4.0 / 7.0);
    EXPECT_EQ(tuned.threshold, 0.45);
    EXPECT_DOUBLE_EQ(tuned.microF1, 2.0 / 3.0);
}

TEST(MultiLabelMetrics, AValidationSetWithNoPositivesKeepsOneHalf) {
    const std::vector<double> probabilities = {0.0, 0.0, 0.0, 0.0};
    const std::vector<std::uint8_t> truth = {0, 0, 0, 0};
    const auto tuned = tuneThreshold({2, probabilities, truth});
    EXPECT_EQ(tuned.threshold, 0.5);
    const auto report = multiLabelReportOf({2, probabilities, truth});
    EXPECT_DOUBLE_EQ(report.subsetAccuracy, 1.0);
    EXPECT_DOUBLE_EQ(report.hammingLoss, 0.0);
    EXPECT_DOUBLE_EQ(report.macroF1, 0.0);  // never present, never predicted: 0 as in sklearn
}

TEST(MultiLabelMetrics, MismatchedSizesAreABugNotAResult) {
    const std::vector<double> probabilities = {0.1, 0.2, 0.3};
    const std::vector<std::uint8_t> truth = {0, 1};
    EXPECT_THROW(multiLabelReportOf({2, probabilities, truth}), std::invalid_argument);
    EXPECT_THROW(multiLabelReportOf({0, {}, {}}), std::invalid_argument);
    const auto empty = multiLabelReportOf({3, {}, {}});
    EXPECT_EQ(empty.examples, 0U);
    EXPECT_EQ(empty.perLabel.size(), 3U);
}

TEST(RegressionMetrics, EveryFigureOfASmallCase) {
    const std::vector<double> predictions = {1.0, 2.0, 3.0, 4.0};
    const std::vector<double> truth = {1.0, 2.0, 3.0, 5.0};
    const auto report = regressionReportOf(predictions, truth);
    EXPECT_EQ(report.examples, 4U);
    EXPECT_DOUBLE_EQ(report.rmse, 0.5);
    EXPECT_DOUBLE_EQ(report.mae, 0.25);
    ASSERT_TRUE(report.r2.has_value());
    EXPECT_DOUBLE_EQ(*report.r2, 1.0 - 1.0 / 8.75);
    ASSERT_TRUE(report.spearman.has_value());
    EXPECT_DOUBLE_EQ(*report.spearman, 1.0);
    // scipy.stats.pearsonr([1, 2, 3, 4], [1, 2, 3, 5]).statistic
    ASSERT_TRUE(report.pearson.has_value());
    EXPECT_NEAR(*report.pearson, 0.9827076298239908, 1e-15);
}

TEST(RegressionMetrics, AnUndefinedFigureIsStoredAsNullAndReadBackUndefined) {
    const std::vector<double> predictions = {2.0, 2.0, 2.0};
    const std::vector<double> truth = {1.0, 2.0, 4.0};
    const auto report = regressionReportOf(predictions, truth);
    const auto json = toJson(report);
    EXPECT_TRUE(json["pearson"].is_null());
    EXPECT_TRUE(json["r2"].is_number());
    const auto back = regressionReportFromJson(nlohmann::json::parse(json.dump()));
    EXPECT_FALSE(back.pearson.has_value());
    EXPECT_EQ(back.r2, report.r2);
    EXPECT_EQ(back.rmse, report.rmse);
    EXPECT_EQ(back.examples, 3U);
    EXPECT_FALSE(regressionReportFromJson(nlohmann::json::parse("null")).r2.has_value());
}

TEST(RegressionMetrics, TiesShareTheirAverageRank) {
    const std::vector<double> values = {3.0, 1.0, 3.0, 2.0, 3.0};
    EXPECT_EQ(averageRanks(values), (std::vector<double>{4.0, 1.0, 4.0, 2.0, 4.0}));
    const std::vector<double> pair = {5.0, 5.0};
    EXPECT_EQ(averageRanks(pair), (std::vector<double>{1.5, 1.5}));
}

TEST(RegressionMetrics, ConstantPredictionsHaveNoCorrelation) {
    const std::vector<double> predictions = {2.0, 2.0, 2.0};
    const std::vector<double> truth = {1.0, 2.0, 4.0};
    const auto report = regressionReportOf(predictions, truth);
    EXPECT_FALSE(report.pearson.has_value());
    EXPECT_FALSE(report.spearman.has_value());
    ASSERT_TRUE(report.r2.has_value());
    // Predicting a constant 2 against a mean of 7/3: residuals 1+0+4 = 5, total 14/3.
    EXPECT_NEAR(*report.r2, 1.0 - 5.0 / (14.0 / 3.0), 1e-15);
}

TEST(RegressionMetrics, AConstantTruthGivesRSquaredOneOrZero) {
    const std::vector<double> truth = {3.0, 3.0, 3.0};
    const std::vector<double> perfect = {3.0, 3.0, 3.0};
    const std::vector<double> off = {3.0, 2.0, 3.5};
    EXPECT_EQ(regressionReportOf(perfect, truth).r2, 1.0);
    EXPECT_EQ(regressionReportOf(off, truth).r2, 0.0);
    EXPECT_FALSE(regressionReportOf(off, truth).pearson.has_value());
}

// A constant target stored Pearson and Spearman as null and the summary left them out: they
// are said to be undefined, and why.
TEST(RegressionMetrics, AnUndefinedFigureIsSaidWithWhy) {
    const std::vector<double> truth = {3.0, 3.0, 3.0};
    const std::vector<double> off = {3.0, 2.0, 3.5};
    EXPECT_EQ(regressionReportOf(off, truth).undefinedWhy, "the target is constant");
    EXPECT_EQ(regressionReportOf(truth, off).undefinedWhy, "the predictions are constant");
    EXPECT_EQ(regressionReportOf(off, off).undefinedWhy, "");
    EvalMetrics eval;
    eval.task = {{"task", "regression"},
                 {"main", "rmse"},
                 {"figures", toJson(regressionReportOf(off, truth))},
                 {"undefined",
                  {{"pearson", "the target is constant"}, {"spearman", "the target is constant"}}}};
    const auto summary = evaluationSummary(eval);
    EXPECT_NE(summary.find("Pearson undefined (the target is constant)"), std::string::npos)
        << summary;
    EXPECT_NE(summary.find("Spearman undefined (the target is constant)"), std::string::npos)
        << summary;
    EXPECT_NE(summary.find("R² 0.0000"), std::string::npos) << summary;
}

TEST(RegressionMetrics, TooFewExamplesLeaveTheCorrelationsUndefined) {
    const std::vector<double> one = {2.0};
    const std::vector<double> other = {3.0};
    const auto single = regressionReportOf(one, other);
    EXPECT_DOUBLE_EQ(single.rmse, 1.0);
    EXPECT_FALSE(single.pearson.has_value());
    EXPECT_FALSE(single.r2.has_value());
    const auto empty = regressionReportOf({}, {});
    EXPECT_EQ(empty.examples, 0U);
    EXPECT_FALSE(empty.spearman.has_value());
    // Two points lie on a line: exactly -1, as scipy promises.
    const std::vector<double> x = {1.0, 2.0};
    const std::vector<double> y = {0.3, 0.1};
    EXPECT_EQ(regressionReportOf(x, y).pearson, -1.0);
    EXPECT_THROW(regressionReportOf(x, one), std::invalid_argument);
}

}  // namespace
}  // namespace bert
