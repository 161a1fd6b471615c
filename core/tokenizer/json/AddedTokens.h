#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/json/ByteTrie.h"

namespace bert::tokenizer_json {

class Normalizer;

/// One entry of tokenizer.json's "added_tokens".
struct AddedToken {
    std::string content;
    std::int32_t id = 0;
    bool special = false;
    bool singleWord = false;  ///< matched only where no word character touches it
    bool lstrip = false;      ///< swallows the whitespace on its left
    bool rstrip = false;      ///< swallows the whitespace on its right
    bool normalized = true;   ///< matched in the normalised text rather than the raw text
};

/// A stretch of text: an added token (id set) or text still to be tokenized.
struct Segment {
    std::string_view text;
    std::optional<std::int32_t> id;
};

/// The added tokens, matched before anything else as the reference's AddedVocabulary does:
/// tokens with normalized=false on the raw text, then the others, by their normalised form, on
/// each normalised stretch between; leftmost-longest, then single_word, lstrip and rstrip.
class AddedVocabulary {
public:
    AddedVocabulary() = default;
    /// tokens with their final ids; normalizer (may be null) gives the normalised patterns.
    AddedVocabulary(std::vector<AddedToken> tokens, const Normalizer* normalizer);

    const std::vector<AddedToken>& tokens() const { return tokens_; }
    bool empty() const { return tokens_.empty(); }

    /// Cuts text at the raw (normalized=false) tokens.
    std::vector<Segment> splitRaw(std::string_view text) const { return split(text, raw_); }
    /// Cuts normalised text at the normalised tokens.
    std::vector<Segment> splitNormalized(std::string_view text) const {
        return split(text, normalized_);
    }

private:
    struct Matcher {
        ByteTrie trie;  ///< pattern -> index into tokens_
        std::bitset<256> firstBytes;
        bool empty = true;
    };
    std::vector<Segment> split(std::string_view text, const Matcher& matcher) const;

    std::vector<AddedToken> tokens_;
    Matcher raw_;
    Matcher normalized_;
};

}  // namespace bert::tokenizer_json
