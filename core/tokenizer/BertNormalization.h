#pragma once

#include <string_view>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert {

/// BertNormalizer's settings (tokenizer.json's "BertNormalizer", or tokenizer_config.json's
/// do_lower_case, strip_accents and tokenize_chinese_chars for vocab.txt).
struct BertNormalization {
    bool cleanText = true;
    bool handleChineseChars = true;
    bool stripAccents = true;
    bool lowercase = true;
};

/// BertNormalizer, one code point at a time: clean text, CJK spacing, accent stripping (NFD,
/// then nonspacing marks dropped), lower-casing. Calls emit(cp) for each code point of the
/// result. Invalid UTF-8 reads as U+FFFD, which clean text drops.
template <typename Emit>
void bertNormalize(std::string_view text, const BertNormalization& options, Emit&& emit) {
    auto emitCased = [&](char32_t cp) {
        if (!options.lowercase) {
            emit(cp);
            return;
        }
        char32_t lowered[2];
        const auto count = unicode::lowercase(cp, lowered);
        for (std::size_t i = 0; i < count; ++i) {
            emit(lowered[i]);
        }
    };
    auto emitStripped = [&](char32_t cp) {
        if (!options.stripAccents || cp < 0xC0) {
            emitCased(cp);
            return;
        }
        char32_t parts[unicode::kMaxStripped];
        const auto count = unicode::stripAccents(cp, parts);
        for (std::size_t i = 0; i < count; ++i) {
            emitCased(parts[i]);
        }
    };
    std::size_t pos = 0;
    while (pos < text.size()) {
        char32_t cp = utf8::decode(text, pos);
        if (options.cleanText) {
            if (unicode::isDroppedByCleanText(cp)) {
                continue;
            }
            if (unicode::isWhitespace(cp)) {
                cp = ' ';
            }
        }
        if (options.handleChineseChars && unicode::isChineseChar(cp)) {
            // Spaced first, then normalised like any character (CJK compatibility ideographs
            // such as U+F900 decompose under NFD).
            emit(U' ');
            emitStripped(cp);
            emit(U' ');
            continue;
        }
        emitStripped(cp);
    }
}

}  // namespace bert
