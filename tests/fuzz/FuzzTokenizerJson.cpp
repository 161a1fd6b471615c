// libFuzzer target: tokenizer.json, read both ways: as BERT's WordPiece (WordPieceTokenizer,
// transformers 5's vocab.txt-less folders) and by the whole tokenizer.json pipeline
// (JsonTokenizer: normalizers, pre-tokenizers, WordPiece/BPE/Unigram, post-processors, added
// tokens), then encoding with it. Anything but an InputError is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "tokenizer/json/TokenizerJson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    constexpr std::string_view kSample = "Hello, wörld! 你好 [MASK] <mask> unbelievable\xFF  x";
    try {
        const auto tokenizer =
            bert::WordPieceTokenizer::fromTokenizerJson(text, "fuzz/tokenizer.json");
        (void)tokenizer.encode(kSample, 32);
    } catch (const bert::InputError&) {
    }
    try {
        const bert::JsonTokenizer tokenizer(text, "fuzz/tokenizer.json");
        (void)tokenizer.encode(kSample, 32);
        (void)tokenizer.encodePair(kSample, "second text", 16);
        (void)tokenizer.tokenize(kSample);
    } catch (const bert::InputError&) {
    }
    return 0;
}
