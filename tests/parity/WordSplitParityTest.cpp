// Pre-split words (token classification) against transformers and `tokenizers`: for every
// tokenizer layout the engine reads (tests/parity/word_split.py builds them, nothing
// downloaded), Tokenizer::encodeWords gives the ids, word_ids() and cut words of
// tokenizer(words, is_split_into_words=True, truncation=True, max_length=N) on English
// CoNLL-like sentences, e-mails split at whitespace, Chinese characters and odd words, with and
// without truncation.
#include <cstdlib>
#include <iostream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/WordEncoding.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {
namespace {

using Ids = std::vector<std::int32_t>;

class WordSplitParity : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!test::referenceUnavailable().empty()) {
            return;
        }
        dir_ = new test::TempDir();
        root_ = dir_->path();
        // A folder built before (word_split.py build DIR --corpus CSV) saves a minute while
        // working on the tokenizer; the test builds its own otherwise.
        if (const char* prebuilt = std::getenv("BERT_STUDIO_WORD_SPLIT")) {
            root_ = prebuilt;
        } else {
            std::vector<std::string> args = {"build", root_.string()};
            if (const auto corpus = test::sharedDataFile("spamassassin-part1.csv");
                !corpus.empty()) {
                args.insert(args.end(), {"--corpus", corpus.string()});
            }
            const auto log = root_ / "build.log";
            if (test::runPythonScript("tests/parity/word_split.py", args, log) != 0) {
                failure_ = "word_split.py build failed:\n" + test::readFile(log);
                return;
            }
        }
        data_ = new nlohmann::json(nlohmann::json::parse(test::readFile(root_ / "words.json")));
    }
    static void TearDownTestSuite() {
        delete data_;
        delete dir_;
        data_ = nullptr;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
            GTEST_SKIP() << reason;
        }
        ASSERT_TRUE(failure_.empty()) << failure_;
        ASSERT_NE(data_, nullptr);
    }

    static inline test::TempDir* dir_ = nullptr;
    static inline std::filesystem::path root_;
    static inline nlohmann::json* data_ = nullptr;
    static inline std::string failure_;
};

TEST_F(WordSplitParity, IdsWordIdsAndCutWordsEqualTheReference) {
    const auto lists = (*data_)["words"].get<std::vector<std::vector<std::string>>>();
    const auto lengths = (*data_)["max_lengths"].get<std::vector<std::size_t>>();
    const auto& references = (*data_)["references"];
    ASSERT_GE(references.size(), 11U);
    std::size_t compared = 0;
    std::vector<std::pair<std::string, std::shared_ptr<const Tokenizer>>> tokenizers;
    for (const auto& [name, byLength] : references.items()) {
        tokenizers.emplace_back(name, loadTokenizer(root_ / name));
        // BERT's folders through vocab.txt's WordPiece tokenizer too (a folder without
        // tokenizer.json loads as that one).
        if (name.rfind("bert-", 0) == 0) {
            tokenizers.emplace_back(name, std::make_shared<WordPieceTokenizer>(
                                              WordPieceTokenizer::fromModelFolder(root_ / name)));
        }
    }
    for (const auto& [name, tok] : tokenizers) {
        const auto& byLength = references[name];
        std::size_t differ = 0;
        for (const std::size_t length : lengths) {
            const auto& rows = byLength[std::to_string(length)];
            ASSERT_EQ(rows.size(), lists.size());
            for (std::size_t i = 0; i < lists.size(); ++i) {
                const auto ours = tok->encodeWords(lists[i], length);
                const auto wantIds = rows[i][0].get<Ids>();
                const auto wantWords = rows[i][1].get<Ids>();
                const auto wantCut = rows[i][2].get<std::size_t>();
                ++compared;
                if (ours.encoding.inputIds == wantIds && ours.wordIds == wantWords &&
                    ours.wordsCut == wantCut) {
                    EXPECT_EQ(ours.encoding.attentionMask, Ids(wantIds.size(), 1));
                    EXPECT_EQ(ours.encoding.tokenTypeIds.size(), wantIds.size());
                    continue;
                }
                if (++differ <= 3) {
                    std::cout << name << " words " << i << " (max_length " << length
                              << ") differ: " << nlohmann::json(lists[i]).dump().substr(0, 200)
                              << "\n  ours:   "
                              << nlohmann::json(ours.encoding.inputIds).dump().substr(0, 200) << " "
                              << nlohmann::json(ours.wordIds).dump().substr(0, 200) << " cut "
                              << ours.wordsCut << "\n  theirs: " << rows[i][0].dump().substr(0, 200)
                              << " " << rows[i][1].dump().substr(0, 200) << " cut " << wantCut
                              << "\n";
                }
            }
        }
        EXPECT_EQ(differ, 0U) << name << " (" << tok->kind() << "): word lists encode differently";
    }
    std::cout << lists.size() << " word lists x " << lengths.size() << " max lengths x "
              << tokenizers.size() << " tokenizers (" << references.size()
              << " layouts, BERT's also as vocab.txt WordPiece): " << compared
              << " encodings compared\n";
}

