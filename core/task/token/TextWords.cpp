#include "task/token/TextWords.h"

#include <optional>

#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"

namespace bert {

namespace {

bool isSpace(char32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0x3000 || cp == 0xA0;
}

}  // namespace

TaggedSentence wordsOfText(const std::string& text) {
    TaggedSentence sentence;
    sentence.text = text;
    std::size_t pos = 0;
    std::size_t chars = 0;
    std::optional<WordSpan> open;
    auto close = [&] {
        if (open) {
            sentence.words.push_back(text.substr(open->byteBegin, open->byteEnd - open->byteBegin));
            sentence.wordSpans.push_back(*open);
            open.reset();
        }
    };
    while (pos < text.size()) {
        const auto begin = pos;
        const auto cp = utf8::decode(text, pos);
        if (isSpace(cp)) {
            close();
        } else if (unicode::isChineseChar(cp)) {
            close();
            open = WordSpan{begin, pos, chars};
            close();
        } else if (open) {
            open->byteEnd = pos;
        } else {
            open = WordSpan{begin, pos, chars};
        }
        ++chars;
    }
    close();
    sentence.tags.assign(sentence.words.size(), "O");
    return sentence;
}

}  // namespace bert
