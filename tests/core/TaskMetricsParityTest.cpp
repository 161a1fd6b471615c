// Issue 29, points 2 and 3: the multi-label and regression metrics equal scikit-learn's and
// scipy's (the venv's, through tests/parity/task_metrics.py) within 1e-12 on hundreds of random
// cases, edge cases included: labels never present or never predicted, constant predictions and
// truths, probabilities exactly on a threshold, tied values, one and two examples.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "task/multilabel/MultiLabelMetrics.h"
#include "task/regression/RegressionMetrics.h"
#include "task/regression/RegressionTargets.h"

namespace bert {
namespace {

constexpr double kTolerance = 1e-12;

struct MultiLabelCase {
    std::size_t labels = 1;
    std::vector<double> probabilities;
    std::vector<std::uint8_t> truth;
};

struct RegressionCase {
    std::vector<double> predictions;
    std::vector<double> truth;
};

/// Multi-label cases: every shape from one example and one label up, each with one of the
/// edge-case variants.
std::vector<MultiLabelCase> multiLabelCases(std::mt19937_64& random) {
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<MultiLabelCase> cases;
    int variant = 0;
    for (const std::size_t examples : {1, 2, 5, 17, 64, 300}) {
        for (const std::size_t labels : {1, 2, 3, 5, 8}) {
            for (int repeat = 0; repeat < 3; ++repeat, ++variant) {
                MultiLabelCase c;
                c.labels = labels;
                std::vector<double> rate(labels);
                for (auto& r : rate) {
                    r = 0.05 + 0.6 * uniform(random);
                }
                for (std::size_t i = 0; i < examples * labels; ++i) {
                    const auto label = i % labels;
                    const bool positive = uniform(random) < rate[label];
                    c.truth.push_back(positive ? 1 : 0);
                    double p = 0.0;
                    switch (variant % 6) {
                        case 0:  // informative: positives tend higher
                            p = positive ? 0.3 + 0.7 * uniform(random) : 0.7 * uniform(random);
                            break;
                        case 1:  // on the candidates' grid: probabilities equal to thresholds
                            p = static_cast<double>(
                                    std::uniform_int_distribution<int>(0, 20)(random)) /
                                20.0;
                            break;
                        case 2:  // label 0 never predicted, the last label never present
                            p = label == 0 ? 0.0 : uniform(random);
                            if (label + 1 == labels && labels > 1) {
                                c.truth.back() = 0;
                            }
                            break;
                        case 3:  // constant predictions
                            p = 0.5;
                            break;
                        case 4:  // no example has any label
                            c.truth.back() = 0;
                            p = uniform(random);
                            break;
                        default:  // uninformative
                            p = uniform(random);
                    }
                    c.probabilities.push_back(p);
                }
                cases.push_back(std::move(c));
            }
        }
    }
    return cases;
}

std::vector<RegressionCase> regressionCases(std::mt19937_64& random) {
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<RegressionCase> cases;
    int variant = 0;
    for (const std::size_t examples : {1, 2, 3, 4, 10, 57, 200, 1000}) {
        for (int repeat = 0; repeat < 8; ++repeat, ++variant) {
            RegressionCase c;
            for (std::size_t i = 0; i < examples; ++i) {
                const double truth = 3.0 + 2.0 * normal(random);
                double prediction = 0.0;
                switch (variant % 8) {
                    case 0:  // a fair model
                        prediction = truth + 0.8 * normal(random);
                        break;
                    case 1:  // ties on both sides: values rounded to halves
                        prediction = std::round(2.0 * (truth + normal(random))) / 2.0;
                        break;
                    case 2:  // constant predictions
                        prediction = 3.0;
                        break;
                    case 3:  // constant truth, checked below
                        prediction = normal(random);
                        break;
                    case 4:  // perfect
                        prediction = truth;
                        break;
                    case 5:  // anti-correlated
                        prediction = -truth + 0.3 * normal(random);
                        break;
                    case 6:  // unrelated
                        prediction = normal(random);
                        break;
                    default:  // monotone but not linear
                        prediction = std::exp(truth / 3.0);
                }
                c.truth.push_back(variant % 8 == 1 ? std::round(2.0 * truth) / 2.0 : truth);
                c.predictions.push_back(prediction);
            }
            if (variant % 8 == 3) {
                std::fill(c.truth.begin(), c.truth.end(), 1.25);
            }
            cases.push_back(std::move(c));
        }
    }
    // A constant truth predicted perfectly.
    cases.push_back({{1.25, 1.25, 1.25}, {1.25, 1.25, 1.25}});
    return cases;
}

std::vector<std::vector<double>> scalerCases(std::mt19937_64& random) {
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<std::vector<double>> cases = {{4.0}, {2.5, 2.5, 2.5}, {1.0, 2.0}, {-1e-3, 1e-3}};
    for (const double offset : {0.0, 5.0, 1e6}) {
        for (const double spread : {1e-3, 1.0, 40.0}) {
            std::vector<double> targets;
            for (int i = 0; i < 321; ++i) {
                targets.push_back(offset + spread * normal(random));
            }
            cases.push_back(std::move(targets));
        }
    }
    return cases;
}

class TaskMetricsParity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        std::mt19937_64 random(29);
        multiLabel_ = multiLabelCases(random);
        regression_ = regressionCases(random);
        scaler_ = scalerCases(random);
    }
    void SetUp() override {
        if (test::referencePython().empty()) {
            GTEST_SKIP() << "no reference Python venv configured (run scripts/setup.sh)";
        }
    }

