#pragma once

#include <cstddef>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bert {

enum class TableFormat { Csv, Tsv, Jsonl };

/// Control characters that a file's fields held and reading removed: NUL, which no text holds
/// (a NUL inside one e-mail of thousands leaves the file text; the field is kept, cleaned).
/// Other control characters stay in the text, as pandas and transformers keep them: each
/// tokenizer reads them as the reference does.
struct RemovedControls {
    std::size_t count = 0;
    std::size_t line = 0;    ///< the first one's line, 1-based
    std::string column;      ///< the first one's column (empty: the header line)
    unsigned char code = 0;  ///< the first one's byte

    /// "control characters removed: 1 (the first, NUL, on line 2345 in column \"text\")", or ""
    /// when none ("in the header" when the header line held it).
    std::string describe() const;
};

/// A field in which reading replaced invalid UTF-8 by U+FFFD, and the first such byte.
struct InvalidUtf8Cell {
    std::size_t row = 0;
    std::size_t column = 0;
    unsigned char byte = 0;
};

/// A file's table: a header and rows of UTF-8 strings, with the 1-based line each row starts on.
/// Parsing is split from any widget so the studio's preview and the engine read files alike.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::size_t> lines;
    /// Invalid UTF-8 sequences replaced by U+FFFD while reading.
    std::size_t invalidUtf8Replaced = 0;
    /// Where they were (rows' fields only; sorted by row): a label among them is refused, since
    /// labels that differ only there would merge into one.
    std::vector<InvalidUtf8Cell> invalidUtf8Cells;
    /// The file's encoding when it was not UTF-8: "Windows-1252" for a file with bytes that are
    /// not UTF-8 and no UTF-8 sequence of several bytes (what Excel saves on Windows as CSV).
    std::string encoding;
    RemovedControls removedControls;
    /// Rows not read because maxRows was reached (preview); 0 when the file was read whole.
    bool truncated = false;

    /// Index of a column, or nullopt.
    std::optional<std::size_t> columnIndex(const std::string& name) const;
    /// The cell's invalid UTF-8, or nullptr when it held none.
    const InvalidUtf8Cell* invalidUtf8At(std::size_t row, std::size_t column) const;
};

/// Format from the file extension: .csv, .tsv/.tab, .jsonl/.ndjson. Throws InputError otherwise.
TableFormat formatFromExtension(const std::filesystem::path& file);

/// Reads CSV (RFC 4180: quoted fields may hold commas, quotes as "", and line breaks), TSV (the
/// same with tabs), or JSON Lines (one object per line; numbers and booleans become text, null
/// empty; columns in order of first appearance). A UTF-8 byte-order mark and CRLF line ends are
/// accepted; a file with bytes that are not UTF-8 and no multi-byte UTF-8 sequence is read as
/// Windows-1252 (Table::encoding says so); otherwise invalid UTF-8 is replaced and counted. A NUL
/// past the first 8 KiB is removed from its field and counted (Table::removedControls). Reads
/// at most maxRows rows. Throws InputError naming the file and line: an unterminated quote, a row
/// with more fields than the header, a JSONL line that is not an object, an empty file, a file
/// that is not text at all (a NUL byte in its first 8 KiB, as git judges, or control characters
/// more than 1 in 100 of its first 64 KiB: "binary content at byte N", counted from 1), UTF-16.
Table readTable(const std::filesystem::path& file, std::optional<TableFormat> format = std::nullopt,
                std::size_t maxRows = std::numeric_limits<std::size_t>::max());

/// Parses table text already in memory (what readTable does after reading the file).
Table parseTable(const std::string& content, TableFormat format,
                 const std::filesystem::path& source,
                 std::size_t maxRows = std::numeric_limits<std::size_t>::max());

}  // namespace bert
