#include "tokenizer/WordEncoding.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace bert {

WordEncoding splitWordIds(
    const std::vector<std::string>& words, std::size_t budget,
    const std::function<void(const std::string&, std::vector<std::int32_t>&)>& tokenizeWord) {
    if (words.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        throw std::length_error("splitWordIds: too many words for 32-bit word ids");
    }
    WordEncoding out;
    std::vector<std::int32_t>& ids = out.encoding.inputIds;
    for (std::size_t w = 0; w < words.size(); ++w) {
        if (ids.size() >= budget) {
            // Nothing of this word fits: neither do the words after it (tokenizers truncates
            // the concatenation from the right).
            out.wordsCut += words.size() - w;
            break;
        }
        const std::size_t before = ids.size();
        tokenizeWord(words[w], ids);
        if (ids.size() == before) {
            ++out.wordsWithoutTokens;
        }
        out.wordIds.resize(ids.size(), static_cast<std::int32_t>(w));
    }
    if (ids.size() > budget) {
        ids.resize(budget);  // the last word loses its tail; its first token is kept
        out.wordIds.resize(budget);
    }
    return out;
}

std::vector<std::int64_t> alignLabels(const std::vector<std::int32_t>& wordIds,
                                      const std::vector<std::int64_t>& wordLabels) {
    std::vector<std::int64_t> labels;
    labels.reserve(wordIds.size());
    std::int32_t previous = -1;
    for (const std::int32_t word : wordIds) {
        if (word < 0) {
            labels.push_back(kIgnoredLabel);
        } else if (word != previous) {
            labels.push_back(wordLabels.at(static_cast<std::size_t>(word)));
        } else {
            labels.push_back(kIgnoredLabel);
        }
        previous = word;
    }
    return labels;
}

std::vector<std::int64_t> wordPredictions(const std::vector<std::int32_t>& wordIds,
                                          const std::vector<std::int64_t>& tokenPredictions,
                                          std::size_t wordCount) {
    if (tokenPredictions.size() != wordIds.size()) {
        throw std::invalid_argument("wordPredictions: " + std::to_string(tokenPredictions.size()) +
                                    " predictions for " + std::to_string(wordIds.size()) +
                                    " tokens");
    }
    std::vector<std::int64_t> words(wordCount, kIgnoredLabel);
    std::int32_t previous = -1;
    for (std::size_t i = 0; i < wordIds.size(); ++i) {
        const std::int32_t word = wordIds[i];
        if (word >= 0 && word != previous && static_cast<std::size_t>(word) < wordCount) {
            words[static_cast<std::size_t>(word)] = tokenPredictions[i];
        }
        previous = word;
    }
    return words;
}

}  // namespace bert
