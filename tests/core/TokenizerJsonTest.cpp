// The parts of the tokenizer.json pipeline alone (core/tokenizer/json/), on small hand-written
// files whose ids can be worked out by hand; tests/parity/TokenizerJsonParityTest.cpp checks the
// whole against the reference on real layouts.
#include <fstream>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "support/TestSupport.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "tokenizer/json/Regex.h"
#include "tokenizer/json/TokenizerJson.h"

namespace bert {
namespace {

using Ids = std::vector<std::int32_t>;
using Json = nlohmann::json;

JsonTokenizer fromJson(const Json& json) {
    return JsonTokenizer(json.dump(), "test/tokenizer.json");
}

Json bpeFile(Json model, Json preTokenizer = nullptr) {
    model["type"] = "BPE";
    return {{"version", "1.0"},
            {"model", model},
            {"pre_tokenizer", preTokenizer},
            {"added_tokens", Json::array()}};
}

// "ab" and "abc" by merges; "x" missing from the vocabulary.
Json smallBpe() {
    return {{"vocab",
             {{"a", 0},
              {"b", 1},
              {"c", 2},
              {"ab", 3},
              {"abc", 4},
              {"<unk>", 5},
              {"<0x78>", 6},
              {"bc", 7}}},
            {"merges", {"a b", "ab c", "b c"}}};
}

std::string messageOf(const Json& json) {
    try {
        fromJson(json);
    } catch (const InputError& error) {
        return error.what();
    }
    return "";
}

TEST(TokenizerJsonRegex, SplitsAsGpt2WithOnigurumasEmptyMatchRule) {
    const auto gpt2 = tokenizer_json::Regex::fromPattern(
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)");
    const std::string text = "It's  été 2024!";
    std::vector<std::string> pieces;
    for (const auto& [start, end] : gpt2.findAll(text)) {
        pieces.push_back(text.substr(start, end - start));
    }
    EXPECT_EQ(pieces, (std::vector<std::string>{"It", "'s", " ", " été", " 2024", "!"}));
    // An empty pattern matches between characters, never twice at one place.
    const auto empty = tokenizer_json::Regex::fromPattern("");
    EXPECT_EQ(empty.findAll("ab").size(), 3U);
    // \s is White_Space: U+180E (Mongolian vowel separator) is not, U+0085 is.
    const auto space = tokenizer_json::Regex::fromPattern(R"(\s)");
    EXPECT_TRUE(space.findAll("\xE1\xA0\x8E").empty());
    EXPECT_EQ(space.findAll("\xC2\x85").size(), 1U);
    EXPECT_THROW(tokenizer_json::Regex::fromPattern("(unclosed"), std::invalid_argument);
}

TEST(TokenizerJsonBpe, MergesLowestRankFirst) {
    const auto tok = fromJson(bpeFile(smallBpe()));
    EXPECT_EQ(tok.tokenizeToIds("abc"), (Ids{4}));  // a b -> ab (rank 0) before b c
    EXPECT_EQ(tok.tokenizeToIds("bca"), (Ids{7, 0}));
    EXPECT_EQ(tok.tokenizeToIds("x"), Ids{});  // no unknown token: dropped, as the reference
    EXPECT_EQ(tok.kind(), "BPE");
}

TEST(TokenizerJsonBpe, UnknownTokensFuseAndBytesFallBack) {
    auto model = smallBpe();
    model["unk_token"] = "<unk>";
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("axxb"), (Ids{0, 5, 5, 1}));
    model["fuse_unk"] = true;
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("axxb"), (Ids{0, 5, 1}));
    model["byte_fallback"] = true;
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("axb"), (Ids{0, 6, 1}));
}

TEST(TokenizerJsonBpe, IgnoreMergesTakesWholeWordsAndPrefixesDecorate) {
    Json model = {{"vocab", {{"a", 0}, {"##b", 1}, {"a##b", 2}, {"ab", 3}}},
                  {"merges", Json::array({Json::array({"a", "##b"})})},
                  {"continuing_subword_prefix", "##"}};
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("ab"), (Ids{3}));  // merged "a" + "b"
    model["ignore_merges"] = true;
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("ab"), (Ids{3}));
    model["vocab"].erase("ab");
    model["merges"] = Json::array();
    EXPECT_EQ(fromJson(bpeFile(model)).tokenizeToIds("ab"), (Ids{0, 1}));
}

