// Issue 29, point 2: a file with one 0/1 column per label and no other label column is guessed
// multi-label, with those columns; a binary 0/1 label column alone, or a label column of
// classes beside 0/1 columns, is not.
#include <fstream>

#include <gtest/gtest.h>

#include "support/TestSupport.h"
#include "task/TaskGuess.h"

namespace bert {
namespace {

DataSpec specOf(const std::filesystem::path& file, const std::string& label) {
    DataSpec spec;
    spec.trainFile = file;
    spec.columns.text = "text";
    spec.columns.label = label;
    return spec;
}

std::filesystem::path writeFile(const test::TempDir& dir, const std::string& name,
                                const std::string& text) {
    const auto file = dir / name;
    std::ofstream(file) << text;
    return file;
}

TEST(TaskGuess, SeveralZeroOneColumnsWithoutALabelColumnAreMultiLabelFromThem) {
    test::TempDir dir;
    const auto file = writeFile(dir, "comments.csv",
                                "id,text,toxic,insult,threat\n"
                                "7,you idiot,1,1,0\n"
                                "8,thanks,0,0,0\n"
                                "9,i will find you,1,0,1\n"
                                "10,nice,0,0,0\n");
    // No column named "label".
    const auto guess = guessTask(specOf(file, "label"));
    EXPECT_EQ(guess.kind, TaskKind::MultiLabel);
    EXPECT_EQ(guess.reason, "one 0/1 column per label");
    EXPECT_EQ(guess.labelColumns, (std::vector<std::string>{"toxic", "insult", "threat"}));
    // The label column chosen is one of them (the studio's guess of a repeating column).
    EXPECT_EQ(guessTask(specOf(file, "threat")).labelColumns,
              (std::vector<std::string>{"toxic", "insult", "threat"}));
}

TEST(TaskGuess, BooleansAndDecimalsAreZeroOneButEmptyCellsAndOtherNumbersAreNot) {
    test::TempDir dir;
    const auto file = writeFile(dir, "flags.csv",
                                "text,a,b,c,d,e\n"
                                "one,true,1.0,0,2,0\n"
                                "two,False,0.0,1,0,\n"
                                "three,TRUE,1,0,1,1\n");
    Table table = readTable(file);
    ColumnSpec columns;
    columns.text = "text";
    EXPECT_EQ(indicatorColumns(table, columns), (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(guessTask(specOf(file, "label")).kind, TaskKind::MultiLabel);
}

TEST(TaskGuess, ABinaryLabelColumnOrAColumnOfClassesStaysSingleLabel) {
    test::TempDir dir;
    // One 0/1 column: binary classification.
    const auto binary = writeFile(dir, "binary.csv",
                                  "text,label\n"
                                  "good,1\n"
                                  "bad,0\n"
                                  "fine,1\n");
    auto guess = guessTask(specOf(binary, "label"));
    EXPECT_EQ(guess.kind, TaskKind::SingleLabel);
    EXPECT_TRUE(guess.labelColumns.empty());
    // A label column of classes beside 0/1 columns: the label column holds the labels.
    const auto classes = writeFile(dir, "classes.csv",
                                   "text,label,urgent,internal\n"
                                   "good,praise,1,0\n"
                                   "bad,complaint,0,1\n"
                                   "fine,praise,1,1\n");
    guess = guessTask(specOf(classes, "label"));
    EXPECT_EQ(guess.kind, TaskKind::SingleLabel);
    EXPECT_TRUE(guess.labelColumns.empty());
    // The label columns given (--label-columns) are the guess's.
    auto spec = specOf(classes, "label");
    spec.task.labelColumns = {"urgent", "internal"};
    guess = guessTask(spec);
    EXPECT_EQ(guess.kind, TaskKind::MultiLabel);
    EXPECT_EQ(guess.labelColumns, spec.task.labelColumns);
}

TEST(TaskGuess, TheTextColumnsAreNeverLabelColumns) {
    test::TempDir dir;
    // Texts that happen to be 0/1 are still the texts.
    const auto file = writeFile(dir, "odd.csv",
                                "text,pair,a\n"
                                "1,0,1\n"
                                "0,1,0\n");
    Table table = readTable(file);
    ColumnSpec columns;
    columns.text = "text";
    columns.textPair = "pair";
    EXPECT_EQ(indicatorColumns(table, columns), (std::vector<std::string>{"a"}));
}

}  // namespace
}  // namespace bert
