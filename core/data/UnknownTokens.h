#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace bert {

/// Above this share of unknown tokens the studio warns that the model cannot read the text:
/// a model for English reads a few emoji and rare symbols as unknown (well under 1% of the
/// tokens of English e-mails), while Chinese reviews under an English vocabulary are 70% unknown.
constexpr double kUnknownTokenWarningShare = 0.03;

/// How much of a dataset the chosen model's vocabulary cannot read: the text's tokens that
/// became the unknown token ([UNK]), against all of its tokens (the special tokens the template
/// adds, [CLS] and [SEP], are not counted). A model that reads a language it was not trained
/// for learns nothing from it, and nothing else says so.
struct UnknownTokenShare {
    std::size_t unknown = 0;
    std::size_t tokens = 0;
    /// The tokenizer's own unknown token ("[UNK]", "<unk>"), set by add(encoding, tokenizer);
    /// empty when it has none or add was given ids alone.
    std::string unknownToken;

    /// Counts the ids of one encoded example: unknownId in both totals, the other ids in
    /// specialIds in neither. Without an unknown token (byte-level BPE reads any byte) nothing
    /// is unknown.
    void add(const std::vector<std::int32_t>& ids, std::optional<std::int32_t> unknownId,
             const std::vector<std::int32_t>& specialIds);
    /// The same for an encoding of tokenizer, whatever its family (WordPiece, BPE, Unigram):
    /// its unkId() and specialIds().
    void add(const Encoding& encoding, const Tokenizer& tokenizer);
    /// unknown / tokens, 0 without tokens.
    double share() const;
    /// Whether the share is high enough to warn of (kUnknownTokenWarningShare).
    bool warns() const { return share() > kUnknownTokenWarningShare; }
};

/// The warning for a share that warns(), in proportion to it, naming the tokenizer's own
/// unknown token; "" when it does not warn. Above half: "it cannot read this text, and a run
/// would learn little beyond chance"; from 10%: "a run learns from the rest of the text only";
/// below that (3% to 10%): "some words are lost to it". Each ends by advising a model for the
/// language. "7.2% of the tokens are unknown to the model's vocabulary (<unk>): some words are
/// lost to it; a model for this language would read more of it."
std::string unknownTokenWarning(const UnknownTokenShare& share);

}  // namespace bert
