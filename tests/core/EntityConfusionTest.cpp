// Issue 29, point 6: the entity-type confusion of the NER Model quality tab
// (core/task/token/EntityConfusion.h). Hand-made sentences in both schemes with every cell
// worked out, and, over every pair of short tag sequences, the invariants that tie the table to
// the entity report: the diagonal is seqeval's true positives per type, a row plus its missed
// count is the type's support, a column plus its spurious count the type's predictions.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "task/TaskMetricsJson.h"
#include "task/token/EntityMetrics.h"

namespace bert {
namespace {

using Tags = std::vector<std::vector<std::string>>;
using Counts = std::vector<std::vector<std::size_t>>;
using Column = std::vector<std::size_t>;

/// The invariants, for any truth and predictions.
void expectAgreesWithTheReport(const EntityReport& report) {
    const auto& confusion = report.confusion;
    std::vector<std::string> reportTypes;
    for (const auto& [type, score] : report.perType) {
        reportTypes.push_back(type);
    }
    ASSERT_EQ(confusion.types, reportTypes);
    const auto n = confusion.types.size();
    ASSERT_EQ(confusion.counts.size(), n);
    for (std::size_t t = 0; t < n; ++t) {
        const auto& score = report.perType.at(confusion.types[t]);
        EXPECT_EQ(confusion.counts[t][t], score.truePositives) << confusion.types[t];
        std::size_t row = confusion.missed[t];
        std::size_t column = confusion.spurious[t];
        for (std::size_t other = 0; other < n; ++other) {
            row += confusion.counts[t][other];
            column += confusion.counts[other][t];
        }
        EXPECT_EQ(row, score.support) << confusion.types[t];
        EXPECT_EQ(column, score.predicted) << confusion.types[t];
    }
}

TEST(EntityConfusion, BioTypeConfusionBoundaryErrorsMissedAndSpurious) {
    const Tags truth = {{"B-PER", "I-PER", "O", "B-LOC", "O"},  // PER, LOC
                        {"B-PER", "I-PER", "O", "O"},           // PER
                        {"B-ORG", "O", "B-PER"}};               // ORG, PER
    const Tags predicted = {
        {"B-ORG", "I-ORG", "O", "B-LOC", "O"},  // the PER as ORG, same span; the LOC right
        {"B-PER", "O", "O", "B-LOC"},           // the PER one word short; a LOC from nothing
        {"B-ORG", "O", "O"}};                   // the ORG right; the PER not found
    const auto report = entityReport(truth, predicted, EntityMode::Conlleval);
    const auto& confusion = report.confusion;
    EXPECT_EQ(confusion.types, (std::vector<std::string>{"LOC", "ORG", "PER"}));
    EXPECT_EQ(confusion.counts, (Counts{{1, 0, 0},     // LOC: right
                                        {0, 1, 0},     // ORG: right
                                        {0, 1, 0}}));  // PER: once as ORG, same span
    // The short PER is a boundary error: its true entity missed, the predicted one spurious.
    EXPECT_EQ(confusion.missed, (Column{0, 0, 2}));
    EXPECT_EQ(confusion.spurious, (Column{1, 0, 1}));
    // The diagonal is seqeval's true positives per type.
    EXPECT_EQ(report.perType.at("LOC").truePositives, 1U);
    EXPECT_EQ(report.perType.at("ORG").truePositives, 1U);
    EXPECT_EQ(report.perType.at("PER").truePositives, 0U);
    expectAgreesWithTheReport(report);
}

TEST(EntityConfusion, IobesInTheStrictModeCountsOnlyWellFormedEntities) {
    const Tags truth = {{"S-PER", "O", "B-LOC", "E-LOC"},
                        {"B-PER", "I-PER", "E-PER", "O"},
                        {"S-LOC", "O"},
                        {"O", "O"}};
    const Tags predicted = {{"S-ORG", "O", "B-LOC", "E-LOC"},  // PER as ORG; LOC right
                            {"B-PER", "E-PER", "O", "O"},      // PER one word short
                            {"B-LOC", "O"},   // a B- never closed: no entity, the LOC missed
                            {"O", "S-ORG"}};  // an ORG from nothing
    const auto report = entityReport(truth, predicted, EntityMode::StrictIobes);
    const auto& confusion = report.confusion;
    EXPECT_EQ(confusion.types, (std::vector<std::string>{"LOC", "ORG", "PER"}));
    EXPECT_EQ(confusion.counts, (Counts{{1, 0, 0}, {0, 0, 0}, {0, 1, 0}}));
    EXPECT_EQ(confusion.missed, (Column{1, 0, 1}));
    EXPECT_EQ(confusion.spurious, (Column{0, 1, 1}));
    EXPECT_EQ(report.perType.at("LOC").truePositives, 1U);
    EXPECT_EQ(report.perType.at("ORG").truePositives, 0U);
    EXPECT_EQ(report.perType.at("PER").truePositives, 0U);
    expectAgreesWithTheReport(report);
}

TEST(EntityConfusion, EntitiesOfDifferentSentencesNeverMatch) {
    // The same words of two sentences: a PER in the first, predicted in the second.
    const Tags truth = {{"B-PER", "I-PER"}, {"O", "O"}};
    const Tags predicted = {{"O", "O"}, {"B-PER", "I-PER"}};
    for (const auto mode : {EntityMode::Conlleval, EntityMode::StrictIobes}) {
        const auto iobes = mode == EntityMode::StrictIobes;
        const Tags strictTruth = {{"B-PER", "E-PER"}, {"O", "O"}};
        const Tags strictPredicted = {{"O", "O"}, {"B-PER", "E-PER"}};
        const auto report =
            entityReport(iobes ? strictTruth : truth, iobes ? strictPredicted : predicted, mode);
        EXPECT_EQ(report.confusion.counts, (Counts{{0}}));
        EXPECT_EQ(report.confusion.missed, (Column{1}));
        EXPECT_EQ(report.confusion.spurious, (Column{1}));
    }
}

TEST(EntityConfusion, LabelIdsGiveTheTableOfTheirWords) {
    // Evaluation's path: -100 positions (later sub-words) are dropped before entities are read.
    const std::vector<std::string> labels = {"O", "B-PER", "I-PER", "B-ORG", "I-ORG"};
    const std::vector<std::vector<std::int64_t>> truth = {{-100, 1, -100, 2, 0, -100}};
    const std::vector<std::vector<std::int64_t>> predicted = {{0, 3, 2, 4, 0, 1}};
    const auto report = entityReport(truth, predicted, labels, EntityMode::Conlleval);
    EXPECT_EQ(report.confusion.types, (std::vector<std::string>{"ORG", "PER"}));
    EXPECT_EQ(report.confusion.counts, (Counts{{0, 0}, {1, 0}}));
    EXPECT_EQ(report.confusion.missed, (Column{0, 0}));
    EXPECT_EQ(report.confusion.spurious, (Column{0, 0}));
}

TEST(EntityConfusion, NoEntitiesGiveAnEmptyTable) {
    const auto report = entityReport(Tags{{"O", "O"}}, Tags{{"O", "O"}}, EntityMode::Conlleval);
    EXPECT_TRUE(report.confusion.types.empty());
    EXPECT_TRUE(report.confusion.counts.empty());
}

// Every pair of tag sequences of three words over a small alphabet, in each mode: ill-formed
// ones included, as an undertrained model predicts them.
TEST(EntityConfusion, EveryPairOfShortSequencesAgreesWithTheReport) {
    const std::pair<EntityMode, std::vector<std::string>> alphabets[] = {
        {EntityMode::Conlleval, {"O", "B-A", "I-A", "B-B", "I-B", "E-A"}},
        {EntityMode::StrictIobes, {"O", "B-A", "E-A", "S-A", "S-B", "I-B"}}};
    for (const auto& [mode, tags] : alphabets) {
        const std::size_t k = tags.size();
        std::vector<std::vector<std::string>> sequences;
        for (std::size_t code = 0; code < k * k * k; ++code) {
            sequences.push_back({tags[code % k], tags[(code / k) % k], tags[code / (k * k)]});
        }
        for (const auto& truth : sequences) {
            for (const auto& predicted : sequences) {
                const auto report = entityReport(Tags{truth}, Tags{predicted}, mode);
                expectAgreesWithTheReport(report);
                if (::testing::Test::HasFailure()) {
                    FAIL() << "first disagreement: " << nlohmann::json(truth).dump() << " against "
                           << nlohmann::json(predicted).dump();
                }
            }
        }
    }
}

TEST(EntityConfusion, IsStoredAndReadBackAndAnOldReportHasNone) {
    const Tags truth = {{"B-PER", "I-PER", "O", "B-LOC"}, {"B-ORG", "O"}};
    const Tags predicted = {{"B-ORG", "I-ORG", "O", "B-LOC"}, {"O", "B-PER"}};
    const auto report = entityReport(truth, predicted, EntityMode::Conlleval);
    const auto& confusion = report.confusion;
    // The evaluation's report carries it beside the per-type rows, whose true positives are
    // its diagonal.
    const auto task = nlohmann::json::parse(toJson(report).dump());
    const auto& stored = task["entity_confusion"];
    EXPECT_EQ(stored["types"], nlohmann::json({"LOC", "ORG", "PER"}));
    ASSERT_EQ(task["per_type"].size(), 3U);
    for (std::size_t t = 0; t < 3; ++t) {
        EXPECT_EQ(task["per_type"][t]["type"], stored["types"][t]);
        EXPECT_EQ(task["per_type"][t]["true_positives"], stored["counts"][t][t]);
    }
    const auto read = entityConfusionFromJson(stored);
    ASSERT_TRUE(read.has_value());
    EXPECT_EQ(*read, confusion);

    // A run stored before the table existed, and damaged ones: no table rather than a wrong one.
    EXPECT_FALSE(entityConfusionFromJson(nlohmann::json()).has_value());
    EXPECT_FALSE(entityConfusionFromJson(nlohmann::json::object()).has_value());
    auto damaged = stored;
    damaged["counts"][1].erase(0);
    EXPECT_FALSE(entityConfusionFromJson(damaged).has_value());
    damaged = stored;
    damaged["missed"][0] = -1;
    EXPECT_FALSE(entityConfusionFromJson(damaged).has_value());
    damaged = stored;
    damaged["spurious"] = "none";
    EXPECT_FALSE(entityConfusionFromJson(damaged).has_value());
    damaged = stored;
    damaged["types"][0] = 3;
    EXPECT_FALSE(entityConfusionFromJson(damaged).has_value());
}

}  // namespace
}  // namespace bert
