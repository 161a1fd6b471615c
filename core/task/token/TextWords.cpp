#include "task/token/TextWords.h"

namespace bert {

TaggedSentence wordsOfText(const std::string& text, WordSplit split) {
    TaggedSentence sentence;
    sentence.text = text;
    sentence.wordSpans = splitWords(text, split);
    for (const auto& span : sentence.wordSpans) {
        sentence.words.push_back(text.substr(span.byteBegin, span.byteEnd - span.byteBegin));
    }
    sentence.tags.assign(sentence.words.size(), "O");
    return sentence;
}

}  // namespace bert