    /// The reference's answer (reference_) for the cases of the named sections, computed by one
    /// run of task_metrics.py per test (ctest runs each test in its own process; the multi-label
    /// figures take seconds, so a test asks only for what it compares). Sets skip_ when
    /// scikit-learn or scipy is missing, failure_ when the script failed.
    static void loadReference(const std::vector<std::string>& sections) {
        skip_.clear();
        failure_.clear();
        nlohmann::json in = nlohmann::json::object();
        for (const auto& section : sections) {
            if (section == "multi_label") {
                for (const auto& c : multiLabel_) {
                    in[section].push_back({{"labels", c.labels},
                                           {"probabilities", c.probabilities},
                                           {"truth", c.truth}});
                }
            } else if (section == "regression") {
                for (const auto& c : regression_) {
                    in[section].push_back({{"predictions", c.predictions}, {"truth", c.truth}});
                }
            } else {
                in[section] = scaler_;
            }
        }
        const test::TempDir dir;
        test::writeFile(dir / "in.json", in.dump());
        const auto log = dir / "reference.log";
        const int code =
            test::runPythonScript("tests/parity/task_metrics.py",
                                  {(dir / "in.json").string(), (dir / "out.json").string()}, log);
        if (code == 77) {
            skip_ = test::readFile(log);
        } else if (code != 0) {
            failure_ = "task_metrics.py failed:\n" + test::readFile(log);
        } else {
            reference_ = nlohmann::json::parse(test::readFile(dir / "out.json"));
        }
    }

    /// Equal within kTolerance, relative for figures above 1; records the largest difference.
    static void expectClose(double ours, const nlohmann::json& reference, const std::string& what) {
        ASSERT_TRUE(reference.is_number()) << what << ": reference " << reference.dump();
        const double theirs = reference.get<double>();
        const double difference = std::abs(ours - theirs);
        largest_ = std::max(largest_, difference / std::max(1.0, std::abs(theirs)));
        ++compared_;
        EXPECT_LE(difference, kTolerance * std::max(1.0, std::abs(theirs)))
            << what << ": ours " << ours << ", reference " << theirs;
    }
    static void expectSame(const std::optional<double>& ours, const nlohmann::json& reference,
                           const std::string& what) {
        if (reference.is_null()) {
            ++compared_;
            EXPECT_FALSE(ours.has_value()) << what << ": ours " << *ours << ", reference NaN";
        } else {
            ASSERT_TRUE(ours.has_value()) << what << ": undefined, reference " << reference;
            expectClose(*ours, reference, what);
        }
    }
    static void report(const std::string& what) {
        std::cout << what << ": " << compared_ << " figures compared, largest difference "
                  << largest_ << " (tolerance " << kTolerance << ")\n";
    }

    static inline nlohmann::json reference_;
    static inline std::string skip_;
    static inline std::string failure_;
    static inline std::vector<MultiLabelCase> multiLabel_;
    static inline std::vector<RegressionCase> regression_;
    static inline std::vector<std::vector<double>> scaler_;
    static inline std::size_t compared_ = 0;
    static inline double largest_ = 0.0;
};

#define BERT_LOAD_REFERENCE(...)  \
    loadReference({__VA_ARGS__}); \
    if (!skip_.empty()) {         \
        GTEST_SKIP() << skip_;    \
    }                             \
    ASSERT_TRUE(failure_.empty()) << failure_

