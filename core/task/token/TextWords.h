#pragma once

#include <string>

#include "data/TaggedReader.h"

namespace bert {

/// A typed text as the words a tagging model reads (`predict` and Try it): runs of text between
/// spaces, and each Chinese character a word of its own (CLUENER's and MSRA's character-level
/// tags). The sentence keeps the text and each word's byte span and code point offset in it, so
/// entities are placed in the text as typed (task/token/EntityText.h); every tag is "O".
TaggedSentence wordsOfText(const std::string& text);

}  // namespace bert
