#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bert::unicode {

/// Character classes and mappings as the `tokenizers` library (transformers' fast tokenizers)
/// applies them. Its Rust crates carry Unicode tables of different ages, so each answer comes
/// from a table probed from the reference itself (scripts/gen_bert_unicode_tables.py,
/// scripts/gen_tokenizer_unicode_tables.py), not from one Unicode version.

/// Rust's char::is_whitespace (the White_Space property).
bool isWhitespace(char32_t cp) noexcept;
/// What BertNormalizer's clean_text drops: NUL, U+FFFD and "other" characters except tab,
/// newline and carriage return.
bool isDroppedByCleanText(char32_t cp) noexcept;
/// BertPreTokenizer's and Punctuation's split characters: ASCII punctuation or Unicode P*.
bool isPunctuation(char32_t cp) noexcept;
/// The CJK ideographs BertNormalizer surrounds with spaces.
bool isChineseChar(char32_t cp) noexcept;
/// The nonspacing marks BertNormalizer's strip_accents drops after NFD.
bool isNonspacingMark(char32_t cp) noexcept;
/// The combining marks the StripAccents normalizer drops.
bool isCombiningMark(char32_t cp) noexcept;
/// Rust's char::is_numeric (the Digits pre-tokenizer).
bool isNumeric(char32_t cp) noexcept;
/// The regex crate's \w (the Whitespace pre-tokenizer, single-word added tokens).
bool isWordChar(char32_t cp) noexcept;

/// The code points the reference's regex engine (Oniguruma, of a newer Unicode) counts in \p{L}
/// (letters true) or \p{N} and PCRE2 does not, as character-class members ("\x{1C89}-\x{1C8A}..."),
/// for the regex translation (tokenizer/json/Regex.cpp).
const std::string& regexExtraClassMembers(bool letters);

/// Rust's char::to_lowercase: writes one or two code points to out, returns how many.
std::size_t lowercase(char32_t cp, char32_t out[2]) noexcept;
/// BertNormalizer's accent stripping of one code point (NFD, then nonspacing marks dropped):
/// writes up to kMaxStripped code points to out, returns how many.
inline constexpr std::size_t kMaxStripped = 8;
std::size_t stripAccents(char32_t cp, char32_t out[kMaxStripped]) noexcept;

/// The four Unicode normal forms, as the reference's normalizers compute them (code points it
/// does not know are kept as they are).
enum class NormalForm { NFC, NFD, NFKC, NFKD };
std::string normalize(std::string_view text, NormalForm form);

/// Byte length of the extended grapheme cluster that starts at text[pos] (valid UTF-8).
std::size_t graphemeLength(std::string_view text, std::size_t pos) noexcept;

}  // namespace bert::unicode
