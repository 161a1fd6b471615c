#include "tokenizer/json/ByteLevelAlphabet.h"

#include <array>

#include "text/Utf8.h"

namespace bert::tokenizer_json {

namespace {

// The UTF-8 form of each byte's character: printable Latin-1 bytes stand for themselves, the
// others take the code points from U+0100 on, in byte order.
std::array<std::string, 256> makeTable() {
    std::array<std::string, 256> table;
    char32_t next = 0x100;
    for (unsigned byte = 0; byte < 256; ++byte) {
        const bool printable = (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) ||
                               (byte >= 0xAE && byte <= 0xFF);
        utf8::append(table[byte], printable ? static_cast<char32_t>(byte) : next++);
    }
    return table;
}

}  // namespace

std::string byteLevelEncode(std::string_view text) {
    static const std::array<std::string, 256> table = makeTable();
    std::string out;
    out.reserve(text.size() * 2);
    for (const char c : text) {
        out += table[static_cast<unsigned char>(c)];
    }
    return out;
}

}  // namespace bert::tokenizer_json
