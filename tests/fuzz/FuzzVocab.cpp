// libFuzzer target: vocab.txt, then the tokenizer it makes on text (input: vocabulary, a NUL,
// the text to encode).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
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
        (void)tokenizer.encodePair(text, text, 32);
    } catch (const bert::InputError&) {
    }
    return 0;
}
