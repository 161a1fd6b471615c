// Entity-level NER metrics (core/task/token/EntityMetrics.h): hand-checked cases from seqeval's own
// documentation, and parity with seqeval 1.2.2 itself (tests/parity/seqeval_reference.py) on
// thousands of random and ill-formed tag sequences in both of its modes.
#include <cmath>
#include <iostream>
#include <random>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "support/TestSupport.h"
#include "task/token/EntityMetrics.h"

namespace bert {
namespace {

using Tags = std::vector<std::vector<std::string>>;

TEST(EntityMetrics, SeqevalsDocumentedExampleGivesAHalf) {
    const Tags truth = {{"O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"},
                        {"B-PER", "I-PER", "O"}};
    const Tags predicted = {{"O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"},
                            {"B-PER", "I-PER", "O"}};
    const auto report = entityReport(truth, predicted, EntityMode::Conlleval);
    EXPECT_EQ(report.micro.truePositives, 1U);
    EXPECT_EQ(report.micro.predicted, 2U);
    EXPECT_EQ(report.micro.support, 2U);
    EXPECT_DOUBLE_EQ(report.micro.f1, 0.5);
    EXPECT_DOUBLE_EQ(report.perType.at("MISC").f1, 0.0);
    EXPECT_DOUBLE_EQ(report.perType.at("PER").f1, 1.0);
    EXPECT_EQ(report.correctTokens, 8U);  // positions 2 and 3 differ
    EXPECT_DOUBLE_EQ(report.tokenAccuracy, 0.8);
}

TEST(EntityMetrics, AnIThatBeginsAnEntityCountsOnlyInTheLenientMode) {
    // seqeval's README: conlleval reads I-NP I-NP as one NP; strict mode reads no entity.
    const Tags truth = {{"B-NP", "E-NP", "O"}};
    const Tags predicted = {{"I-NP", "E-NP", "O"}};
    EXPECT_DOUBLE_EQ(entityReport(truth, predicted, EntityMode::Conlleval).micro.f1, 1.0);
    const auto strict = entityReport(truth, predicted, EntityMode::StrictIobes);
    EXPECT_EQ(strict.micro.predicted, 0U);
    EXPECT_EQ(strict.micro.support, 1U);
    EXPECT_DOUBLE_EQ(strict.micro.f1, 0.0);
}

TEST(EntityMetrics, EntitiesOfASentenceInBothModes) {
    const std::vector<std::string> bio = {"B-PER", "I-PER", "I-LOC", "O", "I-ORG", "B-ORG"};
    const std::vector<EntitySpan> lenient = {
        {"PER", 0, 2}, {"LOC", 2, 3}, {"ORG", 4, 5}, {"ORG", 5, 6}};
    EXPECT_EQ(entitiesOf(bio, EntityMode::Conlleval), lenient);
    const std::vector<std::string> iobes = {"S-PER", "B-LOC", "I-LOC", "E-LOC", "B-ORG", "O"};
    const std::vector<EntitySpan> strict = {{"PER", 0, 1}, {"LOC", 1, 4}};
    EXPECT_EQ(entitiesOf(iobes, EntityMode::StrictIobes), strict);
    EXPECT_THROW(entitiesOf({"U-PER"}, EntityMode::StrictIobes), InputError);
}

TEST(EntityMetrics, LabelIdsSkipPositionsWithoutALabel) {
    const std::vector<std::string> labels = {"O", "B-PER", "I-PER"};
    // -100 marks later sub-words and special tokens: skipped whatever was predicted there.
    const std::vector<std::vector<std::int64_t>> truth = {{-100, 1, -100, 2, 0, -100}};
    const std::vector<std::vector<std::int64_t>> predicted = {{0, 1, 0, 2, 0, 2}};
    const auto report = entityReport(truth, predicted, labels, EntityMode::Conlleval);
    EXPECT_EQ(report.tokens, 3U);
    EXPECT_EQ(report.micro.truePositives, 1U);
    EXPECT_DOUBLE_EQ(report.micro.f1, 1.0);
    EXPECT_THROW(entityReport(truth, {{0, 1}}, labels, EntityMode::Conlleval),
                 std::invalid_argument);
}

// ---- parity with seqeval ------------------------------------------------------------------------

// Tags as an undertrained tagger and careless files produce them: well-formed entities, then
// each position perturbed (I- runs without B-, type changes mid-entity, E-/S- among BIO, a B-
// never closed), plus tags seqeval reads in its own way ("B-", "I", "PER", "B-ORG-X", ".").
class TagGenerator {
public:
    explicit TagGenerator(std::uint32_t seed) : random_(seed) {}

