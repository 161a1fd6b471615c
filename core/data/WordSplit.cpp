#include "data/WordSplit.h"

#include <optional>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert {

std::string toString(WordSplit split) {
    return split == WordSplit::Characters ? "characters" : "words";
}

WordSplit wordSplitFromString(std::string_view name) {
    return name == "characters" ? WordSplit::Characters : WordSplit::Words;
}

std::vector<WordSpan> splitWords(std::string_view text, WordSplit split) {
    std::vector<WordSpan> words;
    std::optional<WordSpan> open;
    auto close = [&] {
        if (open) {
            words.push_back(*open);
            open.reset();
        }
    };
    std::size_t pos = 0;
    std::size_t chars = 0;
    bool afterCharacter = false;  // the last code point was a character a mark may join
    while (pos < text.size()) {
        const auto begin = pos;
        const auto cp = utf8::decode(text, pos);
        const std::size_t index = chars++;
        if (unicode::isWhitespace(cp)) {
            close();
            afterCharacter = false;
            continue;
        }
        const bool mark = unicode::isCombiningMark(cp) || unicode::isNonspacingMark(cp);
        if (mark && afterCharacter && !words.empty() && !open) {
            words.back().byteEnd = pos;  // the mark of a single-character word (CJK, per char)
            continue;
        }
        if (mark && open) {
            open->byteEnd = pos;
            continue;
        }
        afterCharacter = true;
        if (split == WordSplit::Characters || unicode::isChineseChar(cp)) {
            close();
            open = WordSpan{begin, pos, index};
            close();
        } else if (open) {
            open->byteEnd = pos;
        } else {
            open = WordSpan{begin, pos, index};
        }
    }
    close();
    return words;
}

}  // namespace bert
