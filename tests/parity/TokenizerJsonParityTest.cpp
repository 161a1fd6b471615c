// Token ids of the engine's tokenizer.json pipeline against the reference, for every published
// tokenizer.json layout of the families the engine reads (BERT, MPNet, RoBERTa, ModernBERT, XLM-R
// in its three layouts, CamemBERT, DeBERTa-v3, EuroBERT's Llama-3 layout, mmBERT's Gemma layout
// as GemmaTokenizer rebuilds it and as the file has it, a Unigram of `tokenizers`), each trained by
// tests/parity/tokenizer_families.py in the test: every e-mail of
// ../shared/data/spamassassin-part1.csv, the tricky strings, Chinese, Japanese and emoji text
// (byte fallback where a vocabulary lacks the character), pairs truncated
// longest-first at several lengths, every code point through the normalizer and the
// pre-tokenizer, and the folders the engine saves reloaded by transformers' AutoTokenizer.
#include <cstdlib>
#include <iostream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "data/LongText.h"
#include "support/TestSupport.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/json/TokenizerJson.h"

namespace bert {
namespace {

using Ids = std::vector<std::int32_t>;

std::string shortText(const nlohmann::json& text) {
    return text.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(0, 160);
}

class TokenizerJsonParity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::referenceUnavailable().empty()) {
            return;
        }
        dir_ = new test::TempDir();
        root_ = dir_->path();
        hasCorpus_ = !test::sharedDataFile("spamassassin-part1.csv").empty();
        // A folder built before (tokenizer_families.py build DIR --corpus CSV) saves minutes
        // while working on the tokenizer; the test builds its own otherwise.
        if (const char* prebuilt = std::getenv("BERT_STUDIO_TOKENIZER_FAMILIES")) {
            root_ = prebuilt;
        } else {
            std::vector<std::string> args = {"build", root_.string()};
            if (hasCorpus_) {
                args.insert(args.end(),
                            {"--corpus", test::sharedDataFile("spamassassin-part1.csv").string()});
            }
            const auto log = root_ / "build.log";
            if (test::runPythonScript("tests/parity/tokenizer_families.py", args, log) != 0) {
                failure_ = "tokenizer_families.py build failed:\n" + test::readFile(log);
                return;
            }
        }
        inputs_ = new nlohmann::json(nlohmann::json::parse(test::readFile(root_ / "inputs.json")));
        references_ =
            new nlohmann::json(nlohmann::json::parse(test::readFile(root_ / "references.json")));
        hasCorpus_ = !(*inputs_)["corpus"].empty();
    }
    static void TearDownTestSuite() {
        delete inputs_;
        delete references_;
        delete dir_;
        inputs_ = references_ = nullptr;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
            GTEST_SKIP() << reason;
        }
        ASSERT_TRUE(failure_.empty()) << failure_;
        ASSERT_NE(references_, nullptr);
    }

    static std::vector<std::string> folders() {
        return (*references_)["folders"].get<std::vector<std::string>>();
    }
    static std::shared_ptr<const Tokenizer> load(const std::string& name) {
        return loadTokenizer(root_ / name);
    }
    static const nlohmann::json& reference(const std::string& name) {
        return (*references_)["references"][name];
    }

    // Texts whose ids differ from the reference's; prints the first few.
    static std::size_t mismatches(const std::string& name, const Tokenizer& tok,
                                  const nlohmann::json& texts, const nlohmann::json& expected,
                                  std::size_t maxLength = 0) {
        std::size_t count = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const auto ids = tok.encode(texts[i].get<std::string>(), maxLength).inputIds;
            const auto want = expected[i].get<Ids>();
            if (ids != want && ++count <= 3) {
                std::cout << name << " text " << i << " differs: " << shortText(texts[i])
                          << "\n  ours:   " << nlohmann::json(ids).dump().substr(0, 300)
                          << "\n  theirs: " << nlohmann::json(want).dump().substr(0, 300) << "\n";
            }
        }
        return count;
    }

    static inline test::TempDir* dir_ = nullptr;
    static inline std::filesystem::path root_;  ///< the families' folders and references
    static inline nlohmann::json* inputs_ = nullptr;
    static inline nlohmann::json* references_ = nullptr;
    static inline bool hasCorpus_ = false;
    static inline std::string failure_;
};

