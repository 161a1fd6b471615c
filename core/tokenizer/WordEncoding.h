#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace bert {

/// The label id transformers' loss ignores (CrossEntropyLoss's ignore_index).
inline constexpr std::int64_t kIgnoredLabel = -100;

/// The ids of pre-split words before the special-token template: each word tokenized alone by
/// tokenizeWord (appending its ids), concatenated, then cut at budget ids (the template's room
/// within max length) as tokenizers truncates, from the right. Words after the cut are not
/// tokenized at all, so a long document costs only what fits. wordIds, wordsCut and
/// wordsWithoutTokens are filled as WordEncoding documents them; encoding is left empty.
WordEncoding splitWordIds(
    const std::vector<std::string>& words, std::size_t budget,
    const std::function<void(const std::string&, std::vector<std::int32_t>&)>& tokenizeWord);

/// Per-token label ids from per-word ones, transformers' token-classification recipe (its
/// run_ner.py and course, label_all_tokens false): the first token of each word carries the
/// word's label; the word's later sub-words and the special tokens (wordIds -1) get
/// kIgnoredLabel, so the loss and the metrics see each word once. wordLabels[w] is word w's
/// label id; a word id outside wordLabels throws std::out_of_range.
std::vector<std::int64_t> alignLabels(const std::vector<std::int32_t>& wordIds,
                                      const std::vector<std::int64_t>& wordLabels);

/// The reverse for prediction: each word's predicted label id is its first token's
/// (tokenPredictions[i] for the token i where wordIds first names the word), kIgnoredLabel for
/// a word with no token (cut by max length, or giving none). wordCount is the sentence's number
/// of words; tokenPredictions has one id per token of the encoding.
std::vector<std::int64_t> wordPredictions(const std::vector<std::int32_t>& wordIds,
                                          const std::vector<std::int64_t>& tokenPredictions,
                                          std::size_t wordCount);

}  // namespace bert
