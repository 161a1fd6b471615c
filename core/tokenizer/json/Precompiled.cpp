#include "tokenizer/json/Precompiled.h"

#include <stdexcept>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert::tokenizer_json {

namespace {

std::uint32_t readU32(std::string_view bytes, std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at])) |
           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 1])) << 8U |
           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 2])) << 16U |
           static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 3])) << 24U;
}

// Darts-clone's unit layout.
bool hasLeaf(std::uint32_t unit) { return ((unit >> 8U) & 1U) == 1U; }
std::uint32_t value(std::uint32_t unit) { return unit & ((1U << 31U) - 1U); }
std::uint32_t label(std::uint32_t unit) { return unit & ((1U << 31U) | 0xFFU); }
std::size_t offset(std::uint32_t unit) {
    return static_cast<std::size_t>((unit >> 10U) << ((unit & (1U << 9U)) >> 6U));
}

}  // namespace

PrecompiledCharsMap::PrecompiledCharsMap(std::string_view bytes) {
    if (bytes.size() < 4) {
        throw std::invalid_argument("the character map is too short (" +
                                    std::to_string(bytes.size()) + " bytes)");
    }
    const std::uint32_t trieBytes = readU32(bytes, 0);
    const std::size_t unitCount = trieBytes / 4;
    if (unitCount > (bytes.size() - 4) / 4) {
        throw std::invalid_argument("the character map's trie (" + std::to_string(trieBytes) +
                                    " bytes) runs past its end");
    }
    units_.reserve(unitCount);
    for (std::size_t i = 0; i < unitCount; ++i) {
        units_.push_back(readU32(bytes, 4 + 4 * i));
    }
    replacements_.assign(bytes.substr(4 + 4 * unitCount));
    if (utf8::sanitize(replacements_) != replacements_) {
        throw std::invalid_argument("the character map's replacements are not valid UTF-8");
    }
}

std::optional<std::string_view> PrecompiledCharsMap::transform(std::string_view chunk) const {
    if (units_.empty()) {
        return std::nullopt;
    }
    std::size_t node = offset(units_[0]);
    for (const char c : chunk) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == 0) {
            break;
        }
        node ^= byte;
        if (node >= units_.size()) {
            return std::nullopt;
        }
        const std::uint32_t unit = units_[node];
        if (label(unit) != byte) {
            return std::nullopt;
        }
        node ^= offset(unit);
        if (hasLeaf(unit)) {
            // The first (shortest) key found is the one the reference uses.
            if (node >= units_.size()) {
                return std::nullopt;
            }
            const std::size_t start = value(units_[node]);
            if (start > replacements_.size()) {
                return std::nullopt;
            }
            const std::size_t end = replacements_.find('\0', start);
            const auto replacement = std::string_view(replacements_).substr(
                start, (end == std::string::npos ? replacements_.size() : end) - start);
            // A value pointing inside a UTF-8 sequence would split a character: no match.
            if (start < replacements_.size() &&
                (static_cast<unsigned char>(replacements_[start]) & 0xC0U) == 0x80U) {
                return std::nullopt;
            }
            return replacement;
        }
    }
    return std::nullopt;
}

std::string PrecompiledCharsMap::normalize(std::string_view text) const {
    std::string out;
    out.reserve(text.size());
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t length = unicode::graphemeLength(text, pos);
        const auto grapheme = text.substr(pos, length);
        pos += length;
        if (grapheme.size() < 6) {
            if (const auto replacement = transform(grapheme)) {
                out.append(*replacement);
                continue;
            }
        }
        std::size_t at = 0;
        while (at < grapheme.size()) {
            std::size_t next = at;
            utf8::decode(grapheme, next);
            const auto character = grapheme.substr(at, next - at);
            if (const auto replacement = transform(character)) {
                out.append(*replacement);
            } else {
                out.append(character);
            }
            at = next;
        }
    }
    return out;
}

}  // namespace bert::tokenizer_json