TEST_F(TaskMetricsParity, MultiLabelFiguresAndTheTunedThresholdMatchScikitLearn) {
    BERT_LOAD_REFERENCE("multi_label");
    compared_ = 0;
    largest_ = 0.0;
    ASSERT_EQ(reference_["multi_label"].size(), multiLabel_.size());
    std::size_t fullPoints = 0;
    for (std::size_t i = 0; i < multiLabel_.size(); ++i) {
        const auto& c = multiLabel_[i];
        const MultiLabelScores scores{c.labels, c.probabilities, c.truth};
        const auto& points = reference_["multi_label"][i]["points"];
        const auto curve = thresholdCurve(scores);
        ASSERT_EQ(curve.size(), points.size());
        for (std::size_t t = 0; t < points.size(); ++t) {
            const auto& expected = points[t];
            const auto name = "case " + std::to_string(i) + " (" +
                              std::to_string(scores.examples()) + "x" + std::to_string(c.labels) +
                              ") at " + std::to_string(expected["threshold"].get<double>());
            ASSERT_EQ(curve[t].threshold, expected["threshold"].get<double>()) << name;
            expectClose(curve[t].microF1, expected["micro_f1"], name + " curve micro F1");
            expectClose(curve[t].microPrecision, expected["micro_precision"], name + " curve P");
            expectClose(curve[t].microRecall, expected["micro_recall"], name + " curve R");
            if (!expected.contains("macro_f1")) {
                continue;  // the reference gives every figure at a few thresholds only
            }
            ++fullPoints;
            expectClose(curve[t].macroF1, expected["macro_f1"], name + " curve macro F1");
            const auto report = multiLabelReportOf(scores, curve[t].threshold);
            expectClose(report.microPrecision, expected["micro_precision"], name + " micro P");
            expectClose(report.microRecall, expected["micro_recall"], name + " micro R");
            expectClose(report.microF1, expected["micro_f1"], name + " micro F1");
            expectClose(report.macroF1, expected["macro_f1"], name + " macro F1");
            expectClose(report.subsetAccuracy, expected["subset_accuracy"], name + " subset");
            expectClose(report.hammingLoss, expected["hamming_loss"], name + " Hamming");
            for (std::size_t label = 0; label < c.labels; ++label) {
                const auto row = name + " label " + std::to_string(label);
                expectClose(report.perLabel[label].precision, expected["precision"][label],
                            row + " P");
                expectClose(report.perLabel[label].recall, expected["recall"][label], row + " R");
                expectClose(report.perLabel[label].f1, expected["f1"][label], row + " F1");
                EXPECT_EQ(report.perLabel[label].support, expected["support"][label].get<int>())
                    << row;
            }
        }
    }
    EXPECT_EQ(fullPoints, multiLabel_.size() * 5);
    report("multi-label (" + std::to_string(multiLabel_.size()) +
           " cases: the curve at 19 thresholds, every figure at 5)");

    // The tuned threshold is the documented rule's choice, computed apart in Python.
    std::size_t awayFromHalf = 0;
    for (std::size_t i = 0; i < multiLabel_.size(); ++i) {
        const auto& c = multiLabel_[i];
        const auto tuned = tuneThreshold({c.labels, c.probabilities, c.truth});
        const double expected = reference_["multi_label"][i]["tuned"].get<double>();
        EXPECT_EQ(tuned.threshold, expected) << "case " << i;
        awayFromHalf += expected != 0.5 ? 1 : 0;
    }
    // The cases must exercise the rule, not only its default.
    EXPECT_GT(awayFromHalf, multiLabel_.size() / 4);
    std::cout << "tuned thresholds: " << multiLabel_.size() << " cases, " << awayFromHalf
              << " tuned away from 0.5\n";
}

TEST_F(TaskMetricsParity, RegressionFiguresAndTheScalerMatchScikitLearnAndScipy) {
    BERT_LOAD_REFERENCE("regression", "scaler");
    compared_ = 0;
    largest_ = 0.0;
    ASSERT_EQ(reference_["regression"].size(), regression_.size());
    std::size_t undefined = 0;
    for (std::size_t i = 0; i < regression_.size(); ++i) {
        const auto& c = regression_[i];
        const auto& expected = reference_["regression"][i];
        const auto name =
            "case " + std::to_string(i) + " (" + std::to_string(c.truth.size()) + " examples)";
        const auto report = regressionReportOf(c.predictions, c.truth);
        expectClose(report.rmse, expected["rmse"], name + " RMSE");
        expectClose(report.mae, expected["mae"], name + " MAE");
        expectSame(report.pearson, expected["pearson"], name + " Pearson");
        expectSame(report.spearman, expected["spearman"], name + " Spearman");
        expectSame(report.r2, expected["r2"], name + " R2");
        undefined += expected["pearson"].is_null() ? 1 : 0;
    }
    EXPECT_GT(undefined, 0U);  // the constant cases were reached
    report("regression (" + std::to_string(regression_.size()) + " cases, " +
           std::to_string(undefined) + " with an undefined Pearson)");
    compared_ = 0;
    largest_ = 0.0;
    for (std::size_t i = 0; i < scaler_.size(); ++i) {
        const auto scaler = TargetScaler::fit(scaler_[i]);
        const auto& expected = reference_["scaler"][i];
        expectClose(scaler.mean, expected["mean"], "scaler case " + std::to_string(i) + " mean");
        expectClose(scaler.scale, expected["scale"], "scaler case " + std::to_string(i) + " scale");
    }
    report("StandardScaler (" + std::to_string(scaler_.size()) + " cases)");
}

}  // namespace
}  // namespace bert
