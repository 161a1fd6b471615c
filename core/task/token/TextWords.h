#pragma once

#include <string>

#include "data/TaggedReader.h"
#include "data/WordSplit.h"

namespace bert {

/// A typed text as the words a tagging model reads (`predict` and Try it), cut as the run's
/// data was (data/WordSplit.h): runs of text between spaces with each Chinese character a word
/// of its own (CoNLL and JSONL data; MSRA's character-level tags), or every character a word
/// (CLUENER's span JSON). The sentence keeps the text and each word's byte span and code point
/// offset in it, so entities are placed in the text as typed (task/token/EntityText.h); every
/// tag is "O".
TaggedSentence wordsOfText(const std::string& text, WordSplit split = WordSplit::Words);

}  // namespace bert