TEST_F(TokenizerJsonParity, EveryLayoutLoadsAsItsKind) {
    const std::map<std::string, std::string> kinds = {{"bert-uncased", "WordPiece"},
                                                      {"bert-cased", "WordPiece"},
                                                      {"mpnet", "WordPiece"},
                                                      {"roberta", "byte-level BPE"},
                                                      {"roberta-file", "byte-level BPE"},
                                                      {"modernbert", "byte-level BPE"},
                                                      {"eurobert", "byte-level BPE"},
                                                      {"xlmr", "Unigram"},
                                                      {"xlmr-legacy", "Unigram"},
                                                      {"xlmr-v4", "Unigram"},
                                                      {"camembert", "Unigram"},
                                                      {"deberta", "Unigram"},
                                                      {"deberta-spm", "Unigram"},
                                                      {"gemma", "BPE"},
                                                      {"gemma-file", "BPE"},
                                                      {"unigram", "Unigram"}};
    ASSERT_EQ(folders().size(), kinds.size());
    for (const auto& [name, kind] : kinds) {
        const auto tok = load(name);
        EXPECT_EQ(tok->kind(), kind) << name;
        EXPECT_EQ(tok->source(),
                  root_ / name / (name == "deberta-spm" ? "spm.model" : "tokenizer.json"))
            << name;
        EXPECT_EQ(tok->lowercases(),
                  name == "bert-uncased" || name == "mpnet" || name == "deberta-spm")
            << name;
    }
    EXPECT_FALSE(load("roberta")->unkId() == load("roberta")->padId());
    EXPECT_EQ(load("xlmr")->padId(), 1);
    EXPECT_EQ(load("xlmr")->unkId(), std::optional<std::int32_t>(3));
    for (const char* deberta : {"deberta", "deberta-spm"}) {
        EXPECT_EQ(load(deberta)->padId(), 0) << deberta;
        EXPECT_EQ(load(deberta)->unkId(), std::optional<std::int32_t>(3)) << deberta;
    }
    // mmBERT's ids: <pad> 0, <eos> 1, <bos> 2, <unk> 3; the class named is the one rebuilt.
    for (const char* gemma : {"gemma", "gemma-file"}) {
        EXPECT_EQ(load(gemma)->padId(), 0) << gemma;
        EXPECT_EQ(load(gemma)->unkId(), std::optional<std::int32_t>(3)) << gemma;
        const auto ids = load(gemma)->encode("x").inputIds;
        ASSERT_GE(ids.size(), 2U) << gemma;
        EXPECT_EQ(ids.front(), 2) << gemma;
    }
    // <eos> ends a text only where the file's template says so: add_eos_token in
    // tokenizer_config.json is dropped by transformers when a tokenizer.json is there.
    EXPECT_NE(load("gemma")->encode("x").inputIds.back(), 1);
    EXPECT_EQ(load("gemma-file")->encode("x").inputIds.back(), 1);
    EXPECT_EQ(dynamic_cast<const JsonTokenizer&>(*load("gemma")).transformersClass(),
              "GemmaTokenizer");
}

// GemmaTokenizer rebuilds what the hub's Gemma file turns off (the guard of its settings): byte
// fallback, so a character the vocabulary lacks is its UTF-8 bytes' pieces, never <unk>; the
// file taken as it is has byte fallback on too.
TEST_F(TokenizerJsonParity, GemmaLayoutsSpellUnknownCharactersInBytes) {
    for (const char* name : {"gemma", "gemma-file"}) {
        const auto tok = load(name);
        ASSERT_FALSE(tok->tokenId("\xF0\x9F\xA6\x9C")) << "U+1F99C should not be in " << name;
        Ids want = {2};
        for (const char* byte : {"<0xF0>", "<0x9F>", "<0xA6>", "<0x9C>"}) {
            ASSERT_TRUE(tok->tokenId(byte)) << byte << " in " << name;
            want.push_back(*tok->tokenId(byte));
        }
        if (std::string(name) == "gemma-file") {
            want.push_back(1);
        }
        EXPECT_EQ(tok->encode("\xF0\x9F\xA6\x9C").inputIds, want) << name;
    }
}

TEST_F(TokenizerJsonParity, CorpusIdsEqualTheReference) {
    if (!hasCorpus_) {
        GTEST_SKIP() << "../shared/data/spamassassin-part1.csv is absent";
    }
    const auto& corpus = (*inputs_)["corpus"];
    ASSERT_EQ(corpus.size(), 3000U);
    for (const auto& name : folders()) {
        const auto count = mismatches(name, *load(name), corpus, reference(name)["corpus"]);
        std::cout << name << ": " << count << " of " << corpus.size() << " e-mails differ\n";
        EXPECT_EQ(count, 0U) << name;
    }
}

