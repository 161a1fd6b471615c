#pragma once

// How a tagging (NER) model's text is cut into the words that carry its tags: one function for
// the training data (data/TaggedReader.h's span JSON) and for prediction (predict, Try it,
// task/token/TextWords.h), so that a run predicts on the words it learnt on (CLUENER text was
// cut per character in training and per Latin run in predict: entity F1 0.857 stored, 0.333 on
// predict's own entities).

#include <string>
#include <string_view>
#include <vector>

#include "data/TaggedReader.h"

namespace bert {

enum class WordSplit {
    /// Runs of text between spaces, each Chinese character a word of its own: the words of
    /// CoNLL and JSONL tokens/tags data, as people type text.
    Words,
    /// Each character but whitespace a word: CLUENER's character-level tagging (span JSON).
    Characters,
};

/// "words" or "characters"; nullopt-free: anything else reads as Words.
std::string toString(WordSplit split);
WordSplit wordSplitFromString(std::string_view name);

/// The words of text as split cuts them, with their places in it. A character is a code point
/// with the combining marks that follow it ("e" + U+0301 is one character, so that offsets in
/// code points cover the mark and no word is a lone mark, which gives no token under accent
/// stripping); a word's charIndex counts code points, as CLUENER's offsets do.
std::vector<WordSpan> splitWords(std::string_view text, WordSplit split);

}  // namespace bert
