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

/// Number of code points in valid UTF-8 text.
std::size_t length(std::string_view text) noexcept;

}  // namespace bert::utf8
