#include "tokenizer/json/AddedTokens.h"

#include <algorithm>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"
#include "tokenizer/json/Normalizers.h"

namespace bert::tokenizer_json {

namespace {

// The code point that ends text (valid UTF-8, not empty).
char32_t lastCodePoint(std::string_view text) {
    std::size_t start = text.size() - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0U) == 0x80U) {
        --start;
    }
    return utf8::decode(text, start);
}

char32_t firstCodePoint(std::string_view text) {
    std::size_t pos = 0;
    return utf8::decode(text, pos);
}

// Start of the whitespace that ends text (\s*$).
std::size_t trailingSpaceStart(std::string_view text) {
    std::size_t end = text.size();
    while (end > 0) {
        std::size_t start = end - 1;
        while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0U) == 0x80U) {
            --start;
        }
        std::size_t next = start;
        if (!unicode::isWhitespace(utf8::decode(text, next))) {
            break;
        }
        end = start;
    }
    return end;
}

// Length of the whitespace that starts text (^\s*).
std::size_t leadingSpaceLength(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t next = pos;
        if (!unicode::isWhitespace(utf8::decode(text, next))) {
            break;
        }
        pos = next;
    }
    return pos;
}

}  // namespace

AddedVocabulary::AddedVocabulary(std::vector<AddedToken> tokens, const Normalizer* normalizer)
    : tokens_(std::move(tokens)) {
    std::vector<std::pair<std::string, std::int32_t>> raw;
    std::vector<std::pair<std::string, std::int32_t>> normalized;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
        const auto& token = tokens_[i];
        std::string pattern = token.content;
        if (token.normalized && normalizer != nullptr) {
            pattern = normalizer->normalize(std::move(pattern));
        }
        if (pattern.empty()) {
            continue;  // matches nothing (the reference refuses to build such a matcher)
        }
        auto& matcher = token.normalized ? normalized_ : raw_;
        matcher.firstBytes.set(static_cast<unsigned char>(pattern.front()));
        matcher.empty = false;
        (token.normalized ? normalized : raw).emplace_back(std::move(pattern),
                                                           static_cast<std::int32_t>(i));
    }
    raw_.trie = ByteTrie(std::move(raw));
    normalized_.trie = ByteTrie(std::move(normalized));
}

std::vector<Segment> AddedVocabulary::split(std::string_view text, const Matcher& matcher) const {
    std::vector<Segment> segments;
    if (matcher.empty || text.empty()) {
        segments.push_back({text, std::nullopt});
        return segments;
    }
    std::size_t startOffset = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        if (!matcher.firstBytes.test(static_cast<unsigned char>(text[pos]))) {
            ++pos;
            continue;
        }
        const auto [length, index] = matcher.trie.longestPrefix(text.substr(pos));
        if (index < 0) {
            ++pos;
            continue;
        }
        const AddedToken& token = tokens_[static_cast<std::size_t>(index)];
        std::size_t start = pos;
        std::size_t stop = pos + length;
        pos = stop;  // the search goes on after the match, kept or not
        if (token.singleWord) {
            const bool startSpace =
                start == 0 || !unicode::isWordChar(lastCodePoint(text.substr(0, start)));
            const bool stopSpace =
                stop == text.size() || !unicode::isWordChar(firstCodePoint(text.substr(stop)));
            if (!startSpace || !stopSpace) {
                continue;
            }
        }
        if (token.lstrip) {
            start = std::max(trailingSpaceStart(text.substr(0, start)), startOffset);
        }
        if (token.rstrip) {
            stop += leadingSpaceLength(text.substr(stop));
        }
        if (startOffset < start) {
            segments.push_back({text.substr(startOffset, start - startOffset), std::nullopt});
        }
        segments.push_back({text.substr(start, stop - start), token.id});
        startOffset = stop;
    }
    if (startOffset < text.size()) {
        segments.push_back({text.substr(startOffset), std::nullopt});
    }
    return segments;
}

}  // namespace bert::tokenizer_json
