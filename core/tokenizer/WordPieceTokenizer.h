#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace bert {

/// How text is normalised before WordPiece; the fields and defaults of transformers'
/// BertTokenizerFast (tokenizer_config.json: do_lower_case, strip_accents, tokenize_chinese_chars).
struct TokenizerOptions {
    bool lowercase = true;                   ///< do_lower_case: uncased vocabularies
    std::optional<bool> stripAccents;        ///< unset: follows lowercase, as in transformers
    bool handleChineseChars = true;          ///< put spaces around CJK ideographs
    bool cleanText = true;                   ///< drop control characters, map whitespace to ' '
    std::size_t maxInputCharsPerWord = 100;  ///< longer words become [UNK]
    std::string unkToken = "[UNK]";
    std::string clsToken = "[CLS]";
    std::string sepToken = "[SEP]";
    std::string padToken = "[PAD]";
    std::string maskToken = "[MASK]";

    bool effectiveStripAccents() const { return stripAccents.value_or(lowercase); }
};

/// BERT WordPiece tokenizer reading vocab.txt, producing the ids of transformers'
/// BertTokenizerFast: BertNormalizer (clean text, CJK spacing, accent stripping, lower-casing),
/// BertPreTokenizer (whitespace and punctuation splits), WordPiece (greedy longest match,
/// "##" continuations, [UNK] for a word that cannot be covered or has more than 100 characters),
/// special tokens written in the raw text recognised before normalisation, and longest-first
/// truncation of pairs. Thread-safe for concurrent encoding once constructed.
class WordPieceTokenizer final : public Tokenizer {
public:
    /// Reads vocab.txt (one token per line, id = line number). Throws InputError naming the
    /// file when it is missing, empty, or lacks one of the special tokens.
    static WordPieceTokenizer fromVocabFile(const std::filesystem::path& vocabFile,
                                            TokenizerOptions options = {});
    /// Reads a model folder's vocabulary: vocab.txt with tokenizer_config.json, or, where
    /// vocab.txt is absent (transformers 5 saves), the WordPiece model of tokenizer.json.
    static WordPieceTokenizer fromModelFolder(const std::filesystem::path& folder);
    /// The WordPiece model of tokenizer.json text (source names it in errors).
    static WordPieceTokenizer fromTokenizerJson(std::string_view text,
                                                const std::filesystem::path& source);

    WordPieceTokenizer(std::vector<std::string> vocabulary, TokenizerOptions options,
                       const std::filesystem::path& source = {});

    /// WordPiece ids of text, without special tokens. With a limit, tokenising stops at the
    /// first word boundary past `limit` ids (the ids kept are the full tokenisation's first ones):
    /// a 100 KB e-mail truncated to 128 tokens costs its first few hundred bytes, not all of it.
    std::vector<std::int32_t> tokenizeToIds(
        std::string_view text,
        std::size_t limit = std::numeric_limits<std::size_t>::max()) const override;
    /// The text after BertNormalizer (what the reference's normalize_str returns).
    std::string normalize(std::string_view text) const;
    /// WordPiece strings of text (for display and debugging).
    std::vector<std::string> tokenize(std::string_view text) const override;

    /// [CLS] text [SEP], truncated to maxLength tokens in all (0: no limit).
    Encoding encode(std::string_view text, std::size_t maxLength = 0) const override;
    /// [CLS] first [SEP] second [SEP], truncated longest-first to maxLength (0: no limit).
    Encoding encodePair(std::string_view first, std::string_view second,
                        std::size_t maxLength = 0) const override;

    /// [CLS] words [SEP], each word tokenized on its own (see Tokenizer::encodeWords).
    WordEncoding encodeWords(const std::vector<std::string>& words,
                             std::size_t maxLength = 0) const override;

    /// Id of a token string, or nullopt.
    std::optional<std::int32_t> tokenId(std::string_view token) const override;
    std::string tokenString(std::int32_t id) const override {
        return vocabulary_.at(static_cast<std::size_t>(id));
    }
    std::size_t vocabularySize() const override { return vocabulary_.size(); }
    const std::vector<std::string>& vocabulary() const { return vocabulary_; }
    const TokenizerOptions& options() const { return options_; }

    std::optional<std::int32_t> unkId() const override { return unkId_; }
    std::int32_t clsId() const { return clsId_; }
    std::int32_t sepId() const { return sepId_; }
    std::int32_t padId() const override { return padId_; }
    /// [UNK], [CLS], [SEP], [PAD] and [MASK] (where the vocabulary has it).
    std::vector<std::int32_t> specialIds() const override;

    bool lowercases() const override { return options_.lowercase; }
    std::string kind() const override { return "WordPiece"; }
    std::filesystem::path source() const override { return source_; }

    /// Writes vocab.txt, tokenizer_config.json and special_tokens_map.json into folder.
    void save(const std::filesystem::path& folder, std::size_t modelMaxLength) const override;

private:
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    using TokenMap = std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>>;

    void appendWordPieces(std::string_view word, std::size_t charCount,
                          std::vector<std::int32_t>& out) const;
    void tokenizeSegment(std::string_view text, std::vector<std::int32_t>& out,
                         std::size_t limit) const;

    std::vector<std::string> vocabulary_;
    TokenizerOptions options_;
    std::filesystem::path source_;
    TokenMap wordStarts_;                     ///< tokens that may begin a word
    TokenMap continuations_;                  ///< "##x" tokens, keyed by x
    std::vector<std::string> specialTokens_;  ///< matched in raw text, longest first
    std::int32_t unkId_ = 0;
    std::int32_t clsId_ = 0;
    std::int32_t sepId_ = 0;
    std::int32_t padId_ = 0;
};

}  // namespace bert