TEST_F(TokenizerJsonParity, TrickyStringsChineseAndSpecialTokensEqualTheReference) {
    const auto& texts = (*inputs_)["single"];
    for (const auto& name : folders()) {
        EXPECT_EQ(mismatches(name, *load(name), texts, reference(name)["single"]), 0U) << name;
    }
}

TEST_F(TokenizerJsonParity, TruncatedSinglesAndPairsEqualTheReference) {
    const auto& data = *inputs_;
    for (const auto& name : folders()) {
        const auto tok = load(name);
        EXPECT_EQ(mismatches(name + " truncated", *tok, data["truncated"],
                             reference(name)["truncated"], data["truncate_to"].get<std::size_t>()),
                  0U);
        const auto& pairs = data["pairs"];
        std::size_t differ = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const auto encoding =
                tok->encodePair(pairs[i][0].get<std::string>(), pairs[i][1].get<std::string>(),
                                pairs[i][2].get<std::size_t>());
            const auto& want = reference(name)["pairs"][i];
            if ((encoding.inputIds != want[0].get<Ids>() ||
                 encoding.tokenTypeIds != want[1].get<Ids>()) &&
                ++differ <= 3) {
                std::cout << name << " pair " << i << " (max_length " << pairs[i][2] << ") differs"
                          << "\n  ours:   "
                          << nlohmann::json(encoding.inputIds).dump().substr(0, 200) << " "
                          << nlohmann::json(encoding.tokenTypeIds).dump().substr(0, 100)
                          << "\n  theirs: " << want.dump().substr(0, 300) << "\n";
            }
            EXPECT_EQ(encoding.attentionMask, Ids(encoding.inputIds.size(), 1));
        }
        EXPECT_EQ(differ, 0U) << name << ": pairs differ";
    }
}

// Long texts cut into windows (--long-text windows) are transformers' overflowing tokens with
// the same stride, window for window, for every layout.
TEST_F(TokenizerJsonParity, LongTextWindowsEqualTransformersOverflowingTokens) {
    const auto& data = *inputs_;
    const auto& texts = data["windowed"];
    std::size_t windowsSeen = 0;
    for (const auto& name : folders()) {
        const auto tok = load(name);
        const auto shape = templateShapeOf(*tok);
        const auto& configs = data["windows"];
        for (std::size_t c = 0; c < configs.size(); ++c) {
            const auto length = configs[c][0].get<std::size_t>();
            LongTextSpec spec;
            spec.mode = LongTextMode::Windows;
            spec.stride = configs[c][1].get<std::size_t>();
            const auto& expected = reference(name)["windows"][c];
            std::size_t wrong = 0;
            for (std::size_t i = 0; i < texts.size(); ++i) {
                std::vector<Ids> ours;
                for (const auto& window : fitLongText(tok->encode(texts[i].get<std::string>(), 0),
                                                      length, spec, shape)) {
                    EXPECT_LE(window.size(), length);
                    ours.push_back(window.inputIds);
                }
                windowsSeen += ours.size();
                if (ours != expected[i].get<std::vector<Ids>>() && ++wrong <= 2) {
                    std::cout << name << " at " << length << "/" << spec.stride << ", text " << i
                              << ": " << ours.size() << " windows, reference " << expected[i].size()
                              << "\n";
                }
            }
            EXPECT_EQ(wrong, 0U) << name << " windows of " << length << ", stride " << spec.stride;
        }
    }
    if (hasCorpus_) {
        EXPECT_GT(windowsSeen, 2 * texts.size()) << "the e-mails should make several windows";
    }
}

