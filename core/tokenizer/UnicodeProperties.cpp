#include "tokenizer/UnicodeProperties.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>

#include <utf8proc.h>

#include "text/Utf8.h"

namespace bert::unicode {

namespace {

struct CodePointRange {
    char32_t first;
    char32_t last;
};

struct LowercaseMapping {
    char32_t from;
    char32_t to;
    char32_t second;  ///< 0, or the second code point of a two-character lowercase (U+0130)
};

struct StripException {
    char32_t from;
    std::size_t count;
    char32_t parts[4];
};

#include "tokenizer/BertUnicodeTables.inc"
#include "tokenizer/TokenizerUnicodeTables.inc"

template <std::size_t N>
bool inRanges(const CodePointRange (&ranges)[N], char32_t cp) noexcept {
    const auto* end = ranges + N;
    const auto* it = std::upper_bound(
        ranges, end, cp, [](char32_t value, const CodePointRange& r) { return value < r.first; });
    return it != ranges && cp <= (it - 1)->last;
}

}  // namespace

bool isWhitespace(char32_t cp) noexcept {
    switch (cp) {
        case 0x09:
        case 0x0A:
        case 0x0B:
        case 0x0C:
        case 0x0D:
        case 0x20:
        case 0x85:
        case 0xA0:
        case 0x1680:
        case 0x2028:
        case 0x2029:
        case 0x202F:
        case 0x205F:
        case 0x3000:
            return true;
        default:
            return cp >= 0x2000 && cp <= 0x200A;
    }
}

bool isDroppedByCleanText(char32_t cp) noexcept {
    if (cp == '\t' || cp == '\n' || cp == '\r') {
        return false;
    }
    return cp == 0 || cp == utf8::kReplacement || inRanges(kBertControlRanges, cp);
}

bool isPunctuation(char32_t cp) noexcept {
    if (cp < 0x80) {
        return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
               (cp >= 123 && cp <= 126);
    }
    return inRanges(kBertPunctuationRanges, cp);
}

bool isChineseChar(char32_t cp) noexcept {
    return cp >= 0x3400 && inRanges(kBertChineseRanges, cp);
}

bool isNonspacingMark(char32_t cp) noexcept {
    return cp >= 0x300 && inRanges(kBertNonspacingMarkRanges, cp);
}

bool isCombiningMark(char32_t cp) noexcept {
    return cp >= 0x300 && inRanges(kCombiningMarkRanges, cp);
}

bool isNumeric(char32_t cp) noexcept {
    if (cp < 0x80) {
        return cp >= '0' && cp <= '9';
    }
    return inRanges(kNumericRanges, cp);
}

bool isWordChar(char32_t cp) noexcept {
    if (cp < 0x80) {
        return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
               cp == '_';
    }
    return inRanges(kWordCharRanges, cp);
}

namespace {

template <std::size_t N>
std::string classMembers(const CodePointRange (&ranges)[N]) {
    std::string out;
    char buffer[48];
    for (const auto& range : ranges) {
        std::snprintf(buffer, sizeof(buffer), "\\x{%X}-\\x{%X}",
                      static_cast<unsigned>(range.first), static_cast<unsigned>(range.last));
        out += buffer;
    }
    return out;
}

}  // namespace

const std::string& regexExtraClassMembers(bool letters) {
    static const std::string letterMembers = classMembers(kRegexExtraLetterRanges);
    static const std::string numberMembers = classMembers(kRegexExtraNumberRanges);
    return letters ? letterMembers : numberMembers;
}

std::size_t lowercase(char32_t cp, char32_t out[2]) noexcept {
    if (cp < 0x80) {
        out[0] = cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp;
        return 1;
    }
    const auto* end = std::end(kBertLowercase);
    const auto* it =
        std::lower_bound(std::begin(kBertLowercase), end, cp,
                         [](const LowercaseMapping& m, char32_t value) { return m.from < value; });
    if (it == end || it->from != cp) {
        out[0] = cp;
        return 1;
    }
    out[0] = it->to;
    if (it->second != 0) {
        out[1] = it->second;
        return 2;
    }
    return 1;
}

std::size_t stripAccents(char32_t cp, char32_t out[kMaxStripped]) noexcept {
    if (cp < 0xC0) {
        out[0] = cp;
        return 1;
    }
    const auto* end = std::end(kBertStripExceptions);
    const auto* exception =
        std::lower_bound(std::begin(kBertStripExceptions), end, cp,
                         [](const StripException& e, char32_t value) { return e.from < value; });
    if (exception != end && exception->from == cp) {
        std::copy(exception->parts, exception->parts + exception->count, out);
        return exception->count;
    }
    std::array<utf8proc_int32_t, kMaxStripped> parts{};
    int lastBoundClass = 0;
    const auto count =
        utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), parts.data(), parts.size(),
                                UTF8PROC_DECOMPOSE, &lastBoundClass);
    if (count <= 0 || static_cast<std::size_t>(count) > parts.size()) {
        out[0] = cp;
        return 1;
    }
    std::size_t kept = 0;
    for (utf8proc_ssize_t i = 0; i < count; ++i) {
        const auto part = static_cast<char32_t>(parts[static_cast<std::size_t>(i)]);
        if (!isNonspacingMark(part)) {
            out[kept++] = part;
        }
    }
    return kept;
}

namespace {

// utf8proc's normal form of one run of text (no code point the reference does not know).
void appendNormalized(std::string& out, std::string_view run, NormalForm form) {
    if (run.empty()) {
        return;
    }
    int options = UTF8PROC_STABLE;
    switch (form) {
        case NormalForm::NFC:
            options |= UTF8PROC_COMPOSE;
            break;
        case NormalForm::NFD:
            options |= UTF8PROC_DECOMPOSE;
            break;
        case NormalForm::NFKC:
            options |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
            break;
        case NormalForm::NFKD:
            options |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
            break;
    }
    utf8proc_uint8_t* result = nullptr;
    const auto length =
        utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(run.data()),
                     static_cast<utf8proc_ssize_t>(run.size()),
                     &result, static_cast<utf8proc_option_t>(options));
    std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(result, &std::free);
    if (length < 0) {
        out.append(run);  // invalid UTF-8 cannot reach here (text is sanitised first)
        return;
    }
    out.append(reinterpret_cast<const char*>(result), static_cast<std::size_t>(length));
}

}  // namespace

std::string normalize(std::string_view text, NormalForm form) {
    std::string out;
    out.reserve(text.size());
    if (std::all_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
        out.assign(text);  // ASCII is in every normal form
        return out;
    }
    // Code points the reference does not know (newer than its tables) are kept as they are: to
    // it they decompose to nothing, have combining class 0 and compose with nothing, so they
    // split the text into runs normalised independently.
    std::size_t runStart = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        const char32_t cp = utf8::decode(text, pos);
        if (cp >= 0x7FD && inRanges(kNormalizationUnknownRanges, cp)) {
            appendNormalized(out, text.substr(runStart, start - runStart), form);
            out.append(text.substr(start, pos - start));
            runStart = pos;
        }
    }
    appendNormalized(out, text.substr(runStart), form);
    return out;
}

std::size_t graphemeLength(std::string_view text, std::size_t pos) noexcept {
    std::size_t next = pos;
    char32_t previous = utf8::decode(text, next);
    utf8proc_int32_t state = 0;
    while (next < text.size()) {
        std::size_t after = next;
        const char32_t cp = utf8::decode(text, after);
        if (utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(previous),
                                             static_cast<utf8proc_int32_t>(cp), &state)) {
            break;
        }
        previous = cp;
        next = after;
    }
    return next - pos;
}

}  // namespace bert::unicode
