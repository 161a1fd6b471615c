// Texts longer than the max length (--long-text): truncation as the tokenizer truncates, head+tail
// as Sun et al. describe it, windows as transformers' overflowing tokens (the parity test
// compares them with transformers on every tokenizer layout: TokenizerJsonParity), and a run's
// data cut into windows that keep their documents' labels. Bad settings name the setting.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Error.h"
#include "data/LongText.h"
#include "support/TestSupport.h"
#include "task/TrainingData.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "train/TrainingConfig.h"
#include "train/TrainingOptions.h"

namespace bert {
namespace {

template <typename Fn>
std::string inputErrorOf(Fn&& fn) {
    try {
        fn();
    } catch (const InputError& error) {
        return error.what();
    }
    return "no error";
}

/// A vocabulary of the numbers 0..199 as words: the text "0 1 2 ... n-1" is n tokens whose ids
/// say their position (id = 5 + position).
WordPieceTokenizer numberTokenizer() {
    std::vector<std::string> vocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    for (int i = 0; i < 200; ++i) {
        vocabulary.push_back(std::to_string(i));
    }
    return WordPieceTokenizer(vocabulary, {});
}

std::string numbers(int count) {
    std::string text;
    for (int i = 0; i < count; ++i) {
        text += (i ? " " : "") + std::to_string(i);
    }
    return text;
}

/// The positions (0-based) of a window's text tokens.
std::vector<int> positions(const Encoding& window) {
    std::vector<int> out;
    for (std::size_t i = 1; i + 1 < window.size(); ++i) {
        out.push_back(window.inputIds[i] - 5);
    }
    return out;
}

std::vector<int> range(int from, int to) {
    std::vector<int> out;
    for (int i = from; i < to; ++i) {
        out.push_back(i);
    }
    return out;
}

TEST(LongText, ExportedFoldersNameTheStrategiesAsTheOptionTableDoes) {
    for (const auto mode :
         {LongTextMode::Truncate, LongTextMode::HeadTail, LongTextMode::Windows}) {
        EXPECT_EQ(longTextModeName(mode), toString(mode));
        EXPECT_EQ(longTextModeNamed(toString(mode)), mode);
    }
    for (const auto pooling : {WindowPooling::Task, WindowPooling::Mean, WindowPooling::Max}) {
        EXPECT_EQ(windowPoolingName(pooling), toString(pooling));
    }
    // The command line and a job file read them from the table.
    TrainingConfig config;
    findTrainingOption("long_text")->setFromText(config, "windows");
    findTrainingOption("window_stride")->setFromText(config, "64");
    EXPECT_TRUE(config.longTextSpec().windows());
    EXPECT_EQ(config.longTextSpec().stride, 64U);
    EXPECT_EQ(TrainingConfig::fromJson(config.toJson()).longTextSpec().stride, 64U);
    EXPECT_NE(config.techniquesSummary().find("windows (stride 64"), std::string::npos);
}

TEST(LongText, TheTemplateIsFoundAroundTheText) {
    const auto tokenizer = numberTokenizer();
    const auto shape = templateShapeOf(tokenizer);
    EXPECT_EQ(shape.before, 1U);  // [CLS]
    EXPECT_EQ(shape.after, 1U);   // [SEP]
}

TEST(LongText, TruncateEqualsTheTokenizersOwnTruncation) {
    const auto tokenizer = numberTokenizer();
    const auto shape = templateShapeOf(tokenizer);
    const auto whole = tokenizer.encode(numbers(50), 0);
    const auto fitted = fitLongText(whole, 16, {}, shape);
    ASSERT_EQ(fitted.size(), 1U);
    EXPECT_EQ(fitted[0].inputIds, tokenizer.encode(numbers(50), 16).inputIds);
    EXPECT_EQ(fitted[0].attentionMask.size(), 16U);
}

TEST(LongText, HeadTailKeepsTheFirstHeadTokensAndTheLastOnes) {
    const auto tokenizer = numberTokenizer();
    const auto shape = templateShapeOf(tokenizer);
    LongTextSpec spec;
    spec.mode = LongTextMode::HeadTail;
    spec.headTokens = 4;
    const auto fitted = fitLongText(tokenizer.encode(numbers(50), 0), 12, spec, shape);
    ASSERT_EQ(fitted.size(), 1U);
    EXPECT_EQ(fitted[0].size(), 12U);
    EXPECT_EQ(fitted[0].inputIds.front(), 2);  // [CLS]
    EXPECT_EQ(fitted[0].inputIds.back(), 3);   // [SEP]
    EXPECT_EQ(positions(fitted[0]), (std::vector<int>{0, 1, 2, 3, 44, 45, 46, 47, 48, 49}));
    // A text that fits is left as it is.
    EXPECT_EQ(fitLongText(tokenizer.encode(numbers(5), 0), 12, spec, shape)[0].size(), 7U);
}

TEST(LongText, WindowsOverlapByTheStrideAndCoverTheWholeText) {
    const auto tokenizer = numberTokenizer();
    const auto shape = templateShapeOf(tokenizer);
    LongTextSpec spec;
    spec.mode = LongTextMode::Windows;
    spec.stride = 3;
    // 10 text tokens per window of 12, a new window every 7 tokens: 0-9, 7-16, 14-23, 21-24.
    const auto windows = fitLongText(tokenizer.encode(numbers(25), 0), 12, spec, shape);
    ASSERT_EQ(windows.size(), 4U);
    EXPECT_EQ(positions(windows[0]), range(0, 10));
    EXPECT_EQ(positions(windows[1]), range(7, 17));
    EXPECT_EQ(positions(windows[2]), range(14, 24));
    EXPECT_EQ(positions(windows[3]), range(21, 25));
    EXPECT_EQ(windowCount(27, 12, spec, shape), 4U);  // the count without cutting
    EXPECT_EQ(windowCount(12, 12, spec, shape), 1U);
    // A window that reaches the end is the last: 17 tokens make 0-9 and 7-16, not a third.
    EXPECT_EQ(fitLongText(tokenizer.encode(numbers(17), 0), 12, spec, shape).size(), 2U);
}

TEST(LongText, AStrideOrHeadThatCannotCutNamesItsSetting) {
    const auto shape = templateShapeOf(numberTokenizer());
    LongTextSpec windows;
    windows.mode = LongTextMode::Windows;
    windows.stride = 10;  // a window of 12 holds 10 text tokens
    EXPECT_NE(
        inputErrorOf([&] { checkLongTextSpec(windows, 12, shape); }).find("--window-stride 10"),
        std::string::npos);
    windows.stride = 9;
    EXPECT_NO_THROW(checkLongTextSpec(windows, 12, shape));
    LongTextSpec headTail;
    headTail.mode = LongTextMode::HeadTail;
    headTail.headTokens = 10;
    EXPECT_NE(
        inputErrorOf([&] { checkLongTextSpec(headTail, 12, shape); }).find("--head-tokens 10"),
        std::string::npos);
}

TEST(LongText, ARunsDataBecomesWindowsThatKeepTheirDocumentsLabels) {
    test::TempDir dir;
    const auto file = dir.path() / "long.csv";
    {
        std::ofstream out(file);
        out << "text,label\n";
        for (int i = 0; i < 20; ++i) {
            out << '"' << numbers(i % 2 ? 30 : 6) << "\"," << (i % 2 ? "long" : "short") << "\n";
        }
    }
    DataSpec spec;
    spec.trainFile = file;
    spec.columns = {"text", "", "label"};
    const auto tokenizer = numberTokenizer();
    LongTextSpec windows;
    windows.mode = LongTextMode::Windows;
    windows.stride = 2;
    const auto data = prepareTrainingData(spec, tokenizer, 12, 0.5, 7, windows);
    // Each long document (32 tokens) makes 4 windows of at most 12, a short one (8) one.
    ASSERT_FALSE(data.validation.documents.empty());
    EXPECT_EQ(data.validationDocuments.size(), 10U);
    std::vector<std::size_t> windowsOf(10, 0);
    for (std::size_t w = 0; w < data.validation.size(); ++w) {
        const auto document = data.validation.documents[w];
        ++windowsOf[document];
        EXPECT_LE(data.validation.encodings[w].size(), 12U);
        EXPECT_EQ(data.validation.lengths[w], data.validation.encodings[w].size());
        EXPECT_EQ(data.validation.labels[w], data.validationDocuments.labels[document]);
        if (w > 0) {
            EXPECT_GE(document, data.validation.documents[w - 1]);  // together, in order
        }
    }
    for (std::size_t d = 0; d < 10; ++d) {
        const bool isLong = data.labels.names[data.validationDocuments.labels[d]] == "long";
        EXPECT_EQ(windowsOf[d], isLong ? 4U : 1U) << "document " << d;
    }
    EXPECT_EQ(data.train.size(), 25U);  // 5 long x 4 + 5 short
    ASSERT_FALSE(data.readingNotes().empty());
    EXPECT_NE(data.readingNotes().back().find("50% of 20 documents exceed 12 tokens"),
              std::string::npos)
        << data.readingNotes().back();
    EXPECT_NE(data.readingNotes().back().find("2.50 windows per document"), std::string::npos);

    // Truncation, the default, says how many texts it cut and what else would read them: the
    // 10 long documents (32 tokens) fill the max length of 12, the short ones (8) do not.
    const auto truncated = prepareTrainingData(spec, tokenizer, 12, 0.5, 7);
    ASSERT_FALSE(truncated.readingNotes().empty());
    EXPECT_EQ(truncated.readingNotes().back(),
              "10 of 20 texts (50%) fill the max length of 12 tokens and lost their ends (long "
              "texts: truncate); head+tail keeps a text's end at the same cost, windows read "
              "whole texts (--long-text head-tail, --long-text windows)");
    // Nothing cut, nothing said.
    EXPECT_TRUE(prepareTrainingData(spec, tokenizer, 40, 0.5, 7).readingNotes().empty());

    // Pairs and token classification say why they keep truncating, naming the setting.
    spec.columns.textPair = "label";
    EXPECT_NE(inputErrorOf([&] {
                  prepareTrainingData(spec, tokenizer, 12, 0.5, 7, windows);
              }).find("--long-text windows"),
              std::string::npos);
    EXPECT_NE(prepareTrainingData(spec, tokenizer, 12, 0.5, 7)
                  .readingNotes()
                  .back()
                  .find("fill the max length of 12 tokens and were cut longest first"),
              std::string::npos);
}

}  // namespace
}  // namespace bert
