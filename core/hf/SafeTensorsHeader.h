#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace bert {

/// The element types safetensors stores that the engine reads.
enum class SafeDtype { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

/// "F32", "BF16", ...; and the bytes of one element.
const char* safeDtypeName(SafeDtype dtype);
std::size_t safeDtypeBytes(SafeDtype dtype);

/// One tensor of the header: where its bytes lie in the data section (end exclusive).
struct SafeTensorsEntry {
    std::string name;
    SafeDtype dtype = SafeDtype::F32;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

/// A validated safetensors header: its tensors in file order and its "__metadata__" strings.
struct SafeTensorsHeader {
    std::vector<SafeTensorsEntry> entries;
    std::map<std::string, std::string> metadata;
    std::uint64_t dataStart = 0;  ///< 8 + the header's length: where the data section begins
};

/// A header longer than this is not a model's tensor table but a corrupt length field.
constexpr std::uint64_t kMaxSafeTensorsHeaderBytes = 100ULL * 1024 * 1024;

/// Validates a safetensors file's header before any data is trusted: the 8-byte little-endian
/// header length against fileBytes, the JSON (bounded nesting), each dtype and shape (no
/// overflow), each data_offsets pair against the data section and against its dtype and shape,
/// and that the tensors tile the data section with neither overlap nor gap. lengthField is the
/// first 8 bytes of the file, headerText the header bytes that follow. Throws InputError naming
/// file (and the tensor) and the problem. No LibTorch: the engine's reader (SafeTensors.h) and the
/// fuzzer share it.
SafeTensorsHeader parseSafeTensorsHeader(std::uint64_t lengthField, std::string_view headerText,
                                         std::uint64_t fileBytes, const std::filesystem::path& file);

}  // namespace bert
