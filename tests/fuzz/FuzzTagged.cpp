// libFuzzer target: tagged data for token classification (the first byte picks CoNLL, JSONL
// tokens/tags or CLUENER's span JSON), then the tag check and the entity reading of both modes
// on whatever was read, as import and evaluation would run them.
#include <cstddef>
#include <cstdint>
#include <string>

#include "Error.h"
#include "data/TaggedReader.h"
#include "task/token/EntityMetrics.h"
#include "task/token/TagScheme.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const auto format = static_cast<bert::TaggedFormat>(data[0] % 3);
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const auto file = bert::parseTagged(text, format, "fuzz.conll");
        std::vector<std::vector<std::string>> tags;
        for (const auto& sentence : file.sentences) {
            tags.push_back(sentence.tags);
        }
        // Any tags, checked or not: the lenient reading accepts every non-empty tag.
        (void)bert::entityReport(tags, tags, bert::EntityMode::Conlleval);
        const auto summary = bert::checkTags(file.sentences, file.source);
        (void)bert::entityReport(tags, tags, bert::entityModeFor(summary.scheme));
    } catch (const bert::InputError&) {
        // refusing bad input with a message is the right answer
    }
    return 0;
}
