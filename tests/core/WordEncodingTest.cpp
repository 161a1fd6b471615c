// Pre-split words for token classification (Tokenizer::encodeWords, alignLabels): word ids,
// truncation counted in words, and transformers' label recipe. Parity with transformers on
// every tokenizer layout is in tests/parity/WordSplitParityTest.cpp.
#include <gtest/gtest.h>

#include "tokenizer/WordEncoding.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {
namespace {

using Ids = std::vector<std::int32_t>;

WordPieceTokenizer tokenizer() {
    return WordPieceTokenizer({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", ",",
                               "un", "##aff", "##able", "中", "文"},
                              {});
}

TEST(WordEncoding, EachWordIsTokenizedAloneWithItsWordId) {
    const auto encoded = tokenizer().encodeWords({"Hello", "unaffable", "", "world,", "中文"});
    // [CLS] hello un ##aff ##able world , 中 文 [SEP]
    EXPECT_EQ(encoded.encoding.inputIds, (Ids{2, 5, 8, 9, 10, 6, 7, 11, 12, 3}));
    EXPECT_EQ(encoded.wordIds, (Ids{-1, 0, 1, 1, 1, 3, 3, 4, 4, -1}));
    EXPECT_EQ(encoded.encoding.tokenTypeIds, Ids(10, 0));
    EXPECT_EQ(encoded.encoding.attentionMask, Ids(10, 1));
    EXPECT_EQ(encoded.wordsCut, 0U);
    EXPECT_EQ(encoded.wordsWithoutTokens, 1U);  // the empty word
}

TEST(WordEncoding, TruncationKeepsTheFirstTokensAndCountsTheWordsCut) {
    const std::vector<std::string> words = {"hello", "unaffable", "world", "hello"};
    // max length 5: three tokens fit between [CLS] and [SEP]: hello un ##aff.
    const auto encoded = tokenizer().encodeWords(words, 5);
    EXPECT_EQ(encoded.encoding.inputIds, (Ids{2, 5, 8, 9, 3}));
    EXPECT_EQ(encoded.wordIds, (Ids{-1, 0, 1, 1, -1}));
    EXPECT_EQ(encoded.wordsCut, 2U);  // "unaffable" keeps its first sub-word, so its tag
    // Exactly full: the words after it are cut.
    EXPECT_EQ(tokenizer().encodeWords(words, 3).wordsCut, 3U);
    EXPECT_EQ(tokenizer().encodeWords(words, 2).wordsCut, 4U);
    EXPECT_EQ(tokenizer().encodeWords(words, 2).encoding.inputIds, (Ids{2, 3}));
}

TEST(WordEncoding, OnlyTheFirstSubWordOfEachWordCarriesItsLabel) {
    const Ids wordIds = {-1, 0, 1, 1, 1, 3, 3, 4, -1};
    EXPECT_EQ(alignLabels(wordIds, {1, 2, 0, 3, 4}),
              (std::vector<std::int64_t>{-100, 1, 2, -100, -100, 3, -100, 4, -100}));
    EXPECT_THROW(alignLabels({-1, 5}, {0, 1}), std::out_of_range);
}

TEST(WordEncoding, EachWordIsPredictedByItsFirstSubWord) {
    // Words 0..4; word 2 gave no token and word 4 was cut by max length.
    const Ids wordIds = {-1, 0, 1, 1, 1, 3, 3, -1};
    EXPECT_EQ(wordPredictions(wordIds, {9, 1, 2, 7, 7, 3, 8, 9}, 5),
              (std::vector<std::int64_t>{1, 2, -100, 3, -100}));
    EXPECT_THROW(wordPredictions(wordIds, {1, 2}, 5), std::invalid_argument);
}

}  // namespace
}  // namespace bert
