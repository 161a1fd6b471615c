#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace bert::utf8 {

/// The Unicode replacement character, written for each invalid UTF-8 sequence.
inline constexpr char32_t kReplacement = 0xFFFD;

/// Decodes one code point at text[pos] and advances pos. An invalid or truncated sequence yields
/// kReplacement and advances by one byte (the maximal-subpart practice of Python and ICU is not
/// needed here: one replacement per bad byte is what Python's errors="replace" gives too).
char32_t decode(std::string_view text, std::size_t& pos) noexcept;

/// Appends the UTF-8 encoding of cp (kReplacement for surrogates and values past U+10FFFF).
void append(std::string& out, char32_t cp);

/// Returns text with every invalid sequence replaced by U+FFFD; counts them into replaced.
std::string sanitize(std::string_view text, std::size_t* replaced = nullptr);

/// Whether text is valid UTF-8 throughout, and whether it holds a valid sequence of two bytes
/// or more (a file with bytes that are not UTF-8 and no such sequence is in a one-byte code).
struct Validity {
    bool valid = true;
    bool multiByte = false;
};
Validity validity(std::string_view text) noexcept;

/// Windows-1252 text (a superset of Latin-1: what Excel saves as CSV on Windows) as UTF-8. The
/// five bytes it leaves undefined become the C1 code points of the same value, as WHATWG does.
std::string fromWindows1252(std::string_view text);

/// Number of code points in valid UTF-8 text.
std::size_t length(std::string_view text) noexcept;

/// The longest start of valid UTF-8 text that fits in maxBytes and ends at a code point's end
/// (never half a character), with "…" appended when text was cut (the ellipsis may take the
/// result up to 3 bytes past maxBytes).
std::string prefix(std::string_view text, std::size_t maxBytes);

}  // namespace bert::utf8