TEST(TokenizerJsonUnigram, ViterbiPicksTheBestPathAndFusesUnknowns) {
    const Json file = {
        {"version", "1.0"},
        {"pre_tokenizer",
         {{"type", "Metaspace"},
          {"replacement", "\u2581"},
          {"prepend_scheme", "always"},
          {"split", true}}},
        {"model",
         {{"type", "Unigram"},
          {"unk_id", 0},
          {"vocab", Json::array({Json::array({"<unk>", 0.0}), Json::array({"\u2581", -2.0}),
                                 Json::array({"a", -1.0}), Json::array({"b", -1.0}),
                                 Json::array({"ab", -1.5}), Json::array({"\u2581ab", -1.0}),
                                 Json::array({"<0x7A>", -5.0})})}}}};
    const auto tok = fromJson(file);
    EXPECT_EQ(tok.tokenizeToIds("ab"), (Ids{5}));          // ▁ab beats ▁ + ab
    EXPECT_EQ(tok.tokenizeToIds("abab"), (Ids{5, 4}));     // ab (-1.5) beats a + b (-2)
    EXPECT_EQ(tok.tokenizeToIds("zzab"), (Ids{1, 0, 4}));  // "zz" fused into one <unk>
    auto fallback = file;
    fallback["model"]["byte_fallback"] = true;
    EXPECT_EQ(fromJson(fallback).tokenizeToIds("zab"), (Ids{1, 6, 4}));
    EXPECT_EQ(tok.unkId(), std::optional<std::int32_t>(0));
    EXPECT_EQ(tok.kind(), "Unigram");
}

