// libFuzzer target: a model folder's config.json.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "io/Json.h"
#include "model/EncoderConfig.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string problem;
    const auto json = bert::parseJson(std::string_view(reinterpret_cast<const char*>(data), size), problem);
    if (!problem.empty()) {
        return 0;
    }
    try {
        const auto config = bert::EncoderConfig::fromJson(json, "fuzz/config.json");
        (void)config.toJson().dump();
    } catch (const bert::InputError&) {
    }
    return 0;
}
