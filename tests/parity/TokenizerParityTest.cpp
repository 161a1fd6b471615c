// Token ids of our WordPiece tokenizer against transformers' BertTokenizerFast (the reference),
// on every row of ../shared/data/spamassassin-part1.csv, on tests/parity/tricky_strings.json,
// with the uncased MiniLM vocabulary and a cased vocabulary trained by `tokenizers` on the
// corpus; and the normalised form of every Unicode code point.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <iostream>

#include "DefaultModel.h"
#include "support/TestSupport.h"
#include "text/Utf8.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {
namespace {

class TokenizerParity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::referenceUnavailable().empty()) {
            return;
        }
        dir_ = new test::TempDir();
        std::vector<std::string> args = {"tokenizer", dir_->path().string()};
        corpus_ = test::sharedDataFile("spamassassin-part1.csv");
        if (!corpus_.empty()) {
            args.insert(args.end(), {"--corpus", corpus_.string()});
        }
        const auto log = dir_->path() / "reference.log";
        if (test::runReference(args, log) != 0) {
            failure_ = "reference.py tokenizer failed:\n" + test::readFile(log);
            return;
        }
        reference_ = new nlohmann::json(
            nlohmann::json::parse(test::readFile(dir_->path() / "tokenizer.json")));
    }
    static void TearDownTestSuite() {
        delete reference_;
        delete dir_;
        reference_ = nullptr;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
            GTEST_SKIP() << reason;
        }
        ASSERT_TRUE(failure_.empty()) << failure_;
        ASSERT_NE(reference_, nullptr);
    }

    static WordPieceTokenizer uncased() { return WordPieceTokenizer::fromModelFolder(defaultModelFolder()); }
    static WordPieceTokenizer cased() {
        TokenizerOptions options;
        options.lowercase = false;
        return WordPieceTokenizer::fromVocabFile(dir_->path() / "cased" / "vocab.txt", options);
    }

    // Counts texts whose ids differ; prints the first few differences.
    static std::size_t mismatches(const WordPieceTokenizer& tok, const nlohmann::json& texts,
                                  const nlohmann::json& expected, const std::string& what) {
        std::size_t count = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const auto ids = tok.encode(texts[i].get<std::string>()).inputIds;
            const auto want = expected[i].get<std::vector<std::int32_t>>();
            if (ids != want) {
                if (++count <= 3) {
                    std::cout << what << " row " << i << " differs: " << texts[i].dump().substr(0, 200)
                              << "\n  ours:   " << nlohmann::json(ids).dump().substr(0, 300)
                              << "\n  theirs: " << nlohmann::json(want).dump().substr(0, 300) << "\n";
                }
            }
        }
        return count;
    }

    static inline test::TempDir* dir_ = nullptr;
    static inline nlohmann::json* reference_ = nullptr;
    static inline std::filesystem::path corpus_;
    static inline std::string failure_;
};

TEST_F(TokenizerParity, UncasedCorpusIdsEqualTransformers) {
    if (corpus_.empty()) {
        GTEST_SKIP() << "../shared/data/spamassassin-part1.csv is absent";
    }
    const auto& corpus = (*reference_)["corpus"];
    ASSERT_EQ(corpus.size(), 3000U);
    const auto count = mismatches(uncased(), corpus, (*reference_)["uncased"]["corpus"], "uncased");
    std::cout << "uncased tokenizer mismatches on the corpus: " << count << " of " << corpus.size() << "\n";
    EXPECT_EQ(count, 0U);
}

TEST_F(TokenizerParity, CasedCorpusIdsEqualTransformers) {
    if (corpus_.empty()) {
        GTEST_SKIP() << "../shared/data/spamassassin-part1.csv is absent";
    }
    const auto& corpus = (*reference_)["corpus"];
    const auto count = mismatches(cased(), corpus, (*reference_)["cased"]["corpus"], "cased");
    std::cout << "cased tokenizer mismatches on the corpus: " << count << " of " << corpus.size() << "\n";
    EXPECT_EQ(count, 0U);
}

TEST_F(TokenizerParity, TrickyStringsPairsAndTruncationEqualTransformers) {
    const auto cases = nlohmann::json::parse(test::readFile(test::sourcePath("tests/parity/tricky_strings.json")));
    for (const auto& [name, tok] : {std::pair{std::string("uncased"), uncased()},
                                    std::pair{std::string("cased"), cased()}}) {
        const auto& expected = (*reference_)[name];
        EXPECT_EQ(mismatches(tok, cases["single"], expected["single"], name + " single"), 0U);
        for (std::size_t i = 0; i < cases["single"].size(); ++i) {
            EXPECT_EQ(tok.encode(cases["single"][i].get<std::string>(), 16).inputIds,
                      expected["truncated"][i].get<std::vector<std::int32_t>>())
                << name << " truncated to 16: " << cases["single"][i].dump();
        }
        for (std::size_t i = 0; i < cases["pairs"].size(); ++i) {
            const auto& pair = cases["pairs"][i];
            const auto encoding = tok.encodePair(pair["first"].get<std::string>(),
                                                 pair["second"].get<std::string>(),
                                                 pair["max_length"].get<std::size_t>());
            EXPECT_EQ(encoding.inputIds, expected["pairs"][i]["ids"].get<std::vector<std::int32_t>>())
                << name << " pair " << i;
            EXPECT_EQ(encoding.tokenTypeIds,
                      expected["pairs"][i]["types"].get<std::vector<std::int32_t>>())
                << name << " pair " << i;
        }
    }
}

TEST_F(TokenizerParity, EveryCodePointNormalisesAsTransformersDoes) {
    const auto tok = uncased();
    const auto& changed = (*reference_)["uncased_normalized"];
    std::size_t count = 0;
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            continue;
        }
        std::string text;
        utf8::append(text, cp);
        const auto it = changed.find(std::to_string(static_cast<std::uint32_t>(cp)));
        const std::string expected = it == changed.end() ? text : it->get<std::string>();
        if (tok.normalize(text) != expected && ++count <= 10) {
            std::cout << "U+" << std::hex << static_cast<std::uint32_t>(cp) << std::dec
                      << " ours " << nlohmann::json(tok.normalize(text)).dump() << " theirs "
                      << nlohmann::json(expected).dump() << "\n";
        }
    }
    EXPECT_EQ(count, 0U) << "code points normalised differently";
}

}  // namespace
}  // namespace bert
