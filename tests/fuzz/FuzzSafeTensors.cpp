// libFuzzer target: a safetensors file's header (the input is the whole file: the 8-byte length,
// the JSON header, the data section).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "Error.h"
#include "hf/SafeTensorsHeader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::uint64_t length = 0;
    if (size >= 8) {
        std::memcpy(&length, data, 8);
    }
    const std::size_t available = size >= 8 ? size - 8 : 0;
    const std::string_view header(reinterpret_cast<const char*>(data) + (size >= 8 ? 8 : 0),
                                  length <= available ? static_cast<std::size_t>(length) : available);
    try {
        const auto parsed = bert::parseSafeTensorsHeader(length, header, size, "fuzz.safetensors");
        for (const auto& entry : parsed.entries) {
            (void)bert::safeDtypeBytes(entry.dtype);
        }
    } catch (const bert::InputError&) {
    }
    return 0;
}
