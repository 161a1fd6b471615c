#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/json/JsonContext.h"

namespace bert::tokenizer_json {

/// A piece of normalised text on its way to the model.
struct Piece {
    std::string text;
    /// Whether the piece starts where the original text starts (Metaspace's "first" scheme).
    bool atStart = false;
};

/// One pre-tokenizer of tokenizer.json ("pre_tokenizer"): splits each piece further, as the
/// `tokenizers` library's pre-tokenizer of the same type and settings (empty pieces dropped).
/// Immutable once built.
class PreTokenizer {
public:
    virtual ~PreTokenizer() = default;
    virtual std::vector<Piece> split(std::vector<Piece> pieces) const = 0;
};

/// Builds the pre-tokenizer a JSON object describes: BertPreTokenizer, ByteLevel, Metaspace,
/// Whitespace, WhitespaceSplit, Split, Punctuation, Digits, CharDelimiterSplit, Sequence.
/// Throws InputError naming the file and the field for an unknown type or a bad setting.
std::unique_ptr<const PreTokenizer> parsePreTokenizer(const nlohmann::json& value,
                                                      const JsonContext& context);

}  // namespace bert::tokenizer_json
