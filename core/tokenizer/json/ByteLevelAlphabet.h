#pragma once

#include <string>
#include <string_view>

namespace bert::tokenizer_json {

/// GPT-2's byte-to-character table (tokenizers' bytes_char): every byte of text becomes one
/// printable code point (a space is "Ġ", a newline "Ċ"), so a byte-level BPE vocabulary covers
/// any input without an unknown token.
std::string byteLevelEncode(std::string_view text);

}  // namespace bert::tokenizer_json