    std::vector<std::string> wellFormed(std::size_t length, bool iobes) {
        std::vector<std::string> tags;
        while (tags.size() < length) {
            if (pick(3) != 0) {
                tags.emplace_back("O");
                continue;
            }
            const std::string type = types_[pick(types_.size())];
            const std::size_t size = std::min<std::size_t>(1 + pick(3), length - tags.size());
            for (std::size_t i = 0; i < size; ++i) {
                const char prefix = !iobes          ? (i == 0 ? 'B' : 'I')
                                    : size == 1     ? 'S'
                                    : i == 0        ? 'B'
                                    : i + 1 == size ? 'E'
                                                    : 'I';
                tags.push_back(std::string(1, prefix) + "-" + type);
            }
        }
        return tags;
    }

    std::vector<std::string> perturbed(std::vector<std::string> tags, bool strict) {
        const std::size_t rate = 1 + pick(4);  // about one position in 2 to 5
        for (auto& tag : tags) {
            if (pick(rate + 1) == 0) {
                tag = anyTag(strict);
            }
        }
        return tags;
    }

    std::vector<std::string> random(std::size_t length, bool strict) {
        std::vector<std::string> tags;
        for (std::size_t i = 0; i < length; ++i) {
            tags.push_back(pick(3) == 0 ? std::string("O") : anyTag(strict));
        }
        return tags;
    }

    std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
    }

private:
    std::string anyTag(bool strict) {
        static const std::vector<std::string> odd = {"B-",      "I",       "E",       "S-",
                                                     "B--PER-", "B-ORG-X", "I-ORG-X", "I-PER-"};
        static const std::vector<std::string> lenientOnly = {"PER",   ".",     "O-PER",
                                                             "X-LOC", "U-PER", "L-PER"};
        if (pick(12) == 0) {
            return odd[pick(odd.size())];
        }
        if (!strict && pick(14) == 0) {
            return lenientOnly[pick(lenientOnly.size())];
        }
        static const std::string prefixes = "OBIES";
        const char prefix = prefixes[pick(prefixes.size())];
        return prefix == 'O' ? std::string("O")
                             : std::string(1, prefix) + "-" + types_[pick(types_.size())];
    }