TEST_F(TokenizerJsonParity, EveryCodePointNormalisesAndSplitsAsTheReference) {
    const auto& blocks = (*references_)["blocks"];
    for (const auto& name : folders()) {
        const auto& expected = reference(name);
        if (!expected.contains("blocks")) {
            continue;
        }
        const auto loaded = load(name);
        const auto& tok = dynamic_cast<const JsonTokenizer&>(*loaded);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < blocks.size(); ++i) {
            const auto ours = tok.preTokenize(blocks[i].get<std::string>());
            // The reference's pieces: their concatenation and lengths in code points.
            const auto joined = expected["blocks"][i][0].get<std::string>();
            std::vector<std::string> theirs;
            std::size_t at = 0;
            for (const auto& length : expected["blocks"][i][1]) {
                std::size_t end = at;
                for (std::size_t k = 0; k < length.get<std::size_t>() && end < joined.size(); ++k) {
                    ++end;
                    while (end < joined.size() &&
                           (static_cast<unsigned char>(joined[end]) & 0xC0U) == 0x80U) {
                        ++end;
                    }
                }
                theirs.push_back(joined.substr(at, end - at));
                at = end;
            }
            if (ours != theirs && ++differ <= 3) {
                for (std::size_t k = 0; k < std::max(ours.size(), theirs.size()); ++k) {
                    const auto a = k < ours.size() ? ours[k] : "";
                    const auto b = k < theirs.size() ? theirs[k] : "";
                    if (a != b) {
                        std::cout << name << " block " << i << " piece " << k << ": ours "
                                  << nlohmann::json(a).dump() << " theirs "
                                  << nlohmann::json(b).dump() << "\n";
                        break;
                    }
                }
            }
        }
        EXPECT_EQ(differ, 0U) << name << ": blocks of code points split differently";
    }
}

TEST_F(TokenizerJsonParity, InvalidUtf8ReadsAsReplacementCharacters) {
    // The policy: one U+FFFD per invalid byte, as Python's errors="replace" hands the reference.
    for (const auto& name : folders()) {
        const auto tok = load(name);
        EXPECT_EQ(tok->encode("caf\xC3 \xFF ok").inputIds,
                  tok->encode("caf\xEF\xBF\xBD \xEF\xBF\xBD ok").inputIds)
            << name;
    }
}

TEST_F(TokenizerJsonParity, ALimitKeepsTheFirstIdsOfTheFullTokenization) {
    const auto& texts = hasCorpus_ ? (*inputs_)["corpus"] : (*inputs_)["single"];
    for (const auto& name : folders()) {
        const auto tok = load(name);
        for (std::size_t i = 0; i < std::min<std::size_t>(texts.size(), 300); ++i) {
            const auto text = texts[i].get<std::string>();
            const auto full = tok->tokenizeToIds(text);
            for (const std::size_t limit : {1, 17, 128}) {
                const auto some = tok->tokenizeToIds(text, limit);
                ASSERT_GE(some.size(), std::min(limit, full.size())) << name << " text " << i;
                ASSERT_TRUE(std::equal(some.begin(), some.end(), full.begin()))
                    << name << " text " << i << " limit " << limit;
            }
        }
    }
}

TEST_F(TokenizerJsonParity, SavedFoldersReloadInTransformersToTheSameIds) {
    for (const auto& name : folders()) {
        const auto tok = load(name);
        const auto saved = dir_->path() / "saved" / name;
        std::filesystem::create_directories(saved);
        tok->save(saved, 77);
        const auto out = dir_->path() / ("reloaded-" + name + ".json");
        const auto log = dir_->path() / ("reload-" + name + ".log");
        ASSERT_EQ(
            test::runPythonScript(
                "tests/parity/tokenizer_families.py",
                {"reload", saved.string(), (root_ / "inputs.json").string(), out.string()}, log),
            0)
            << test::readFile(log);
        const auto reloaded = nlohmann::json::parse(test::readFile(out));
        EXPECT_EQ(reloaded["model_max_length"].get<std::size_t>(), 77U) << name;
        const auto& data = *inputs_;
        std::vector<std::string> texts = data["single"].get<std::vector<std::string>>();
        for (std::size_t i = 0; i < std::min<std::size_t>(data["corpus"].size(), 100); ++i) {
            texts.push_back(data["corpus"][i].get<std::string>());
        }
        const auto again = loadTokenizer(saved);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const auto ours = tok->encode(texts[i]).inputIds;
            differ += ours != reloaded["single"][i].get<Ids>() ||
                      again->encode(texts[i]).inputIds != ours;
        }
        for (std::size_t i = 0; i < reloaded["pairs"].size(); ++i) {
            const auto& pair = data["pairs"][i];
            differ += tok->encodePair(pair[0].get<std::string>(), pair[1].get<std::string>(),
                                      pair[2].get<std::size_t>())
                          .inputIds != reloaded["pairs"][i].get<Ids>();
        }
        EXPECT_EQ(differ, 0U) << name << ": the saved folder reloads to other ids";
    }
}

}  // namespace
}  // namespace bert
