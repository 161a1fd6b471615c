// libFuzzer target: vocab.txt, then the tokenizer it makes on text (input: vocabulary, a NUL,
// the text to encode).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "Error.h"
#include "tokenizer/WordPieceTokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto split = input.find('\0');
    std::istringstream lines(input.substr(0, split));
    const std::string text = split == std::string::npos ? "hello world" : input.substr(split + 1);
    std::vector<std::string> vocabulary;
    for (std::string line; std::getline(lines, line);) {
        vocabulary.push_back(line);
    }
    try {
        const bert::WordPieceTokenizer tokenizer(std::move(vocabulary), {}, "fuzz/vocab.txt");
        (void)tokenizer.encode(text, 64);
        // A pair tokenises both texts whole (longest-first truncation needs their lengths):
        // its first kilobyte covers the same code at a rate a campaign can afford.
        constexpr std::size_t kPairBytes = 1024;
        const std::string_view pairText = std::string_view(text).substr(0, kPairBytes);
        (void)tokenizer.encodePair(pairText, pairText, 32);
    } catch (const bert::InputError&) {
    }
    return 0;
}
