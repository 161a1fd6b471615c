// libFuzzer target: CSV, TSV and JSON Lines import (the first byte picks the format).
#include <cstddef>
#include <cstdint>
#include <string>

#include "Error.h"
#include "data/TableReader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const auto format = static_cast<bert::TableFormat>(data[0] % 3);
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        const auto table = bert::parseTable(text, format, "fuzz.table");
        (void)table;
    } catch (const bert::InputError&) {
        // refusing bad input with a message is the right answer
    }
    return 0;
}