    std::mt19937 random_;
    std::vector<std::string> types_ = {"PER", "LOC", "ORG", "MISC"};
};

void expectNear(double ours, const nlohmann::json& theirs, const std::string& what) {
    if (theirs.is_null()) {
        return;  // seqeval's NaN (a macro average over no type); ours is 0 by contract
    }
    EXPECT_NEAR(ours, theirs.get<double>(), 1e-12) << what;
}

TEST(EntityMetricsParity, EqualsSeqevalOnRandomAndIllFormedTags) {
    if (test::referencePython().empty()) {
        GTEST_SKIP() << "no reference Python venv configured (run scripts/setup.sh)";
    }
    TagGenerator generator(20261126);
    struct Case {
        EntityMode mode;
        Tags truth;
        Tags predicted;
    };
    std::vector<Case> cases;
    constexpr std::size_t kCasesPerMode = 1500;
    constexpr std::size_t kLargeCases = 20;
    for (const EntityMode mode : {EntityMode::Conlleval, EntityMode::StrictIobes}) {
        const bool strict = mode == EntityMode::StrictIobes;
        for (std::size_t c = 0; c < kCasesPerMode; ++c) {
            Case item{mode, {}, {}};
            // The last cases are evaluation-sized: hundreds of sentences of up to 40 tags.
            const bool large = c + kLargeCases >= kCasesPerMode;
            const std::size_t sentences = large ? 100 + generator.pick(200) : 1 + generator.pick(6);
            const std::size_t style = c % 3;  // 0: perturbed truth, 1: random, 2: ill-formed truth
            for (std::size_t s = 0; s < sentences; ++s) {
                const std::size_t length = generator.pick(large ? 41 : 13);  // empty ones too
                const bool iobes = strict || generator.pick(4) == 0;
                auto truth = style == 2 ? generator.random(length, strict)
                                        : generator.wellFormed(length, iobes);
                auto predicted = style == 1 ? generator.random(length, strict)
                                            : generator.perturbed(truth, strict);
                item.truth.push_back(std::move(truth));
                item.predicted.push_back(std::move(predicted));
            }
            cases.push_back(std::move(item));
        }
    }
    nlohmann::json input = nlohmann::json::array();
    for (const auto& item : cases) {
        input.push_back({{"mode", item.mode == EntityMode::StrictIobes ? "strict" : "conlleval"},
                         {"truth", item.truth},
                         {"predicted", item.predicted}});
    }
    test::TempDir dir;
    test::writeFile(dir / "cases.json", input.dump());
    const int status = test::runPythonScript(
        "tests/parity/seqeval_reference.py",
        {(dir / "cases.json").string(), (dir / "out.json").string()}, dir / "log.txt");
    if (status == 77) {
        GTEST_SKIP() << test::readFile(dir / "log.txt");
    }
    ASSERT_EQ(status, 0) << test::readFile(dir / "log.txt");
    const auto results = nlohmann::json::parse(test::readFile(dir / "out.json"));
    ASSERT_EQ(results.size(), cases.size());

    std::size_t entities = 0;
    std::size_t tags = 0;
    std::size_t differ = 0;
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const auto ours = entityReport(cases[c].truth, cases[c].predicted, cases[c].mode);
        const auto& theirs = results[c];
        const auto& report = theirs["report"];
        const std::string what = "case " + std::to_string(c) + ": " +
                                 nlohmann::json(cases[c].truth).dump() + " vs " +
                                 nlohmann::json(cases[c].predicted).dump();
        // Exact counts per type, and the same types.
        std::map<std::string, std::vector<std::size_t>> ourCounts;
        for (const auto& [type, score] : ours.perType) {
            ourCounts[type] = {score.truePositives, score.predicted, score.support};
        }
        const auto theirCounts =
            theirs["counts"].get<std::map<std::string, std::vector<std::size_t>>>();
        if (ourCounts != theirCounts) {
            if (++differ <= 5) {
                std::cout << what << "\n  ours:   " << nlohmann::json(ourCounts).dump()
                          << "\n  theirs: " << nlohmann::json(theirCounts).dump() << "\n";
            }
            continue;
        }
        entities += ours.micro.support + ours.micro.predicted;
        tags += ours.tokens;
        for (const auto& [type, score] : ours.perType) {
            const auto& row = report.at(type);
            expectNear(score.precision, row["precision"], what + " " + type + " precision");
            expectNear(score.recall, row["recall"], what + " " + type + " recall");
            expectNear(score.f1, row["f1-score"], what + " " + type + " f1");
            EXPECT_EQ(score.support, row["support"].get<double>()) << what;
        }
        const auto& micro = report["micro avg"];
        expectNear(ours.micro.precision, micro["precision"], what + " micro precision");
        expectNear(ours.micro.recall, micro["recall"], what + " micro recall");
        expectNear(ours.micro.f1, micro["f1-score"], what + " micro f1");
        const auto& macro = report["macro avg"];
        expectNear(ours.macroPrecision, macro["precision"], what + " macro precision");
        expectNear(ours.macroRecall, macro["recall"], what + " macro recall");
        expectNear(ours.macroF1, macro["f1-score"], what + " macro f1");
        const auto& weighted = report["weighted avg"];
        expectNear(ours.weightedPrecision, weighted["precision"], what + " weighted precision");
        expectNear(ours.weightedRecall, weighted["recall"], what + " weighted recall");
        expectNear(ours.weightedF1, weighted["f1-score"], what + " weighted f1");
        if (!theirs["accuracy"].is_null()) {
            expectNear(ours.tokenAccuracy, theirs["accuracy"], what + " accuracy");
        }
    }
    EXPECT_EQ(differ, 0U) << "cases whose entity counts differ from seqeval's";
    std::cout << cases.size() << " cases (" << kCasesPerMode << " per mode), " << tags << " tags, "
              << entities << " true and predicted entities, compared with seqeval\n";
}

}  // namespace
}  // namespace bert
