#include "text/Utf8.h"

namespace bert::utf8 {

namespace {
constexpr bool isContinuation(unsigned char byte) {
    return (byte & 0xC0U) == 0x80U;
}
}  // namespace

char32_t decode(std::string_view text, std::size_t& pos) noexcept {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80U) {
        ++pos;
        return lead;
    }
    std::size_t extra = 0;
    char32_t cp = 0;
    char32_t minimum = 0;
    if ((lead & 0xE0U) == 0xC0U) {
        extra = 1;
        cp = lead & 0x1FU;
        minimum = 0x80;
    } else if ((lead & 0xF0U) == 0xE0U) {
        extra = 2;
        cp = lead & 0x0FU;
        minimum = 0x800;
    } else if ((lead & 0xF8U) == 0xF0U) {
        extra = 3;
        cp = lead & 0x07U;
        minimum = 0x10000;
    } else {
        ++pos;
        return kReplacement;
    }
    if (pos + extra >= text.size()) {  // truncated sequence
        ++pos;
        return kReplacement;
    }
    for (std::size_t i = 1; i <= extra; ++i) {
        const auto byte = static_cast<unsigned char>(text[pos + i]);
        if (!isContinuation(byte)) {
            ++pos;
            return kReplacement;
        }
        cp = (cp << 6U) | (byte & 0x3FU);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        ++pos;
        return kReplacement;
    }
    pos += extra + 1;
    return cp;
}

void append(std::string& out, char32_t cp) {
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        cp = kReplacement;
    }
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0U | (cp >> 6U)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0U | (cp >> 12U)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    } else {
        out.push_back(static_cast<char>(0xF0U | (cp >> 18U)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 12U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU)));
        out.push_back(static_cast<char>(0x80U | (cp & 0x3FU)));
    }
}

std::string sanitize(std::string_view text, std::size_t* replaced) {
    std::string out;
    out.reserve(text.size());
    std::size_t count = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        const char32_t cp = decode(text, pos);
        if (cp == kReplacement && !(pos - start == 3 && text.substr(start, 3) == "\xEF\xBF\xBD")) {
            ++count;
            append(out, cp);
        } else {
            out.append(text.substr(start, pos - start));
        }
    }
    if (replaced != nullptr) {
        *replaced = count;
    }
    return out;
}

Validity validity(std::string_view text) noexcept {
    Validity result;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        const char32_t cp = decode(text, pos);
        if (pos - start > 1) {
            result.multiByte = true;
        } else if (cp == kReplacement) {
            result.valid = false;
        }
        if (result.multiByte && !result.valid) {
            break;
        }
    }
    return result;
}

std::string fromWindows1252(std::string_view text) {
    // 0x80 to 0x9F; the rest of the upper half is Latin-1, the code point of the byte's value.
    static constexpr char16_t kHigh[32] = {
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x80U) {
            out.push_back(c);
        } else if (byte < 0xA0U) {
            append(out, kHigh[byte - 0x80U]);
        } else {
            append(out, byte);
        }
    }
    return out;
}

std::size_t length(std::string_view text) noexcept {
    std::size_t count = 0;
    for (const char c : text) {
        count += isContinuation(static_cast<unsigned char>(c)) ? 0 : 1;
    }
    return count;
}

std::string prefix(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes) {
        return std::string(text);
    }
    std::size_t end = maxBytes;
    while (end > 0 && isContinuation(static_cast<unsigned char>(text[end]))) {
        --end;  // text[end] starts the character that would be cut
    }
    return std::string(text.substr(0, end)) + "\u2026";
}

}  // namespace bert::utf8
