// Issue 29, point 7: scripts/derive_task_sets.py derives the multi-label, regression and NER
// sets from the shared e-mails (and a Chinese sample in CLUENER's layout) deterministically, in a
// form the engine's readers accept and with targets that are what the script says they are.
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "task/multilabel/LabelSets.h"
#include "task/regression/RegressionTargets.h"
#include "text/Utf8.h"

namespace bert {
namespace {

class DerivedTaskSets : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        emails_ = test::sharedDataFile("spamassassin-part1.csv");
        if (emails_.empty() || test::referencePython().empty()) {
            return;
        }
        dir_ = new test::TempDir();
        failure_ = derive("first");
        printed_ = test::readFile(*dir_ / "first.log");
    }
    /// Runs the script into a folder of dir_ named name; the failure's message, or empty.
    static std::string derive(const std::string& name) {
        const auto log = *dir_ / (name + ".log");
        if (test::runPythonScript("scripts/derive_task_sets.py",
                                  {emails_.string(), (*dir_ / name).string()}, log) != 0) {
            return "derive_task_sets.py failed:\n" + test::readFile(log);
        }
        return {};
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (emails_.empty()) {
            GTEST_SKIP() << "../shared/data/spamassassin-part1.csv is absent";
        }
        if (test::referencePython().empty()) {
            GTEST_SKIP() << "no Python configured (run scripts/setup.sh)";
        }
        ASSERT_TRUE(failure_.empty()) << failure_;
    }
    static std::filesystem::path file(const std::string& name) { return *dir_ / "first" / name; }

    static inline std::filesystem::path emails_;
    static inline test::TempDir* dir_ = nullptr;
    static inline std::string failure_;
    static inline std::string printed_;
};

std::string bodyOf(const std::string& text) {
    const auto separator = text.find(" . ");
    return separator == std::string::npos ? std::string() : text.substr(separator + 3);
}

std::u32string codePoints(const std::string& text) {
    std::u32string points;
    for (std::size_t pos = 0; pos < text.size();) {
        points.push_back(utf8::decode(text, pos));
    }
    return points;
}

TEST_F(DerivedTaskSets, EveryFileIsTheSameOnASecondRun) {
    const auto failure = derive("second");
    ASSERT_TRUE(failure.empty()) << failure;
    for (const auto* name :
         {"multilabel.csv", "regression.csv", "ner.conll", "ner.jsonl", "cluener_zh.json"}) {
        const auto first = test::readFile(file(name));
        EXPECT_FALSE(first.empty()) << name;
        EXPECT_EQ(first, test::readFile(*dir_ / "second" / name)) << name << " differs";
    }
    std::cout << printed_;
}

TEST_F(DerivedTaskSets, TheMultiLabelSetReadsAsSevenLabelsThatFollowTheirRules) {
    const auto source = readTable(emails_);
    const auto table = readTable(file("multilabel.csv"));
    ASSERT_EQ(table.rows.size(), source.rows.size());
    const auto column = table.columnIndex("labels");
    ASSERT_TRUE(column.has_value());
    ASSERT_EQ(guessLabelSeparator(table, *column), ';');
    const auto sets = labelSetsFromColumn(table, "labels", ';', file("multilabel.csv"));
    const auto map = MultiLabelMap::fromLabelSets(sets);
    EXPECT_EQ(map.names(), (std::vector<std::string>{"ilug", "mailing-list", "money", "reply",
                                                     "spam", "spamassassin", "url"}));
    const auto co = labelCoOccurrence(map, sets);
    const auto at = [&](const char* name) { return *map.indexOf(name); };
    for (std::size_t i = 0; i < map.size(); ++i) {
        EXPECT_GT(co[i][i], 20) << map.names()[i] << " is too rare to learn";
        EXPECT_LT(co[i][i], static_cast<std::int64_t>(sets.size()) / 2)
            << map.names()[i] << " is too common to be informative";
    }
    // A list of a project is a mailing list.
    EXPECT_EQ(co[at("ilug")][at("mailing-list")], co[at("ilug")][at("ilug")]);
    EXPECT_EQ(co[at("spamassassin")][at("mailing-list")],
              co[at("spamassassin")][at("spamassassin")]);
    const auto text = *source.columnIndex("text");
    const auto label = *source.columnIndex("label");
    for (std::size_t row = 0; row < sets.size(); ++row) {
        ASSERT_EQ(table.rows[row][0], source.rows[row][text]) << "row " << row;
        const bool spam = source.rows[row][label] == "spam";
        EXPECT_EQ(map.multiHot(sets[row])[at("spam")] == 1, spam) << "row " << row;
        if (map.multiHot(sets[row])[at("url")] == 1) {
            EXPECT_TRUE(table.rows[row][0].find("http") != std::string::npos ||
                        table.rows[row][0].find("www.") != std::string::npos ||
                        table.rows[row][0].find("ftp://") != std::string::npos)
                << "row " << row;
        }
    }
}

TEST_F(DerivedTaskSets, TheRegressionTargetIsTheLogOfTheBodysLength) {
    const auto table = readTable(file("regression.csv"));
    const auto targets = targetsOfColumn(table, "log_body_length", file("regression.csv"));
    ASSERT_EQ(targets.size(), 3000U);
    for (std::size_t row = 0; row < targets.size(); ++row) {
        const auto expected =
            std::log1p(static_cast<double>(utf8::length(bodyOf(table.rows[row][0]))));
        ASSERT_NEAR(targets[row], expected, 1e-12) << "row " << row;
    }
    const auto scaler = TargetScaler::fit(targets);
    EXPECT_GT(scaler.scale, 0.5);  // spread enough for R² to mean something
}