TEST(TokenizerJsonWordPiece, BertLayoutWithTemplateAndLongestFirstPairs) {
    const Json file = {{"version", "1.0"},
                       {"normalizer", {{"type", "BertNormalizer"}, {"lowercase", true}}},
                       {"pre_tokenizer", {{"type", "BertPreTokenizer"}}},
                       {"post_processor",
                        {{"type", "TemplateProcessing"},
                         {"single", {"[CLS]:0", "$A:0", "[SEP]:0"}},
                         {"pair", {"[CLS]:0", "$A:0", "[SEP]:0", "$B:1", "[SEP]:1"}},
                         {"special_tokens",
                          {{"[CLS]", {{"id", "[CLS]"}, {"ids", {2}}, {"tokens", {"[CLS]"}}}},
                           {"[SEP]", {{"id", "[SEP]"}, {"ids", {3}}, {"tokens", {"[SEP]"}}}}}}}},
                       {"added_tokens",
                        {{{"id", 0}, {"content", "[PAD]"}, {"special", true}},
                         {{"id", 4}, {"content", "[MASK]"}, {"special", true}}}},
                       {"model",
                        {{"type", "WordPiece"},
                         {"unk_token", "[UNK]"},
                         {"vocab",
                          {{"[PAD]", 0},
                           {"[UNK]", 1},
                           {"[CLS]", 2},
                           {"[SEP]", 3},
                           {"[MASK]", 4},
                           {"un", 5},
                           {"##aff", 6},
                           {"##able", 7},
                           {"hello", 8},
                           {",", 9}}}}}};
    const auto tok = fromJson(file);
    EXPECT_EQ(tok.encode("Unaffable, HELLO!").inputIds, (Ids{2, 5, 6, 7, 9, 8, 1, 3}));
    EXPECT_EQ(tok.encode("hello[MASK]").inputIds, (Ids{2, 8, 4, 3}));
    const auto pair = tok.encodePair("hello hello hello", "unaffable", 7);
    EXPECT_EQ(pair.inputIds, (Ids{2, 8, 8, 3, 5, 6, 3}));
    EXPECT_EQ(pair.tokenTypeIds, (Ids{0, 0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(tok.specialIds(), (Ids{0, 1, 2, 3, 4}));
    EXPECT_EQ(tok.padId(), 0);
    EXPECT_TRUE(tok.lowercases());
    EXPECT_EQ(tok.tokenString(6), "##aff");
    EXPECT_EQ(tok.vocabularySize(), 10U);
}

TEST(TokenizerJsonAddedTokens, StripAndSingleWordAsTheReference) {
    Json file = bpeFile(
        {{"vocab", {{"a", 0}, {"b", 1}, {"\u0120", 2}, {"\u0120a", 3}}}, {"merges", {"\u0120 a"}}},
        {{"type", "ByteLevel"}, {"add_prefix_space", false}});
    file["added_tokens"] = {{{"id", 4}, {"content", "<m>"}, {"special", true}, {"lstrip", true}},
                            {{"id", 5},
                             {"content", "c"},
                             {"special", false},
                             {"single_word", true},
                             {"normalized", false}}};
    const auto tok = fromJson(file);
    EXPECT_EQ(tok.tokenizeToIds("a  <m>"), (Ids{0, 4}));  // lstrip swallows the spaces
    EXPECT_EQ(tok.tokenizeToIds("a c"), (Ids{0, 2, 5}));  // "c" alone: the added token
    EXPECT_EQ(tok.tokenizeToIds("ac"), (Ids{0}));         // inside a word: not matched
    EXPECT_EQ(tok.kind(), "byte-level BPE");
}

TEST(TokenizerJsonErrors, MalformedFilesNameTheFileAndTheField) {
    EXPECT_NE(messageOf(Json::array()).find("test/tokenizer.json"), std::string::npos);
    EXPECT_NE(messageOf({{"version", "1.0"}}).find("lacks the field \"model\""), std::string::npos);
    EXPECT_NE(
        messageOf(bpeFile({{"vocab", {{"a", 0}}}, {"merges", {"a b"}}})).find("model.merges[0]"),
        std::string::npos);
    Json badNormalizer = bpeFile(smallBpe());
    badNormalizer["normalizer"] = {{"type", "Sequence"}, {"normalizers", {{{"type", "Nope"}}}}};
    EXPECT_NE(messageOf(badNormalizer).find("normalizer.normalizers[0].type: unknown normalizer"),
              std::string::npos);
    Json badCharsMap = bpeFile(smallBpe());
    badCharsMap["normalizer"] = {{"type", "Precompiled"}, {"precompiled_charsmap", "AQ=="}};
    EXPECT_NE(messageOf(badCharsMap).find("precompiled_charsmap: the character map is too short"),
              std::string::npos);
    Json badRegex = bpeFile(
        smallBpe(), {{"type", "Split"}, {"pattern", {{"Regex", "(("}}}, {"behavior", "Isolated"}});
    EXPECT_NE(messageOf(badRegex).find("pre_tokenizer.pattern"), std::string::npos);
    Json badTemplate = bpeFile(smallBpe());
    badTemplate["post_processor"] = {
        {"type", "TemplateProcessing"}, {"single", {"[X]", "$A"}}, {"pair", {"$A", "$B"}}};
    EXPECT_NE(messageOf(badTemplate).find("special_tokens does not define"), std::string::npos);
    EXPECT_NE(messageOf({{"version", "2.0"}, {"model", smallBpe()}}).find("version"),
              std::string::npos);
}

TEST(LoadTokenizer, PicksTokenizerJsonThenVocabTxtAndNamesWhatIsMissing) {
    const test::TempDir dir;
    try {
        loadTokenizer(dir.path());
        FAIL() << "an empty folder loaded";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("neither tokenizer.json"), std::string::npos);
    }
    {
        std::ofstream vocab(dir / "vocab.txt");
        vocab << "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n";
    }
    const auto wordPiece = loadTokenizer(dir.path());
    EXPECT_EQ(wordPiece->kind(), "WordPiece");
    EXPECT_EQ(wordPiece->unkId(), std::optional<std::int32_t>(1));
    EXPECT_EQ(wordPiece->encode("hello").inputIds, (Ids{2, 5, 3}));
    {
        std::ofstream file(dir / "tokenizer.json");
        file << bpeFile(smallBpe()).dump();
    }
    EXPECT_EQ(loadTokenizer(dir.path())->kind(), "BPE");
    {
        std::ofstream broken(dir / "tokenizer_config.json");
        broken << "{not json";
    }
    EXPECT_THROW(loadTokenizer(dir.path()), InputError);
}

TEST(LoadTokenizer, TokenizerConfigSettingsApplyOnTop) {
    // A BERT folder whose tokenizer.json says lowercase but whose tokenizer_config.json says
    // do_lower_case false: transformers' BertTokenizer builds its normalizer from the config.
    const test::TempDir dir;
    const Json file = {
        {"version", "1.0"},
        {"normalizer", {{"type", "BertNormalizer"}, {"lowercase", true}}},
        {"pre_tokenizer", {{"type", "BertPreTokenizer"}}},
        {"model",
         {{"type", "WordPiece"},
          {"vocab",
           {{"[PAD]", 0}, {"[UNK]", 1}, {"[CLS]", 2}, {"[SEP]", 3}, {"Hello", 4}, {"hello", 5}}}}}};
    std::ofstream(dir / "tokenizer.json") << file.dump();
    std::ofstream(dir / "tokenizer_config.json")
        << Json{{"tokenizer_class", "BertTokenizer"}, {"do_lower_case", false}}.dump();
    const auto tok = loadTokenizer(dir.path());
    EXPECT_EQ(tok->encode("Hello").inputIds, (Ids{2, 4, 3}));
    EXPECT_FALSE(tok->lowercases());
    std::filesystem::create_directories(dir / "saved");
    tok->save(dir / "saved", 64);
    const auto config = Json::parse(test::readFile(dir / "saved" / "tokenizer_config.json"));
    EXPECT_EQ(config["model_max_length"], 64);
    EXPECT_EQ(config["do_lower_case"], false);
    EXPECT_EQ(loadTokenizer(dir / "saved")->encode("Hello").inputIds, (Ids{2, 4, 3}));
}

// mmBERT's folders name GemmaTokenizer; transformers 5 builds that class's settings over a
// tokenizer folder alone, but loads a ModernBERT-type model folder's file as it is (the class
// named is ignored for that model type). The file here leaves byte fallback off, so the two
// ways differ on a character the vocabulary lacks: "x" is <unk> as the file has it, its byte
// <0x78> as GemmaTokenizer rebuilds it.
TEST(LoadTokenizer, GemmaTokenizerIsRebuiltExceptInModernBertFoldersWhichTakeTheFileAsItIs) {
    const test::TempDir dir;
    auto model = smallBpe();
    model["unk_token"] = "<unk>";
    std::ofstream(dir / "tokenizer.json") << bpeFile(model).dump();
    std::ofstream(dir / "tokenizer_config.json")
        << Json{{"tokenizer_class", "GemmaTokenizer"}, {"unk_token", "<unk>"}}.dump();
    const auto rebuilt = loadTokenizer(dir.path());
    EXPECT_EQ(rebuilt->tokenizeToIds("axb"), (Ids{0, 6, 1}));
    EXPECT_EQ(dynamic_cast<const JsonTokenizer&>(*rebuilt).transformersClass(), "GemmaTokenizer");
    std::ofstream(dir / "config.json") << Json{{"model_type", "modernbert"}}.dump();
    const auto asItIs = loadTokenizer(dir.path());
    EXPECT_EQ(asItIs->tokenizeToIds("axb"), (Ids{0, 5, 1}));
    EXPECT_EQ(dynamic_cast<const JsonTokenizer&>(*asItIs).transformersClass(), "");
}

// DeBERTa-v3's layout: [PAD] [CLS] [SEP] control, [UNK] unknown at 3, pieces, a user defined
// piece.
std::vector<test::SentencePieceEntry> debertaPieces() {
    return {{"[PAD]", 0, 3}, {"[CLS]", 0, 3},    {"[SEP]", 0, 3},
            {"[UNK]", 0, 2}, {"\u2581a", -1, 1}, {"\u2581b", -2, 1},
            {"<url>", 0, 4}, {"\u2581", -3, 1},  {"!", -4, 1}};
}

// The trainer spec says model_type (1: Unigram) and unk_id 3.
std::string debertaSentencePiece(int modelType = 1) {
    return test::sentencePieceModelFile(debertaPieces(), modelType);
}

// DeBERTa's pieces after first.
std::string withFirstPiece(test::SentencePieceEntry first) {
    auto pieces = debertaPieces();
    pieces.insert(pieces.begin(), std::move(first));
    return test::sentencePieceModelFile(pieces);
}

TEST(LoadTokenizer, DebertaFoldersReadSpmModelAloneAsDebertaV2TokenizerBuildsIt) {
    const test::TempDir dir;
    std::ofstream(dir / "config.json") << Json{{"model_type", "deberta-v2"}}.dump();
    std::ofstream(dir / "spm.model", std::ios::binary) << debertaSentencePiece();
    const auto tok = loadTokenizer(dir.path());
    EXPECT_EQ(tok->source(), dir / "spm.model");
    EXPECT_EQ(tok->unkId(), std::optional<std::int32_t>(3));
    // Runs of spaces and tabs are one space, the end is stripped; <url> (user defined) and the
    // class's [MASK] (the next free id) are matched as they are; B has type 1.
    EXPECT_EQ(tok->encode("a \t b<url>  [MASK] ").inputIds, (Ids{1, 4, 5, 6, 9, 2}));
    const auto pair = tok->encodePair("a", "b!");
    EXPECT_EQ(pair.inputIds, (Ids{1, 4, 2, 5, 8, 2}));
    EXPECT_EQ(pair.tokenTypeIds, (Ids{0, 0, 0, 1, 1, 1}));
    // Saved as tokenizer.json with the class named: it reads back to the same ids.
    std::filesystem::create_directories(dir / "saved");
    tok->save(dir / "saved", 64);
    const auto config = Json::parse(test::readFile(dir / "saved" / "tokenizer_config.json"));
    EXPECT_EQ(config["tokenizer_class"], "DebertaV2Tokenizer");
    EXPECT_EQ(loadTokenizer(dir / "saved")->encode("a \t b<url>  [MASK] ").inputIds,
              (Ids{1, 4, 5, 6, 9, 2}));
}

TEST(LoadTokenizer, DamagedOrBpeSpmModelsAndOtherSentencePieceFoldersAreRefusedByName) {
    const test::TempDir dir;
    std::ofstream(dir / "config.json") << Json{{"model_type", "deberta-v2"}}.dump();
    const auto expectRefused = [&](const std::string& bytes, const std::string& words) {
        std::ofstream(dir / "spm.model", std::ios::binary | std::ios::trunc) << bytes;
        try {
            loadTokenizer(dir.path());
            ADD_FAILURE() << "loaded: " << words;
        } catch (const InputError& error) {
            EXPECT_EQ(error.file(), dir / "spm.model");
            EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
        }
    };
    expectRefused("not a model", "is not a SentencePiece model file");
    expectRefused(debertaSentencePiece(2), "(2 is BPE)");
    // Found by fuzz_sentencepiece: a piece that is not UTF-8 ended in an uncaught JSON error.
    expectRefused(withFirstPiece({"\xB4x", -1, 1}), "not valid UTF-8");
    expectRefused(withFirstPiece({"", -1, 1}), "has piece 0 empty");
    expectRefused(withFirstPiece({"x", std::numeric_limits<float>::quiet_NaN(), 1}),
                  "a score that is not a number");
    // Cut anywhere, the file is refused or read whole (a cut between fields is a valid file
    // with fewer pieces): never a read past its end.
    const auto whole = debertaSentencePiece();
    for (std::size_t size = 0; size < whole.size(); ++size) {
        std::ofstream(dir / "spm.model", std::ios::binary | std::ios::trunc)
            << whole.substr(0, size);
        try {
            (void)loadTokenizer(dir.path())->encode("a b");
        } catch (const InputError& error) {
            EXPECT_EQ(error.file(), dir / "spm.model") << size;
        }
    }
    // XLM-R's sentencepiece.bpe.model, or spm.model of another class: tokenizer.json is needed.
    const test::TempDir other;
    std::ofstream(other / "config.json") << Json{{"model_type", "xlm-roberta"}}.dump();
    std::ofstream(other / "sentencepiece.bpe.model") << "not read";
    try {
        loadTokenizer(other.path());
        FAIL() << "a folder with sentencepiece.bpe.model alone loaded";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), other.path());
        EXPECT_NE(std::string(error.what()).find("no tokenizer.json"), std::string::npos);
    }
}

}  // namespace
}  // namespace bert