TEST_F(WordSplitParity, RobertaWithAPrefixSpaceGivesEachWordItsLeadingSpace) {
    // run_ner.py's setting changes the ids: without it every word reads as the start of a text.
    const std::vector<std::string> words = {"John", "lives", "in", "Paris"};
    const auto plain = loadTokenizer(root_ / "roberta")->encodeWords(words);
    const auto prefixed = loadTokenizer(root_ / "roberta-prefix")->encodeWords(words);
    EXPECT_NE(plain.encoding.inputIds, prefixed.encoding.inputIds);
    EXPECT_EQ(prefixed.encoding.inputIds,
              loadTokenizer(root_ / "roberta")->encode(" John lives in Paris").inputIds);
}

TEST_F(WordSplitParity, RobertaLoadedForWordsIsRunNersTokenizerAndSavesSo) {
    // loadTokenizerForWords on the plain RoBERTa folder gives what transformers gives with
    // add_prefix_space=True (the roberta-prefix references), and the folder it saves keeps it.
    const auto tok = loadTokenizerForWords(root_ / "roberta");
    const auto lists = (*data_)["words"].get<std::vector<std::vector<std::string>>>();
    const auto& rows = (*data_)["references"]["roberta-prefix"]["0"];
    std::size_t differ = 0;
    for (std::size_t i = 0; i < lists.size(); ++i) {
        differ += tok->encodeWords(lists[i]).encoding.inputIds != rows[i][0].get<Ids>();
    }
    EXPECT_EQ(differ, 0U);
    const auto saved = dir_->path() / "saved-roberta-words";
    std::filesystem::create_directories(saved);
    tok->save(saved, 512);
    const auto config = nlohmann::json::parse(test::readFile(saved / "tokenizer_config.json"));
    EXPECT_EQ(config.value("add_prefix_space", false), true);
    const auto again = loadTokenizer(saved);
    for (std::size_t i = 0; i < std::min<std::size_t>(lists.size(), 50); ++i) {
        EXPECT_EQ(again->encodeWords(lists[i]).encoding.inputIds, rows[i][0].get<Ids>()) << i;
    }
    // Other families load as they are: BERT has no such setting, XLM-R prepends already.
    for (const char* name : {"bert-cased", "xlmr", "modernbert"}) {
        EXPECT_EQ(loadTokenizerForWords(root_ / name)->encodeWords(lists[0]).encoding.inputIds,
                  loadTokenizer(root_ / name)->encodeWords(lists[0]).encoding.inputIds)
            << name;
    }
}

TEST_F(WordSplitParity, LabelsAlignToTheFirstSubWordOfEachWord) {
    // Chinese characters through XLM-R: "▁" may be a token of its own before a character.
    const auto tok = loadTokenizer(root_ / "xlmr");
    const std::vector<std::string> words = {"我", "们", "在", "北", "京"};
    const auto encoded = tok->encodeWords(words);
    const auto labels = alignLabels(encoded.wordIds, {0, 0, 0, 1, 2});
    ASSERT_EQ(labels.size(), encoded.wordIds.size());
    std::size_t labelled = 0;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const bool first =
            encoded.wordIds[i] >= 0 && (i == 0 || encoded.wordIds[i - 1] != encoded.wordIds[i]);
        EXPECT_EQ(labels[i] != kIgnoredLabel, first) << i;
        labelled += first;
    }
    EXPECT_EQ(labelled, words.size());
}

}  // namespace
}  // namespace bert