/// Sentences of a CoNLL file: (token, tag) per line, a blank line between sentences.
std::vector<std::vector<std::pair<std::string, std::string>>> readConll(const std::string& text) {
    std::vector<std::vector<std::pair<std::string, std::string>>> sentences(1);
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty()) {
            if (!sentences.back().empty()) {
                sentences.emplace_back();
            }
            continue;
        }
        const auto space = line.rfind(' ');
        EXPECT_NE(space, std::string::npos) << line;
        EXPECT_EQ(line.find(' '), space) << "a token holds a space: " << line;
        sentences.back().emplace_back(line.substr(0, space), line.substr(space + 1));
    }
    if (sentences.back().empty()) {
        sentences.pop_back();
    }
    return sentences;
}

TEST_F(DerivedTaskSets, TheNerSetIsValidBioInBothLayoutsWithEveryType) {
    const auto sentences = readConll(test::readFile(file("ner.conll")));
    std::istringstream jsonl(test::readFile(file("ner.jsonl")));
    std::map<std::string, int> entities;
    std::size_t index = 0;
    for (std::string line; std::getline(jsonl, line); ++index) {
        ASSERT_LT(index, sentences.size());
        const auto json = nlohmann::json::parse(line);
        const auto tokens = json["tokens"].get<std::vector<std::string>>();
        const auto tags = json["tags"].get<std::vector<std::string>>();
        const auto& sentence = sentences[index];
        ASSERT_EQ(tokens.size(), sentence.size()) << "sentence " << index;
        ASSERT_EQ(tags.size(), tokens.size());
        EXPECT_LE(tokens.size(), 64U);
        std::string previous = "O";
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            EXPECT_EQ(tokens[i], sentence[i].first);
            EXPECT_EQ(tags[i], sentence[i].second);
            const auto& tag = tags[i];
            if (tag.starts_with("B-")) {
                ++entities[tag.substr(2)];
            } else if (tag.starts_with("I-")) {
                EXPECT_TRUE(previous == "B-" + tag.substr(2) || previous == tag)
                    << "sentence " << index << ": " << tag << " after " << previous;
            } else {
                EXPECT_EQ(tag, "O");
            }
            previous = tag;
        }
    }
    EXPECT_EQ(index, sentences.size());
    EXPECT_EQ(sentences.size(), 3000U);
    for (const auto* type : {"EMAIL", "URL", "MONEY", "DATE"}) {
        EXPECT_GT(entities[type], 100) << type;
    }
    EXPECT_EQ(entities.size(), 4U);
}

TEST_F(DerivedTaskSets, TheChineseSampleIsClueNerSpansOverItsOwnText) {
    std::istringstream lines(test::readFile(file("cluener_zh.json")));
    const std::set<std::string> types = {"name", "address", "company", "organization"};
    std::size_t sentences = 0;
    std::map<std::string, int> spans;
    for (std::string line; std::getline(lines, line); ++sentences) {
        const auto json = nlohmann::json::parse(line);
        const auto text = codePoints(json["text"].get<std::string>());
        for (const auto& [type, entities] : json["label"].items()) {
            EXPECT_TRUE(types.contains(type)) << type;
            for (const auto& [entity, positions] : entities.items()) {
                for (const auto& span : positions) {
                    const auto start = span[0].get<std::size_t>();
                    const auto end = span[1].get<std::size_t>();  // inclusive
                    ASSERT_LE(start, end);
                    ASSERT_LT(end, text.size()) << line;
                    EXPECT_EQ(text.substr(start, end - start + 1), codePoints(entity)) << line;
                    ++spans[type];
                }
            }
        }
    }
    EXPECT_GE(sentences, 200U);
    EXPECT_EQ(spans.size(), types.size());
}

TEST(DerivedTaskSetsScript, HelpSaysWhatItWritesAndABadFileIsNamed) {
    if (test::referencePython().empty()) {
        GTEST_SKIP() << "no Python configured (run scripts/setup.sh)";
    }
    const test::TempDir dir;
    ASSERT_EQ(test::runPythonScript("scripts/derive_task_sets.py", {"--help"}, dir / "help.log"),
              0);
    const auto help = test::readFile(dir / "help.log");
    for (const auto* word : {"EMAILS_CSV", "OUT_DIR", "multilabel.csv", "regression.csv",
                             "ner.conll", "ner.jsonl", "cluener_zh.json"}) {
        EXPECT_NE(help.find(word), std::string::npos) << word << " missing from:\n" << help;
    }
    test::writeFile(dir / "other.csv", "a,b\n1,2\n");
    EXPECT_NE(test::runPythonScript("scripts/derive_task_sets.py",
                                    {(dir / "other.csv").string(), (dir / "out").string()},
                                    dir / "bad.log"),
              0);
    const auto bad = test::readFile(dir / "bad.log");
    EXPECT_NE(bad.find("other.csv: no column 'text'"), std::string::npos) << bad;
    EXPECT_EQ(bad.find("Traceback"), std::string::npos) << bad;
}

}  // namespace
}  // namespace bert
