#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

#include "Error.h"
#include "support/TestSupport.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {
namespace {

std::vector<std::string> smallVocabulary() {
    return {"[PAD]", "[UNK]", "[CLS]", "[SEP]",  "[MASK]", "hello", "world", ",",
            "!",     "un",    "##aff", "##able", "cafe",   "café",  "中",    "文",
            "a",     "##a",   "b",     "##b",    "Hello",  "."};
}

WordPieceTokenizer uncased() {
    return WordPieceTokenizer(smallVocabulary(), {});
}

WordPieceTokenizer cased() {
    TokenizerOptions options;
    options.lowercase = false;
    return WordPieceTokenizer(smallVocabulary(), options);
}

TEST(Tokenizer, LowercasesStripsAccentsAndSplitsPunctuation) {
    const auto tok = uncased();
    EXPECT_EQ(tok.tokenize("Hello, WORLD!"),
              (std::vector<std::string>{"hello", ",", "world", "!"}));
    EXPECT_EQ(tok.tokenize("Café"), (std::vector<std::string>{"cafe"}));
}

TEST(Tokenizer, CasedKeepsCaseAndAccents) {
    const auto tok = cased();
    EXPECT_EQ(tok.tokenize("Hello café"), (std::vector<std::string>{"Hello", "café"}));
    EXPECT_EQ(tok.tokenize("HELLO"), (std::vector<std::string>{"[UNK]"}));
}

TEST(Tokenizer, GreedyLongestMatchWithContinuations) {
    const auto tok = uncased();
    EXPECT_EQ(tok.tokenize("unaffable"), (std::vector<std::string>{"un", "##aff", "##able"}));
    // One uncoverable piece makes the whole word [UNK], not a partial split.
    EXPECT_EQ(tok.tokenize("unaffablez"), (std::vector<std::string>{"[UNK]"}));
}

TEST(Tokenizer, WordsOverOneHundredCharactersBecomeUnknown) {
    const auto tok = uncased();
    const std::string hundred(100, 'a');
    EXPECT_EQ(tok.tokenizeToIds(hundred).size(), 100U);  // a ##a ##a ...
    EXPECT_EQ(tok.tokenize(hundred + "a"), (std::vector<std::string>{"[UNK]"}));
}

TEST(Tokenizer, ChineseCharactersAreSplitEachAlone) {
    EXPECT_EQ(uncased().tokenize("中文a"), (std::vector<std::string>{"中", "文", "a"}));
}

TEST(Tokenizer, ControlCharactersDroppedAndWhitespaceNormalised) {
    const auto tok = uncased();
    EXPECT_EQ(tok.tokenize("hel\x01lo\u200b\tworld\xEF\xBF\xBD"),
              (std::vector<std::string>{"hello", "world"}));
    EXPECT_TRUE(tok.tokenize("").empty());
    EXPECT_TRUE(tok.tokenize(" \t\r\n ").empty());
}

TEST(Tokenizer, InvalidUtf8IsReplacedAndDropped) {
    // A lone continuation byte and a truncated sequence decode to U+FFFD, which clean_text drops.
    EXPECT_EQ(uncased().tokenize("hello\x80 wor\xC3"),
              (std::vector<std::string>{"hello", "[UNK]"}));
}

TEST(Tokenizer, SpecialTokensInRawTextAreKept) {
    const auto tok = uncased();
    EXPECT_EQ(tok.tokenize("hello[SEP]world [MASK]"),
              (std::vector<std::string>{"hello", "[SEP]", "world", "[MASK]"}));
    // Case matters: "[sep]" is ordinary text, split at the brackets.
    EXPECT_EQ(tok.tokenize("[sep]").front(), "[UNK]");
}

TEST(Tokenizer, EncodeAddsSpecialTokensAndTruncates) {
    const auto tok = uncased();
    const auto full = tok.encode("hello world hello world");
    EXPECT_EQ(full.inputIds, (std::vector<std::int32_t>{2, 5, 6, 5, 6, 3}));
    EXPECT_EQ(full.attentionMask, std::vector<std::int32_t>(6, 1));
    const auto cut = tok.encode("hello world hello world", 4);
    EXPECT_EQ(cut.inputIds, (std::vector<std::int32_t>{2, 5, 6, 3}));
}

// Guards the early stop of truncated encoding: tokenising goes in chunks cut at ASCII
// whitespace and stops past the limit, so the ids kept must be exactly the full text's first
// ones, whatever sits at the chunk edges (accents, CJK, control characters, special tokens,
// long words, tabs and newlines, invalid UTF-8).
TEST(Tokenizer, ALimitKeepsTheFullTokenisationsFirstIds) {
    const auto tok = uncased();
    const std::vector<std::string> pieces = {
        "hello",       "world,",       "Café", "中文",   "unaffable",
        "[SEP]",       "\t",           "\r\n", "a\x01b", std::string(130, 'a'),
        "\xC3",        "caf\xC3\xA9!", "  ",   "b.a",    "[MASK]world",
        "\xE2\x80\x8B"};
    std::uint32_t state = 12345;  // a fixed linear congruential sequence: the same texts each run
    auto next = [&state] {
        state = state * 1664525U + 1013904223U;
        return state >> 8;
    };
    for (int sample = 0; sample < 40; ++sample) {
        std::string text;
        const std::size_t words = 50 + next() % 900;
        for (std::size_t w = 0; w < words; ++w) {
            text += pieces[next() % pieces.size()];
            text += next() % 3 == 0 ? "" : " ";
        }
        const auto full = tok.tokenizeToIds(text);
        for (const std::size_t limit :
             {0UL, 1UL, 7UL, 126UL, 510UL, full.size(), full.size() + 5}) {
            auto limited = tok.tokenizeToIds(text, limit);
            ASSERT_GE(limited.size(), std::min(limit, full.size())) << "sample " << sample;
            ASSERT_LE(limited.size(), full.size());
            ASSERT_TRUE(std::equal(limited.begin(), limited.end(), full.begin()))
                << "sample " << sample << ", limit " << limit;
            const auto encoded = tok.encode(text, limit + 2);
            ASSERT_EQ(encoded.inputIds.size(), std::min(limit, full.size()) + 2);
        }
    }
}

TEST(Tokenizer, PairsTruncateLongestFirst) {
    const auto tok = uncased();
    // 6 + 2 tokens into a budget of 10 - 3 = 7: only the longer first text loses one.
    const auto pair = tok.encodePair("a b a b a b", "hello world", 10);
    EXPECT_EQ(pair.inputIds, (std::vector<std::int32_t>{2, 16, 18, 16, 18, 16, 3, 5, 6, 3}));
    EXPECT_EQ(pair.tokenTypeIds, (std::vector<std::int32_t>{0, 0, 0, 0, 0, 0, 0, 1, 1, 1}));
    // Both long: the budget of 7 is split 4 (longer side gets the odd token) and 3.
    const auto both = tok.encodePair("a b a b a b", "b a b a b a b", 10);
    EXPECT_EQ(both.inputIds, (std::vector<std::int32_t>{2, 16, 18, 16, 3, 18, 16, 18, 16, 3}));
}

TEST(Tokenizer, MissingVocabularyFileIsNamed) {
    test::TempDir dir;
    try {
        WordPieceTokenizer::fromModelFolder(dir.path());
        FAIL() << "expected InputError";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), dir / "vocab.txt");
        EXPECT_NE(std::string(error.what()).find("is missing"), std::string::npos) << error.what();
    }
}

