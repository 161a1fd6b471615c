// libFuzzer target: tokenizer.json (transformers 5's fast tokenizer file), then encoding with it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "tokenizer/WordPieceTokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto tokenizer = bert::WordPieceTokenizer::fromTokenizerJson(
            std::string_view(reinterpret_cast<const char*>(data), size), "fuzz/tokenizer.json");
        (void)tokenizer.encode("Hello, wörld! 你好 [MASK] unbelievable", 32);
    } catch (const bert::InputError&) {
    }
    return 0;
}
