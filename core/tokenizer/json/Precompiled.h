#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bert::tokenizer_json {

/// SentencePiece's precompiled character map (tokenizer.json's Precompiled normalizer, which
/// XLM-R and CamemBERT carry): a Darts-clone double-array trie over UTF-8 byte strings whose
/// values are offsets into a block of NUL-terminated replacements. Read here directly (the
/// format is small and fixed: a little-endian u32 trie size, the trie's u32 units, the
/// replacements), because the reference to equal is the `tokenizers` library's reading of it,
/// which differs from SentencePiece's own normalizer (below).
class PrecompiledCharsMap {
public:
    /// Parses the decoded bytes of precompiled_charsmap. Throws std::invalid_argument naming
    /// what is wrong (too short, a trie past the end, replacements that are not UTF-8).
    explicit PrecompiledCharsMap(std::string_view bytes);

    /// The replacement of chunk, as spm_precompiled's transform(): the value of the SHORTEST
    /// key that is a prefix of chunk, whatever chunk's length (the reference replaces a whole
    /// grapheme by its first prefix's replacement). nullopt where no key is a prefix. Lookups
    /// outside the trie, or values outside the replacements, count as no match.
    std::optional<std::string_view> transform(std::string_view chunk) const;

    /// The Precompiled normalizer of the reference: each extended grapheme cluster shorter
    /// than 6 bytes is replaced as a whole where it has a replacement; otherwise each of its
    /// code points is replaced where it has one.
    std::string normalize(std::string_view text) const;

private:
    std::vector<std::uint32_t> units_;
    std::string replacements_;
};

}  // namespace bert::tokenizer_json
