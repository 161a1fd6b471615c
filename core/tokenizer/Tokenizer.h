#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bert {

/// One encoded example: ids with the model's special tokens, segment ids and the attention mask
/// (all ones: padding happens when a batch is formed).
struct Encoding {
    std::vector<std::int32_t> inputIds;
    std::vector<std::int32_t> tokenTypeIds;
    std::vector<std::int32_t> attentionMask;

    std::size_t size() const { return inputIds.size(); }
};

/// Pre-split words encoded for token classification: what transformers gives for
/// `tokenizer(words, is_split_into_words=True, truncation=True, max_length=N)`.
struct WordEncoding {
    Encoding encoding;
    /// The word each token comes from, -1 for the template's special tokens (transformers'
    /// word_ids(), where they are None). A word may give several tokens, or none at all.
    std::vector<std::int32_t> wordIds;
    /// Words whose first token did not fit in max length (their tags are never trained on);
    /// the studio reports them.
    std::size_t wordsCut = 0;
    /// Words that give no token at all (an empty word, or one the normalizer removes, such as
    /// a lone control character): they carry no label either, truncated or not.
    std::size_t wordsWithoutTokens = 0;
};

/// What the engine asks of a tokenizer, whatever its model (WordPiece, byte-level BPE, Unigram)
/// and whichever file it came from (vocab.txt, tokenizer.json). Every implementation gives the
/// ids of transformers' fast tokenizer for the same folder: its special-token template for
/// single texts and pairs (BERT's [CLS] A [SEP] B [SEP], RoBERTa's <s> A </s></s> B </s>),
/// special tokens written in the raw text matched before anything else, and longest-first
/// truncation of pairs. Implementations are immutable once built and safe to use from several
/// threads at once.
class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    /// Ids of text without special tokens. With a limit, tokenising may stop once more than
    /// `limit` ids are known; the ids returned then start with the full tokenisation's first
    /// ones (a 100 KB e-mail truncated to 128 tokens costs its first few hundred bytes).
    virtual std::vector<std::int32_t> tokenizeToIds(
        std::string_view text,
        std::size_t limit = std::numeric_limits<std::size_t>::max()) const = 0;
    /// Token strings of text without special tokens (for display and debugging).
    virtual std::vector<std::string> tokenize(std::string_view text) const = 0;

    /// The single-text template around text, truncated to maxLength tokens in all (0: no
    /// limit).
    virtual Encoding encode(std::string_view text, std::size_t maxLength = 0) const = 0;
    /// The pair template, truncated longest-first to maxLength (0: no limit). An empty second
    /// text is no pair at all, as in transformers.
    virtual Encoding encodePair(std::string_view first, std::string_view second,
                                std::size_t maxLength = 0) const = 0;

    /// Words already split (CoNLL tokens, CLUENER characters) under the single-text template,
    /// truncated to maxLength tokens in all (0: no limit), with the word of each token. As in
    /// the `tokenizers` library's pre-tokenized input, each word goes through the whole
    /// pipeline on its own (special tokens written in it, normalizer, pre-tokenizer, model): a
    /// word is never merged with its neighbour, and for byte-level BPE it gets no leading space
    /// unless the tokenizer adds one (tokenizer_config.json's add_prefix_space, which
    /// transformers' run_ner.py sets for RoBERTa); Metaspace (XLM-R) prepends its "▁" to each.
    virtual WordEncoding encodeWords(const std::vector<std::string>& words,
                                     std::size_t maxLength = 0) const = 0;

    /// Id of a token string, or nullopt.
    virtual std::optional<std::int32_t> tokenId(std::string_view token) const = 0;
    /// The token string of an id in [0, vocabularySize()).
    virtual std::string tokenString(std::int32_t id) const = 0;
    /// Ids in the vocabulary, added tokens included.
    virtual std::size_t vocabularySize() const = 0;

    virtual std::int32_t padId() const = 0;
    /// The unknown token's id; nullopt for a tokenizer that never produces one (byte-level BPE).
    virtual std::optional<std::int32_t> unkId() const = 0;
    /// Ids of the special tokens (those the template adds, padding, unknown, mask, and added
    /// tokens marked special).
    virtual std::vector<std::int32_t> specialIds() const = 0;

    /// Whether the text is lower-cased before tokenising (uncased vocabularies).
    virtual bool lowercases() const = 0;
    /// What it is, for people: "WordPiece", "byte-level BPE", "Unigram".
    virtual std::string kind() const = 0;
    /// The file it was read from (vocab.txt, tokenizer.json), or empty.
    virtual std::filesystem::path source() const = 0;

    /// Writes the files transformers' AutoTokenizer loads to give the same ids (tokenizer.json
    /// or vocab.txt, tokenizer_config.json with model_max_length, special_tokens_map.json), each
    /// replaced atomically.
    virtual void save(const std::filesystem::path& folder, std::size_t modelMaxLength) const = 0;
};

/// The tokenizer of a transformers model folder: tokenizer.json when present, vocab.txt (with
/// tokenizer_config.json) otherwise. Throws InputError naming the file and the problem.
std::shared_ptr<const Tokenizer> loadTokenizer(const std::filesystem::path& modelFolder);

/// The tokenizer of a model folder as transformers' token-classification example (run_ner.py)
/// loads it for pre-split words: as loadTokenizer, except that RoBERTa's byte-level BPE gets
/// add_prefix_space=True, so that each word is tokenized as it reads inside a sentence (" Paris",
/// not "Paris" at the start of a text). The setting is kept in the tokenizer_config.json that
/// save() writes, so the exported folder gives transformers the same ids.
std::shared_ptr<const Tokenizer> loadTokenizerForWords(const std::filesystem::path& modelFolder);

}  // namespace bert
