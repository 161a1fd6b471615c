// libFuzzer target: spm.model (a SentencePiece model, as DeBERTa-v3's folders ship it) read as
// protobuf's wire format, then the tokenizer DebertaV2Tokenizer builds on it, encoding a text.
// Anything but an InputError is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "tokenizer/json/SentencePieceModel.h"
#include "tokenizer/json/TokenizerJson.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const auto json = bert::sentencePieceTokenizerJson(bytes, "fuzz/spm.model");
        const bert::JsonTokenizer tokenizer(json.dump(), "fuzz/spm.model", nlohmann::json::object(),
                                            "deberta-v2");
        (void)tokenizer.encode("Hello, wörld! 你好 [MASK] <url>\t\tx  ", 32);
        (void)tokenizer.encodePair("a b", "second text", 16);
    } catch (const bert::InputError&) {
    }
    return 0;
}
