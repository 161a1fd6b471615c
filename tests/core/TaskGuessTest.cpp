// Issue 29, point 2: a file with one 0/1 column per label and no other label column is guessed
// multi-label, with those columns; a binary 0/1 label column alone, or a label column of
// classes beside 0/1 columns, is not.
#include <fstream>

#include <gtest/gtest.h>

#include "data/TaggedReader.h"
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

// A newcomer's reg_bad.csv: a regression target with "abc" on one row of 99 was guessed
// single-label, and the studio then asked for a label column instead of naming the bad cell.
TEST(TaskGuess, ATargetColumnWithOneTypoIsStillRegression) {
    test::TempDir dir;
    std::string text = "text,log_body_length\n";
    for (int i = 0; i < 99; ++i) {
        text += "mail " + std::to_string(i) + "," +
                (i == 49 ? std::string("abc") : std::to_string(4.8 + 0.025 * i)) + "\n";
    }
    const auto file = writeFile(dir, "reg_bad.csv", text);
    EXPECT_EQ(guessTask(specOf(file, "log_body_length")).kind, TaskKind::Regression);

    // Two typos in 99 rows are more than a few: not a numeric column.
    std::string two = "text,target\n";
    for (int i = 0; i < 99; ++i) {
        two += "mail," + (i % 50 == 7 ? std::string("abc") : std::to_string(0.5 + i)) + "\n";
    }
    EXPECT_EQ(guessTask(specOf(writeFile(dir, "two.csv", two), "target")).kind,
              TaskKind::SingleLabel);
}

TEST(TaskGuess, MostlyNumbersAllowsOneNonNumberInAHundredAndNoneInAFewCells) {
    EXPECT_TRUE(mostlyNumbers(5, 5));
    EXPECT_FALSE(mostlyNumbers(4, 5));  // too few cells to tell a typo from a class
    EXPECT_TRUE(mostlyNumbers(9, 10));
    EXPECT_FALSE(mostlyNumbers(98, 100));
    EXPECT_TRUE(mostlyNumbers(998, 1000));
    EXPECT_FALSE(mostlyNumbers(989, 1000));
    EXPECT_FALSE(mostlyNumbers(0, 0));
}

}  // namespace
}  // namespace bert

namespace bert {
namespace {

// A regression target with a few NaN and infinities was guessed single-label with 158 classes,
// "-Infinity" among them, with no word: it is a number column (training then refuses those
// rows, naming the line).
TEST(TaskGuess, ANumberColumnWithAFewNaNsIsStillRegression) {
    test::TempDir dir;
    std::string csv = "text,score\n";
    for (int i = 0; i < 150; ++i) {
        csv += "text " + std::to_string(i) + "," + std::to_string(i * 0.37) + "\n";
    }
    csv += "a,nan\nb,inf\nc,-Infinity\nd,NaN\ne,-inf\nf,nan\ng,Infinity\nh,nan\n";
    const auto guess = guessTask(specOf(writeFile(dir, "scores.csv", csv), "score"));
    EXPECT_EQ(guess.kind, TaskKind::Regression);
}

// A CoNLL file named .txt (CoNLL-2003's own name) or .tsv was not recognised: guessed
// single-label from a table it is not. Its lines say what it is; a table of texts does not.
TEST(TaskGuess, ACoNLLFileNamedTxtOrTsvIsKnownByItsLines) {
    test::TempDir dir;
    const std::string conll =
        "-DOCSTART- -X- -X- O\n\n"
        "EU NNP B-NP B-ORG\nrejects VBZ B-VP O\nGerman JJ B-NP B-MISC\ncall NN I-NP O\n. . O O\n\n"
        "Peter\tB-PER\nBlackburn\tI-PER\n\n";
    for (const auto* name : {"train.txt", "train.tsv"}) {
        const auto guess = guessTask(specOf(writeFile(dir, name, conll), "label"));
        EXPECT_EQ(guess.kind, TaskKind::TokenClassification) << name;
        EXPECT_EQ(guess.reason, "a CoNLL file of tagged words") << name;
        EXPECT_EQ(readTaggedFile(dir / name).sentences.size(), 2U) << name;
    }
    // A TSV of texts and labels, a label of "O" or not, stays a table.
    const auto table = writeFile(dir, "texts.tsv",
                                 "text\tlabel\ngood film\tpos\nbad film\tneg\nfine\tO\nok\tB-x\n");
    EXPECT_NE(guessTask(specOf(table, "label")).kind, TaskKind::TokenClassification);
}

}  // namespace
}  // namespace bert
