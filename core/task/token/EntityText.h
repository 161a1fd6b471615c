#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "data/TaggedReader.h"
#include "task/token/EntityMetrics.h"

namespace bert {

/// An entity placed in a sentence's text, for `predict --file`'s JSONL and Try it's highlights.
struct TextEntity {
    std::string type;
    std::string text;           ///< the entity's words as they read in the text
    std::size_t byteBegin = 0;  ///< first byte in the text
    std::size_t byteEnd = 0;    ///< one past the last byte
    std::size_t charBegin = 0;  ///< first code point: CLUENER's start offset
    std::size_t charEnd = 0;    ///< last code point, included: CLUENER's end offset
};

/// The text entities are placed in: a span-JSON sentence's original text, or else its words
/// joined by single spaces (CoNLL and JSONL keep no other text).
std::string sentenceText(const TaggedSentence& sentence);

/// Entities over word indices ([begin, end) of sentence.words, see entitiesOf) placed in
/// sentenceText(sentence). Entities reaching past the sentence's words are clipped to them (a
/// prediction over a truncated sentence never covers more than its words).
std::vector<TextEntity> entitiesInText(const TaggedSentence& sentence,
                                       const std::vector<EntitySpan>& entities);

}  // namespace bert