TEST(Tokenizer, VocabularyWithoutSpecialTokensIsRejected) {
    test::TempDir dir;
    test::writeFile(dir / "vocab.txt", "[PAD]\nhello\nworld\n");
    try {
        WordPieceTokenizer::fromVocabFile(dir / "vocab.txt");
        FAIL() << "expected InputError";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("vocab.txt"), std::string::npos) << message;
        EXPECT_NE(message.find("[UNK], [CLS], [SEP]"), std::string::npos) << message;
    }
}

// A vocab.txt saved with a byte-order mark said "lacks the special token(s) [PAD]".
TEST(Tokenizer, AVocabularyWithAByteOrderMarkReadsItsFirstToken) {
    test::TempDir dir;
    test::writeFile(dir / "vocab.txt", "\xEF\xBB\xBF[PAD]\r\n[UNK]\r\n[CLS]\r\n[SEP]\r\nhello\r\n");
    const auto tok = WordPieceTokenizer::fromVocabFile(dir / "vocab.txt");
    EXPECT_EQ(tok.tokenString(0), "[PAD]");
    EXPECT_EQ(tok.encode("hello").inputIds, (std::vector<std::int32_t>{2, 4, 3}));
}

TEST(Tokenizer, ReadsTokenizerJsonWhenVocabTxtIsAbsent) {
    test::TempDir dir;
    test::writeFile(dir / "tokenizer.json", R"({
      "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                     "strip_accents": null, "lowercase": false},
      "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                "max_input_chars_per_word": 100,
                "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "Hi": 4, "##ya": 5}}})");
    const auto tok = WordPieceTokenizer::fromModelFolder(dir.path());
    EXPECT_FALSE(tok.options().lowercase);
    EXPECT_EQ(tok.encode("Hiya hi").inputIds, (std::vector<std::int32_t>{2, 4, 5, 1, 3}));
}

TEST(Tokenizer, SaveWritesWhatFromModelFolderReads) {
    test::TempDir dir;
    const auto original = cased();
    original.save(dir.path(), 128);
    const auto reloaded = WordPieceTokenizer::fromModelFolder(dir.path());
    EXPECT_EQ(reloaded.vocabulary(), original.vocabulary());
    EXPECT_FALSE(reloaded.options().lowercase);
    EXPECT_EQ(reloaded.tokenize("Hello café"), original.tokenize("Hello café"));
}

}  // namespace
}  // namespace bert
