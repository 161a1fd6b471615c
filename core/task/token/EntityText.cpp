#include "task/token/EntityText.h"

#include <algorithm>

#include "text/Utf8.h"

namespace bert {

namespace {

// Each word's place in sentenceText(sentence).
std::vector<WordSpan> spansOf(const TaggedSentence& sentence) {
    if (!sentence.text.empty() && sentence.wordSpans.size() == sentence.words.size()) {
        return sentence.wordSpans;
    }
    std::vector<WordSpan> spans;
    std::size_t bytes = 0;
    std::size_t chars = 0;
    for (const auto& word : sentence.words) {
        spans.push_back({bytes, bytes + word.size(), chars});
        bytes += word.size() + 1;
        chars += utf8::length(word) + 1;
    }
    return spans;
}

}  // namespace

std::string sentenceText(const TaggedSentence& sentence) {
    if (!sentence.text.empty() && sentence.wordSpans.size() == sentence.words.size()) {
        return sentence.text;
    }
    std::string text;
    for (std::size_t i = 0; i < sentence.words.size(); ++i) {
        text += (i == 0 ? "" : " ") + sentence.words[i];
    }
    return text;
}

std::vector<TextEntity> entitiesInText(const TaggedSentence& sentence,
                                       const std::vector<EntitySpan>& entities) {
    const auto spans = spansOf(sentence);
    const std::string text = sentenceText(sentence);
    std::vector<TextEntity> out;
    for (const auto& entity : entities) {
        const std::size_t end = std::min(entity.end, spans.size());
        if (entity.begin >= end) {
            continue;
        }
        const WordSpan& first = spans[entity.begin];
        const WordSpan& last = spans[end - 1];
        TextEntity placed;
        placed.type = entity.type;
        placed.byteBegin = first.byteBegin;
        placed.byteEnd = last.byteEnd;
        placed.text = text.substr(placed.byteBegin, placed.byteEnd - placed.byteBegin);
        placed.charBegin = first.charIndex;
        placed.charEnd =
            last.charIndex + std::max<std::size_t>(utf8::length(sentence.words[end - 1]), 1) - 1;
        out.push_back(std::move(placed));
    }
    return out;
}

}  // namespace bert
