#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace bert {

/// Limits on what a user-supplied file may weigh: past them the file is refused before it is
/// read (a mistaken multi-gigabyte file would otherwise be read into memory first).
namespace input_limits {
constexpr std::uint64_t kDataset = 4ULL << 30;      ///< CSV/TSV/JSONL: 4 GiB
constexpr std::uint64_t kSmallJson = 64ULL << 20;   ///< config.json, job files, training state
constexpr std::uint64_t kTokenizer = 512ULL << 20;  ///< vocab.txt, tokenizer.json
}  // namespace input_limits

/// Checks a user-supplied file before anything opens it: it exists and is a regular file (a
/// FIFO would block the open forever, a device never ends, a directory reads as nothing), of at
/// most maxBytes. Throws InputError naming the file and saying what was given instead.
void checkInputFile(const std::filesystem::path& file, std::uint64_t maxBytes);

/// checkInputFile, then the whole content. Throws InputError naming the file.
std::string readInputFile(const std::filesystem::path& file, std::uint64_t maxBytes);

}  // namespace bert
