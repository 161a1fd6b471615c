// Issue 29, point 2: multi-label targets from a separated column or from 0/1 columns, the label
// map and the multi-hot rows the binary cross-entropy is computed against.
#include <gtest/gtest.h>

#include "Error.h"
#include "task/multilabel/LabelSets.h"

namespace bert {
namespace {

Table tableOf(const std::string& csv) {
    return parseTable(csv, TableFormat::Csv, "labels.csv");
}

TEST(LabelSets, TheSeparatorFoundInMostCellsIsGuessed) {
    EXPECT_EQ(guessLabelSeparator({"a;b", "c", "a;c"}), ';');
    EXPECT_EQ(guessLabelSeparator({"a|b", "c", "b|c", "x;y"}), '|');
    // Equally often: the semicolon, the first of the preferred.
    EXPECT_EQ(guessLabelSeparator({"a|b", "x;y"}), ';');
    EXPECT_EQ(guessLabelSeparator({"a", "b", ""}), std::nullopt);
}

TEST(LabelSets, ACommaIsNeverGuessed) {
    // Label names with commas in a single-label column must not become two labels each.
    EXPECT_EQ(guessLabelSeparator({"Washington, D.C.", "Paris", "Sales, EMEA"}), std::nullopt);
    // Given explicitly, it splits.
    EXPECT_EQ(splitLabels("news, sport", ','), (LabelSet{"news", "sport"}));
}

TEST(LabelSets, TheGuessReadsATableColumn) {
    const auto table = tableOf("text,tags\nx,a|b\ny,c\nz\n");
    EXPECT_EQ(guessLabelSeparator(table, 1), '|');
}

// A separator inside a quoted name split it: "a;b";c gave the labels "a, b" and c.
TEST(LabelSets, AQuotedNameKeepsItsSeparator) {
    EXPECT_EQ(splitLabels("\"a;b\";c", ';'), (LabelSet{"a;b", "c"}));
    EXPECT_EQ(splitLabels(" c , \"Washington, D.C.\" ", ','), (LabelSet{"c", "Washington, D.C."}));
    EXPECT_EQ(splitLabels("\"say \"\"hi\"\"\";x", ';'), (LabelSet{"say \"hi\"", "x"}));
    // A quote never closed, or followed by more text, is part of the name.
    EXPECT_EQ(splitLabels("\"open;x", ';'), (LabelSet{"\"open", "x"}));
    EXPECT_EQ(splitLabels("\"a\"b;x", ';'), (LabelSet{"\"a\"b", "x"}));
    // Empty names, quoted or not, are dropped.
    EXPECT_EQ(splitLabels("\"\";;x;", ';'), (LabelSet{"x"}));
    // Through the file, as training reads it: the CSV's own quoting, then the label's.
    const auto table = tableOf("text,tags\nx,\"\"\"a;b\"\";c\"\n");
    EXPECT_EQ(labelSetsFromColumn(table, "tags", ';', "t.csv"),
              (std::vector<LabelSet>{{"a;b", "c"}}));
}

TEST(LabelSets, CellsAreSplitTrimmedAndEmptyNamesDropped) {
    EXPECT_EQ(splitLabels(" a ; b;;c; ", ';'), (LabelSet{"a", "b", "c"}));
    EXPECT_EQ(splitLabels("", ';'), LabelSet{});
    EXPECT_EQ(splitLabels(" ; ;", ';'), LabelSet{});
    EXPECT_EQ(splitLabels("single", ';'), LabelSet{"single"});
    // No-break and ideographic spaces around Chinese names.
    EXPECT_EQ(splitLabels("\xE3\x80\x80体育\xC2\xA0|财经", '|'), (LabelSet{"体育", "财经"}));
    // Spaces inside a name stay.
    EXPECT_EQ(splitLabels("machine learning;nlp", ';'), (LabelSet{"machine learning", "nlp"}));
}

TEST(LabelSets, ANameGivenTwiceInACellIsMerged) {
    EXPECT_EQ(splitLabels("spam;ham;spam; ham", ';'), (LabelSet{"spam", "ham"}));
}

TEST(LabelSets, ASeparatedColumnGivesEachRowsSet) {
    const auto table = tableOf("text,labels\nx,\"a;b\"\ny,\nz,b\n");
    const auto sets = labelSetsFromColumn(table, "labels", ';', "labels.csv");
    ASSERT_EQ(sets.size(), 3U);
    EXPECT_EQ(sets[0], (LabelSet{"a", "b"}));
    EXPECT_TRUE(sets[1].empty());
    EXPECT_EQ(sets[2], LabelSet{"b"});
    try {
        labelSetsFromColumn(table, "tags", ';', "labels.csv");
        FAIL() << "a missing column was accepted";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), "labels.csv");
        EXPECT_NE(std::string(error.what()).find("\"tags\""), std::string::npos);
        EXPECT_NE(std::string(error.what()).find("text, labels"), std::string::npos);
    }
}

