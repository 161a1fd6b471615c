#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bert {

enum class TableFormat { Csv, Tsv, Jsonl };

/// A file's table: a header and rows of UTF-8 strings, with the 1-based line each row starts on.
/// Parsing is split from any widget so the studio's preview and the engine read files alike.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> lines;
    /// Invalid UTF-8 sequences replaced by U+FFFD while reading.
    std::size_t invalidUtf8Replaced = 0;
    /// Rows not read because maxRows was reached (preview); 0 when the file was read whole.
    bool truncated = false;

    /// Index of a column, or nullopt.
    std::optional<std::size_t> columnIndex(const std::string& name) const;
};

/// Format from the file extension: .csv, .tsv/.tab, .jsonl/.ndjson. Throws InputError otherwise.
TableFormat formatFromExtension(const std::filesystem::path& file);

/// Reads CSV (RFC 4180: quoted fields may hold commas, quotes as "", and line breaks), TSV (the
/// same with tabs), or JSON Lines (one object per line; numbers and booleans become text, null
/// empty; columns in order of first appearance). A UTF-8 byte-order mark and CRLF line ends are
/// accepted; invalid UTF-8 is replaced and counted. Reads at most maxRows rows. Throws InputError
/// naming the file and line: an unterminated quote, a row with more fields than the header, a
/// JSONL line that is not an object, an empty file, a file that is not text at all (a NUL byte,
/// or many control characters: "binary content at byte N", counted from 1), UTF-16 text.
Table readTable(const std::filesystem::path& file, std::optional<TableFormat> format = std::nullopt,
                std::size_t maxRows = std::numeric_limits<std::size_t>::max());

/// Parses table text already in memory (what readTable does after reading the file).
Table parseTable(const std::string& content, TableFormat format,
                 const std::filesystem::path& source,
                 std::size_t maxRows = std::numeric_limits<std::size_t>::max());

}  // namespace bert
