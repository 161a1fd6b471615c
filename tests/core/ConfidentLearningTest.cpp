// Confident learning (task/ConfidentLearning.h): its definitions on cases small enough to count
// by hand, and its issues, thresholds and joints against cleanlab's on seeded random sets
// (tests/parity/confident_learning.py).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "support/TestSupport.h"
#include "task/ConfidentLearning.h"

namespace bert {
namespace {

using Counts = std::vector<std::vector<std::int64_t>>;

std::vector<std::size_t> examplesOf(const LabelIssues& found) {
    std::vector<std::size_t> examples;
    for (const auto& issue : found.issues) {
        examples.push_back(issue.example);
    }
    return examples;
}

// Three classes. Example 2 is labelled 0 but the model gives class 1 0.8, which reaches class
// 1's threshold (the mean of 0.7 and 0.9) within the fuzz of 1e-6; example 3 (labelled 1, 0.7)
// and 6 (labelled 2, 0.7 < 0.75) are confident of nothing and left out of the count.
TEST(ConfidentLearning, ThresholdsJointsAndIssuesAsTheDefinitionsCountThem) {
    const std::vector<std::int64_t> labels{0, 0, 0, 1, 1, 2, 2};
    const std::vector<double> p{0.8, 0.1, 0.1, 0.7, 0.2, 0.1, 0.1, 0.8, 0.1, 0.2, 0.7,
                                0.1, 0.1, 0.9, 0.0, 0.1, 0.1, 0.8, 0.2, 0.1, 0.7};
    const auto found = findLabelIssues(labels, p, 3);
    ASSERT_EQ(found.thresholds.size(), 3U);
    EXPECT_NEAR(found.thresholds[0], (0.8 + 0.7 + 0.1) / 3, 1e-15);
    EXPECT_NEAR(found.thresholds[1], 0.8, 1e-15);
    EXPECT_NEAR(found.thresholds[2], 0.75, 1e-15);
    EXPECT_EQ(found.countedJoint, (Counts{{2, 1, 0}, {0, 1, 0}, {0, 0, 1}}));
    // Rows scaled to the labels' counts 3, 2, 2: row 1's single count becomes 2.
    EXPECT_EQ(found.confidentJoint, (Counts{{2, 1, 0}, {0, 2, 0}, {0, 0, 2}}));
    EXPECT_EQ(found.pruneCounts, found.confidentJoint) << "every diagonal is already 1 or more";
    ASSERT_EQ(found.issues.size(), 1U);
    EXPECT_EQ(found.issues[0].example, 2U);
    EXPECT_EQ(found.issues[0].given, 0);
    EXPECT_EQ(found.issues[0].likely, 1);
    EXPECT_EQ(found.issues[0].quality, 0.1);
    EXPECT_TRUE(found.issues[0].labels.empty());
}

// No example is labelled 2. Its threshold is 2, so example 2, which the model gives class 2
// 0.9, is counted in no cell; the class's joint row is empty and its prune row keeps the one
// example the keep-one rule asks for. Example 5, labelled 1 with class 0 at 0.6 (above class
// 0's threshold 0.5167), is the one issue.
TEST(ConfidentLearning, AClassNoExampleIsLabelledWithHasThresholdTwoAndAnEmptyRow) {
    const std::vector<std::int64_t> labels{0, 0, 0, 1, 1, 1};
    const std::vector<double> p{0.8, 0.1, 0.1, 0.7, 0.2, 0.1, 0.05, 0.05, 0.9,
                                0.1, 0.8, 0.1, 0.2, 0.7, 0.1, 0.6,  0.3,  0.1};
    const auto found = findLabelIssues(labels, p, 3);
    EXPECT_EQ(found.thresholds[2], 2.0);
    EXPECT_EQ(found.countedJoint, (Counts{{2, 0, 0}, {1, 2, 0}, {0, 0, 1}}));
    EXPECT_EQ(found.confidentJoint, (Counts{{3, 0, 0}, {1, 2, 0}, {0, 0, 0}}));
    EXPECT_EQ(found.pruneCounts, (Counts{{3, 0, 0}, {1, 2, 0}, {0, 0, 1}}));
    ASSERT_EQ(examplesOf(found), std::vector<std::size_t>{5});
    EXPECT_EQ(found.issues[0].likely, 0);
    EXPECT_EQ(found.issues[0].quality, 0.3);
}

// Calibration scales class 0's counted row [2, 1] to its six examples, [4, 2]: two of its
// examples are pruned as class 1, the two with the largest p_1 - p_0, examples 2 and 3. But the
// model gives example 3 class 1 only 8e-7 more than class 0, within the fuzz of 1e-6: no issue.
TEST(ConfidentLearning, AnExampleTheModelFindsNoLikelierThanTheFuzzIsNoIssue) {
    const std::vector<std::int64_t> labels{0, 0, 0, 0, 0, 0, 1, 1, 1};
    const std::vector<double> p{0.99, 0.01, 0.99, 0.01, 0.1, 0.9,  0.4999996, 0.5000004, 0.6,
                                0.4,  0.62, 0.38, 0.3,  0.7, 0.25, 0.75,      0.35,      0.65};
    const auto found = findLabelIssues(labels, p, 2);
    EXPECT_EQ(found.countedJoint, (Counts{{2, 1}, {0, 2}}));
    EXPECT_EQ(found.confidentJoint, (Counts{{4, 2}, {0, 3}}));
    EXPECT_EQ(examplesOf(found), std::vector<std::size_t>{2});
}

// Four issues: example 4 at self-confidence 0.1, then 2, 5 and 9 all at 0.2, by row.
TEST(ConfidentLearning, IssuesAreRankedBySelfConfidenceEqualOnesByRow) {
    const std::vector<std::int64_t> labels{0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    const std::vector<double> p{0.9, 0.1, 0.95, 0.05, 0.2,  0.8,  0.9,  0.1,  0.1, 0.9,
                                0.2, 0.8, 0.1,  0.9,  0.05, 0.95, 0.15, 0.85, 0.8, 0.2};
    const auto found = findLabelIssues(labels, p, 2);
    EXPECT_EQ(examplesOf(found), (std::vector<std::size_t>{4, 2, 5, 9}));
    EXPECT_EQ(found.issues[0].quality, 0.1);
    EXPECT_EQ(found.issues[3].given, 1);
    EXPECT_EQ(found.issues[3].likely, 0);
}

// Two labels. Example 4 lacks label 1, which the model gives 0.95 (label 1's present
// threshold is 0.85): label 1's absent row counts it as truly present, and it is flagged. Its
// score: the self-confidences 0.85 (label 0, present) and 0.05 (label 1, absent), high to low,
// averaged with weight 0.8 on the second.
TEST(ConfidentLearning, MultiLabelFlagsAnExampleByTheLabelMostAtFault) {
    const std::vector<std::uint8_t> truth{1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 0};
    const std::vector<double> p{0.9,  0.1,  0.8,  0.2,  0.1, 0.9,  0.2, 0.8,
                                0.85, 0.95, 0.15, 0.05, 0.7, 0.85, 0.3, 0.15};
    const auto found = findMultiLabelIssues(truth, p, 2);
    ASSERT_EQ(found.thresholds.size(), 4U);
    EXPECT_NEAR(found.thresholds[3], 0.85, 1e-15) << "label 1 present: mean of 0.9, 0.8, 0.85";
    ASSERT_EQ(found.confidentJoint.size(), 4U);
    EXPECT_EQ(found.confidentJoint[0], (std::vector<std::int64_t>{4, 0})) << "label 0: clean";
    EXPECT_EQ(found.confidentJoint[2], (std::vector<std::int64_t>{4, 1}));
    EXPECT_EQ(found.confidentJoint[3], (std::vector<std::int64_t>{0, 3}));
    ASSERT_EQ(examplesOf(found), std::vector<std::size_t>{4});
    const auto& issue = found.issues[0];
    EXPECT_EQ(issue.given, 1);
    EXPECT_EQ(issue.likely, 1) << "the model says present where the truth says absent";
    EXPECT_EQ(issue.labels, std::vector<std::int64_t>{1});
    EXPECT_NEAR(issue.quality, 0.8 * (1.0 - 0.95) + 0.2 * 0.85, 1e-15);
}

template <typename Call>
std::string refusal(Call call) {
    try {
        call();
    } catch (const InputError& error) {
        return error.what();
    }
    return "(accepted)";
}

TEST(ConfidentLearning, BadInputIsRefusedWithAReason) {
    const std::vector<std::int64_t> labels{0, 1};
    const std::vector<double> p{0.9, 0.1, 0.2, 0.8};
    EXPECT_EQ(findLabelIssues(labels, p, 2).issues.size(), 0U) << "the good input is accepted";
    const auto single = [](std::vector<std::int64_t> l, std::vector<double> q, std::size_t k) {
        return refusal([&] { findLabelIssues(l, q, k); });
    };
    EXPECT_NE(single({}, {}, 2).find("no examples"), std::string::npos);
    EXPECT_NE(single({0, 0}, {1.0, 1.0}, 1).find("at least 2 classes"), std::string::npos);
    EXPECT_NE(single(labels, {0.9, 0.1, 0.2}, 2).find("expected 4"), std::string::npos);
    EXPECT_NE(single({0, 2}, p, 2).find("has label 2"), std::string::npos);
    EXPECT_NE(single({0, -1}, p, 2).find("has label -1"), std::string::npos);
    EXPECT_NE(single({1, 1}, p, 2).find("every example is labelled 1"), std::string::npos);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NE(single(labels, {0.9, 0.1, nan, 0.8}, 2).find("not a number"), std::string::npos);
    EXPECT_NE(single(labels, {1.5, -0.5, 0.2, 0.8}, 2).find("not a probability"),
              std::string::npos);
    EXPECT_NE(single(labels, {0.9, 0.9, 0.2, 0.8}, 2).find("sum to"), std::string::npos)
        << "sigmoids or logits where a softmax belongs";

    const auto multi = [](std::vector<std::uint8_t> t, std::vector<double> q, std::size_t k) {
        return refusal([&] { findMultiLabelIssues(t, q, k); });
    };
    EXPECT_EQ(multi({1, 0, 0, 1}, {0.9, 0.9, 0.2, 0.8}, 2), "(accepted)");
    EXPECT_NE(multi({}, {}, 2).find("no examples"), std::string::npos);
    EXPECT_NE(multi({1, 0}, {0.9, 0.2}, 1).find("at least 2 labels"), std::string::npos);
    EXPECT_NE(multi({1, 0, 1}, {0.9, 0.2, 0.3}, 2).find("rows of 2"), std::string::npos);
    EXPECT_NE(multi({1, 0, 0, 1}, {0.9, 0.2}, 2).find("expected 4"), std::string::npos);
    EXPECT_NE(multi({1, 2, 0, 1}, {0.9, 0.2, 0.2, 0.8}, 2).find("not 0 or 1"), std::string::npos);
    EXPECT_NE(multi({1, 0, 0, 1}, {0.9, nan, 0.2, 0.8}, 2).find("not a number"), std::string::npos);
}

/// A seeded source of the same numbers on every platform (the engine is specified; the
/// distributions of <random> are not).
class Source {
public:
    explicit Source(std::uint64_t seed) : engine_(seed) {}
    double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    double normal() {
        const double u = 1.0 - uniform();
        return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * uniform());
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(engine_() % n); }

private:
    std::mt19937_64 engine_;
};

/// A single-label set: true classes drawn by prior, logits scale x one-hot + noise, softmax;
/// a share of the labels flipped to another class. A class of prior 0 among the labels (but
/// not the truth) is one the labels never use: its examples are labelled something else.
struct SingleCase {
    std::uint64_t seed;
    std::size_t rows;
    std::vector<double> prior;  ///< of the true classes
    double scale;
    double flipped;
    std::int64_t unused = -1;  ///< a class no example is labelled with
};

nlohmann::json generate(const SingleCase& c, std::vector<std::int64_t>& labels,
                        std::vector<double>& probabilities) {
    Source source(c.seed);
    const std::size_t k = c.prior.size();
    double priorTotal = 0.0;
    for (const double w : c.prior) {
        priorTotal += w;
    }
    std::vector<std::vector<double>> rows;
    for (std::size_t i = 0; i < c.rows; ++i) {
        double draw = source.uniform() * priorTotal;
        std::size_t truth = 0;
        while (truth + 1 < k && draw >= c.prior[truth]) {
            draw -= c.prior[truth];
            ++truth;
        }
        std::vector<double> row(k);
        double top = -1e300;
        for (std::size_t j = 0; j < k; ++j) {
            row[j] = source.normal() + (j == truth ? c.scale : 0.0);
            top = std::max(top, row[j]);
        }
        double sum = 0.0;
        for (auto& v : row) {
            v = std::exp(v - top);
            sum += v;
        }
        for (auto& v : row) {
            v /= sum;
        }
        auto label = static_cast<std::int64_t>(truth);
        if (source.uniform() < c.flipped || label == c.unused) {
            do {
                label = static_cast<std::int64_t>(source.below(k));
            } while (label == static_cast<std::int64_t>(truth) || label == c.unused);
        }
        labels.push_back(label);
        probabilities.insert(probabilities.end(), row.begin(), row.end());
        rows.push_back(row);
    }
    return {{"kind", "single"}, {"labels", labels}, {"probabilities", rows}};
}

/// A multi-label set: each label present by its prior, its logit scale x (2y - 1) + noise,
/// sigmoid; a share of the (example, label) pairs flipped, except on labels of prior 0.
struct MultiCase {
    std::uint64_t seed;
    std::size_t rows;
    std::vector<double> prior;  ///< per label
    double scale;
    double flipped;
};

nlohmann::json generate(const MultiCase& c, std::vector<std::uint8_t>& truth,
                        std::vector<double>& probabilities) {
    Source source(c.seed);
    std::vector<std::vector<double>> rows;
    std::vector<std::vector<int>> given;
    for (std::size_t i = 0; i < c.rows; ++i) {
        std::vector<double> row;
        std::vector<int> labelRow;
        for (const double prior : c.prior) {
            const bool present = source.uniform() < prior;
            const double logit = c.scale * (present ? 1.0 : -1.0) + source.normal();
            row.push_back(1.0 / (1.0 + std::exp(-logit)));
            const bool flip = prior > 0.0 && source.uniform() < c.flipped;
            labelRow.push_back(present != flip ? 1 : 0);
            truth.push_back(static_cast<std::uint8_t>(labelRow.back()));
        }
        probabilities.insert(probabilities.end(), row.begin(), row.end());
        rows.push_back(row);
        given.push_back(labelRow);
    }
    return {{"kind", "multi"}, {"truth", given}, {"probabilities", rows}};
}

Counts countsOf(const nlohmann::json& json) {
    return json.get<Counts>();
}

TEST(ConfidentLearning, IssuesThresholdsAndJointsEqualCleanlabs) {
    if (const auto why = test::referenceUnavailable(); !why.empty()) {
        GTEST_SKIP() << why;
    }
    // Two, three and seven classes, 50 to 2000 examples: noisy ones with a share of the labels
    // flipped, a nearly clean one, an imbalanced one, one with a class the labels never use;
    // multi-label with 3 and 5 labels, one label that no example has.
    const std::vector<SingleCase> singles{
        {10, 50, {1, 1}, 2.5, 0.15, -1},
        {11, 300, {1, 1, 1}, 3.0, 0.2, -1},
        {92, 2000, {5, 3, 2, 1, 1, 0.5, 0.5}, 3.5, 0.1, -1},
        {13, 500, {1, 1, 1}, 8.0, 0.0, -1},
        {164, 200, {2, 2, 2, 2, 2, 2, 1}, 3.0, 0.25, 6},
        {15, 2000, {9, 1}, 2.0, 0.3, -1},
    };
    const std::vector<MultiCase> multis{
        {16, 400, {0.5, 0.3, 0.6}, 2.5, 0.1},
        {17, 150, {0.4, 0.2, 0.0, 0.5, 0.7}, 3.0, 0.08},
    };
    nlohmann::json written = nlohmann::json::array();
    std::vector<LabelIssues> ours;
    for (const auto& c : singles) {
        std::vector<std::int64_t> labels;
        std::vector<double> p;
        written.push_back(generate(c, labels, p));
        ours.push_back(findLabelIssues(labels, p, c.prior.size()));
    }
    for (const auto& c : multis) {
        std::vector<std::uint8_t> truth;
        std::vector<double> p;
        written.push_back(generate(c, truth, p));
        ours.push_back(findMultiLabelIssues(truth, p, c.prior.size()));
    }
    const test::TempDir dir;
    test::writeFile(dir / "cases.json", written.dump());
    ASSERT_EQ(test::runPythonScript(
                  "tests/parity/confident_learning.py",
                  {(dir / "cases.json").string(), (dir / "reference.json").string()}, dir / "log"),
              0)
        << test::readFile(dir / "log");
    const auto reference = nlohmann::json::parse(test::readFile(dir / "reference.json"));
    ASSERT_EQ(reference.size(), ours.size());
    std::size_t issuesSeen = 0;
    std::size_t severalLabels = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        const auto& want = reference[i];
        const auto& got = ours[i];
        const bool multi = i >= singles.size();
        SCOPED_TRACE("case " + std::to_string(i));
        EXPECT_TRUE(want["ties"].empty())
            << "the data must leave no tie to numpy's unstable sort: " << want["ties"].dump();
        EXPECT_EQ(got.thresholds.size(), want["thresholds"].size());
        for (std::size_t j = 0; j < std::min(got.thresholds.size(), want["thresholds"].size());
             ++j) {
            EXPECT_NEAR(got.thresholds[j], want["thresholds"][j].get<double>(), 1e-12) << j;
        }
        EXPECT_EQ(got.countedJoint, countsOf(want["counted_joint"]));
        EXPECT_EQ(got.confidentJoint, countsOf(want["confident_joint"]));
        EXPECT_EQ(got.pruneCounts, countsOf(want["prune_counts"]));
        const auto wanted = want["issues"].get<std::vector<std::size_t>>();
        EXPECT_EQ(examplesOf(got), wanted) << "the same issues in the same order";
        issuesSeen += wanted.size();
        if (got.issues.size() != wanted.size()) {
            continue;  // reported above; the next case is still compared
        }
        for (std::size_t r = 0; r < got.issues.size(); ++r) {
            const auto& issue = got.issues[r];
            EXPECT_NEAR(issue.quality, want["quality"][r].get<double>(), 1e-12) << r;
            EXPECT_EQ(issue.likely, want["likely"][r].get<std::int64_t>()) << r;
            if (multi) {
                EXPECT_EQ(issue.labels, want["labels"][r].get<std::vector<std::int64_t>>()) << r;
                EXPECT_EQ(issue.given, want["given"][r].get<std::int64_t>()) << r;
                severalLabels += issue.labels.size() > 1 ? 1 : 0;
            }
        }
    }
    EXPECT_GT(ours[1].issues.size(), 20U) << "a fifth of 300 labels flipped";
    EXPECT_LT(ours[3].issues.size(), 5U) << "clean labels, confident model";
    EXPECT_GT(issuesSeen, 500U);
    EXPECT_GT(severalLabels, 0U) << "an example with two labels at fault, to pick the worse";
}

}  // namespace
}  // namespace bert