TEST(LabelSets, IndicatorColumnsGiveTheLabelsWhoseCellIsOne) {
    const auto table = tableOf(
        "text,sport,politics,tech\n"
        "a,1,0,0\n"
        "b,0,0,0\n"
        "c,true,False,TRUE\n"
        "d, 1.0 ,0.0,1\n");
    const auto sets =
        labelSetsFromIndicatorColumns(table, {"sport", "politics", "tech"}, "labels.csv");
    ASSERT_EQ(sets.size(), 4U);
    EXPECT_EQ(sets[0], LabelSet{"sport"});
    EXPECT_TRUE(sets[1].empty());
    EXPECT_EQ(sets[2], (LabelSet{"sport", "tech"}));
    EXPECT_EQ(sets[3], (LabelSet{"sport", "tech"}));
}

TEST(LabelSets, JsonlBooleansAreIndicators) {
    const auto table = parseTable(
        "{\"text\": \"a\", \"urgent\": true, \"spam\": false}\n"
        "{\"text\": \"b\", \"urgent\": false, \"spam\": true}\n",
        TableFormat::Jsonl, "labels.jsonl");
    const auto sets = labelSetsFromIndicatorColumns(table, {"urgent", "spam"}, "labels.jsonl");
    EXPECT_EQ(sets[0], LabelSet{"urgent"});
    EXPECT_EQ(sets[1], LabelSet{"spam"});
}

void expectIndicatorError(const std::string& csv, const std::string& line,
                          const std::string& what) {
    const auto table = tableOf(csv);
    try {
        labelSetsFromIndicatorColumns(table, {"sport", "tech"}, "labels.csv");
        FAIL() << "accepted: " << csv;
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_EQ(error.file(), "labels.csv");
        EXPECT_NE(message.find("line " + line + ", column \"tech\""), std::string::npos) << message;
        EXPECT_NE(message.find(what), std::string::npos) << message;
    }
}

TEST(LabelSets, AnIndicatorCellThatIsNotZeroOrOneNamesFileLineAndColumn) {
    expectIndicatorError("text,sport,tech\na,1,0\nb,0,2\n", "3", "\"2\" is not 0 or 1");
    expectIndicatorError("text,sport,tech\na,1,yes\n", "2", "\"yes\" is not 0 or 1");
    // A missing value is not "absent".
    expectIndicatorError("text,sport,tech\na,1,0\nb,1,\n", "3", "the cell is empty");
    // A quoted cell spanning lines: the row's first line is named.
    expectIndicatorError("text,sport,tech\n\"two\nlines\",1,0.5\n", "2", "\"0.5\"");
}

TEST(LabelSets, IndicatorColumnsMustExistOnceEach) {
    const auto table = tableOf("text,sport\na,1\n");
    EXPECT_THROW(labelSetsFromIndicatorColumns(table, {}, "labels.csv"), InputError);
    EXPECT_THROW(labelSetsFromIndicatorColumns(table, {"sport", "sport"}, "labels.csv"),
                 InputError);
    EXPECT_THROW(labelSetsFromIndicatorColumns(table, {"sport", "tech"}, "labels.csv"), InputError);
}

TEST(LabelSets, TheMapIsSortedByCodePointWhateverTheRowOrder) {
    const auto map = MultiLabelMap::fromLabelSets({{"zeta", "alpha"}, {}, {"Beta", "体育"}});
    EXPECT_EQ(map.names(), (std::vector<std::string>{"Beta", "alpha", "zeta", "体育"}));
    const auto reversed = MultiLabelMap::fromLabelSets({{"体育", "Beta"}, {"alpha", "zeta"}});
    EXPECT_EQ(map.names(), reversed.names());
    EXPECT_EQ(map.indexOf("zeta"), 2U);
    EXPECT_EQ(map.indexOf("gamma"), std::nullopt);
}

TEST(LabelSets, MultiHotRowsFollowTheMap) {
    const MultiLabelMap map({"c", "a", "b", "a"});
    ASSERT_EQ(map.size(), 3U);
    EXPECT_EQ(map.multiHot({"c", "a"}), (std::vector<std::uint8_t>{1, 0, 1}));
    EXPECT_EQ(map.multiHot({}), (std::vector<std::uint8_t>{0, 0, 0}));
    EXPECT_EQ(map.labelsOf({0, 1, 1}), (LabelSet{"b", "c"}));
    try {
        map.multiHot({"a", "d"});
        FAIL() << "an unknown label was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("\"d\""), std::string::npos);
    }
}

TEST(LabelSets, ATaskWithNoLabelAtAllIsRefused) {
    try {
        MultiLabelMap::fromLabelSets({{}, {}}, "labels.csv");
        FAIL() << "an empty label map was made";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), "labels.csv");
    }
    EXPECT_THROW(MultiLabelMap({"a", " "}), InputError);
}

TEST(LabelSets, CoOccurrenceCountsPairsAndTheDiagonalCountsLabels) {
    const MultiLabelMap map({"a", "b", "c"});
    const auto counts = labelCoOccurrence(map, {{"a", "b"}, {"a"}, {"b", "a", "c"}, {}, {"x"}});
    const std::vector<std::vector<std::int64_t>> expected = {{3, 2, 1}, {2, 2, 1}, {1, 1, 1}};
    EXPECT_EQ(counts, expected);
}

}  // namespace
}  // namespace bert
