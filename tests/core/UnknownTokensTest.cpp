// Issue 27, points 3 and 10 (engine side): the share of unknown tokens, and files that are not
// text called so.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "data/TableReader.h"
#include "data/UnknownTokens.h"
#include "support/TestSupport.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "tokenizer/json/TokenizerJson.h"

namespace bert {
namespace {

// Through the Tokenizer interface, as the studio counts it for any family's tokenizer.
UnknownTokenShare shareOf(const Tokenizer& tokenizer, const std::vector<std::string>& texts) {
    UnknownTokenShare share;
    for (const auto& text : texts) {
        share.add(tokenizer.encode(text), tokenizer);
    }
    return share;
}

TEST(UnknownTokens, TheShareCountsTheTextsTokensNotTheTemplates) {
    const WordPieceTokenizer tokenizer(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "good", "film", "这"}, {});
    auto share = shareOf(tokenizer, {"good film"});
    EXPECT_EQ(share.tokens, 2U);
    EXPECT_EQ(share.unknown, 0U);
    EXPECT_FALSE(share.warns());
    // Chinese under a vocabulary that knows one of its characters: 3 of 4 unknown.
    share = shareOf(tokenizer, {"good film", "这部电影"});
    EXPECT_EQ(share.tokens, 6U);
    EXPECT_EQ(share.unknown, 3U);
    EXPECT_DOUBLE_EQ(share.share(), 0.5);
    EXPECT_TRUE(share.warns());
    EXPECT_DOUBLE_EQ(UnknownTokenShare{}.share(), 0.0);
}

// 7.2% unknown was called "would stay at chance": the wording follows the share, and names
// the tokenizer's own unknown token.
TEST(UnknownTokens, TheWarningIsInProportionToTheShare) {
    UnknownTokenShare share;
    share.unknownToken = "<unk>";
    share.tokens = 1000;
    share.unknown = 20;  // 2%: no warning
    EXPECT_EQ(unknownTokenWarning(share), "");
    share.unknown = 72;
    EXPECT_EQ(unknownTokenWarning(share),
              "7.2% of the tokens are unknown to the model's vocabulary (<unk>): some words are "
              "lost to it; a model for this language would read more of it");
    share.unknown = 250;
    EXPECT_EQ(unknownTokenWarning(share),
              "25.0% of the tokens are unknown to the model's vocabulary (<unk>): a run learns "
              "from the rest of the text only; a model for this language would read all of it");
    share.unknown = 700;
    share.unknownToken = "[UNK]";
    EXPECT_EQ(unknownTokenWarning(share),
              "70.0% of the tokens are unknown to the model's vocabulary ([UNK]): it cannot read "
              "this text, and a run would learn little beyond chance; choose a model for this "
              "language");
    const WordPieceTokenizer tokenizer(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "good", "film", "这"}, {});
    EXPECT_EQ(shareOf(tokenizer, {"这部电影"}).unknownToken, "[UNK]");
}

TEST(UnknownTokens, EveryFamilysTokenizerCountsItsOwnUnknownToken) {
    using Json = nlohmann::json;
    // A SentencePiece Unigram tokenizer.json (XLM-R's kind): "zz" becomes one <unk>, id 0.
    const Json unigram = {
        {"version", "1.0"},
        {"pre_tokenizer",
         {{"type", "Metaspace"},
          {"replacement", "\u2581"},
          {"prepend_scheme", "always"},
          {"split", true}}},
        {"post_processor",
         {{"type", "TemplateProcessing"},
          {"single", {"<s>:0", "$A:0", "</s>:0"}},
          {"pair", {"<s>:0", "$A:0", "</s>:0", "$B:0", "</s>:0"}},
          {"special_tokens",
           {{"<s>", {{"id", "<s>"}, {"ids", {7}}, {"tokens", {"<s>"}}}},
            {"</s>", {{"id", "</s>"}, {"ids", {8}}, {"tokens", {"</s>"}}}}}}}},
        {"model",
         {{"type", "Unigram"},
          {"unk_id", 0},
          {"vocab", Json::array({Json::array({"<unk>", 0.0}), Json::array({"\u2581", -2.0}),
                                 Json::array({"a", -1.0}), Json::array({"b", -1.0}),
                                 Json::array({"ab", -1.5}), Json::array({"\u2581ab", -1.0}),
                                 Json::array({"<pad>", 0.0}), Json::array({"<s>", 0.0}),
                                 Json::array({"</s>", 0.0})})}}}};
    const JsonTokenizer sentencePiece(unigram.dump(), "unigram/tokenizer.json");
    ASSERT_EQ(sentencePiece.encode("ab zz").inputIds, (std::vector<std::int32_t>{7, 5, 1, 0, 8}));
    const auto share = shareOf(sentencePiece, {"ab zz"});
    EXPECT_EQ(share.tokens, 3U);  // ▁ab ▁ <unk>; <s> and </s> are the template's
    EXPECT_EQ(share.unknown, 1U);
    // The warning names this tokenizer's unknown token, not [UNK].
    EXPECT_EQ(share.unknownToken, "<unk>");
    EXPECT_NE(unknownTokenWarning(share).find("(<unk>)"), std::string::npos)
        << unknownTokenWarning(share);
    // Byte-level BPE (RoBERTa's kind) has no unknown token: it reads every byte.
    const Json bpe = {{"version", "1.0"},
                      {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
                      {"added_tokens", Json::array()},
                      {"model",
                       {{"type", "BPE"},
                        {"vocab", {{"a", 0}, {"b", 1}, {"\u0120", 2}, {"\u0120a", 3}}},
                        {"merges", {"\u0120 a"}}}}};
    const JsonTokenizer byteLevel(bpe.dump(), "bpe/tokenizer.json");
    ASSERT_FALSE(byteLevel.unkId().has_value());
    EXPECT_EQ(shareOf(byteLevel, {"b a"}).unknown, 0U);
    EXPECT_EQ(shareOf(byteLevel, {"b a"}).tokens, 2U);
}

TEST(UnknownTokens, ABinaryFileIsNotReadAsATable) {
    test::TempDir dir;
    test::writeFile(dir / "image.csv", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    try {
        readTable(dir / "image.csv");
        FAIL() << "a PNG was read as a table";
    } catch (const InputError& error) {
        EXPECT_EQ(error.problem(), "is not a text file (binary content at byte 9)");
    }
    // Control characters without a NUL, more than one byte in a hundred.
    std::string controls = "text,label\n";
    for (int i = 0; i < 50; ++i) {
        controls += "a\x01\x02\x03,b\n";
    }
    test::writeFile(dir / "controls.csv", controls);
    EXPECT_THROW(
        {
            try {
                readTable(dir / "controls.csv");
            } catch (const InputError& error) {
                EXPECT_EQ(error.problem(), "is not a text file (binary content at byte 13)");
                throw;
            }
        },
        InputError);
    // UTF-16 is text, in an encoding to convert.
    test::writeFile(dir / "wide.csv", std::string("\xFF\xFEt\0e\0", 6));
    try {
        readTable(dir / "wide.csv");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_EQ(error.problem(), "is UTF-16 text; save it as UTF-8");
    }
    // A few control characters in real text (a form feed, an escape, one stray byte) are fine.
    test::writeFile(dir / "fine.csv", "text,label\n\"page\fbreak \x1b[1m\x07\",a\n");
    EXPECT_EQ(readTable(dir / "fine.csv").rows.size(), 1U);
}

}  // namespace
}  // namespace bert
