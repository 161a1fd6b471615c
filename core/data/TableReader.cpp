#include "data/TableReader.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "text/Utf8.h"

namespace bert {

namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// RFC 4180 with a configurable delimiter. Records end at LF, CRLF or CR outside quotes.
Table parseDelimited(const std::string& text, char delimiter, const std::filesystem::path& source,
                     std::size_t maxRows) {
    Table table;
    std::vector<std::string> record;
    std::string field;
    std::size_t line = 1;
    std::size_t recordLine = 1;
    bool inQuotes = false;
    bool fieldWasQuoted = false;
    std::size_t quoteLine = 0;
    bool header = true;

    auto endRecord = [&]() -> bool {
        record.push_back(std::move(field));
        field.clear();
        fieldWasQuoted = false;
        // A blank line is not a record.
        const bool blank = record.size() == 1 && record[0].empty();
        if (!blank) {
            if (header) {
                table.columns = std::move(record);
                header = false;
            } else {
                if (record.size() > table.columns.size()) {
                    throw InputError(source, "line " + std::to_string(recordLine) + " has " +
                                                 std::to_string(record.size()) +
                                                 " fields but the header has " +
                                                 std::to_string(table.columns.size()) +
                                                 " (an unquoted delimiter in the text?)");
                }
                // Short rows (trailing empty fields left out) are padded, as pandas does.
                record.resize(table.columns.size());
                table.rows.push_back(std::move(record));
                table.lines.push_back(recordLine);
                if (table.rows.size() >= maxRows) {
                    return false;
                }
            }
        }
        record.clear();
        return true;
    };

    std::size_t i = 0;
    const std::size_t n = text.size();
    for (; i < n; ++i) {
        const char c = text[i];
        if (inQuotes) {
            if (c == '"') {
                if (i + 1 < n && text[i + 1] == '"') {
                    field.push_back('"');
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                if (c == '\n') {
                    ++line;
                }
                field.push_back(c);
            }
            continue;
        }
        if (c == '"' && field.empty() && !fieldWasQuoted) {
            inQuotes = true;
            fieldWasQuoted = true;
            quoteLine = line;
        } else if (c == delimiter) {
            record.push_back(std::move(field));
            field.clear();
            fieldWasQuoted = false;
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < n && text[i + 1] == '\n') {
                ++i;
            }
            ++line;
            if (!endRecord()) {
                table.truncated = i + 1 < n;
                return table;
            }
            recordLine = line;
        } else {
            field.push_back(c);
        }
    }
    if (inQuotes) {
        throw InputError(source, "line " + std::to_string(quoteLine) +
                                     ": a quoted field starts here and is never closed");
    }
    if (!field.empty() || !record.empty()) {
        endRecord();
    }
    if (header) {
        throw InputError(source, "is empty (no header line)");
    }
    return table;
}

Table parseJsonLines(const std::string& text, const std::filesystem::path& source,
                     std::size_t maxRows) {
    Table table;
    // ordered_json keeps each object's keys in file order, so columns come in the file's order.
    std::vector<nlohmann::ordered_json> objects;
    std::vector<std::size_t> lines;
    std::istringstream in(text);
    std::string lineText;
    std::size_t line = 0;
    while (std::getline(in, lineText)) {
        ++line;
        if (!lineText.empty() && lineText.back() == '\r') {
            lineText.pop_back();
        }
        if (lineText.find_first_not_of(" \t") == std::string::npos) {
            continue;
        }
        std::string problem;
        auto json = parseJson<nlohmann::ordered_json>(lineText, problem);
        if (!problem.empty()) {
            throw InputError(source, "line " + std::to_string(line) + " " + problem);
        }
        if (!json.is_object()) {
            throw InputError(source,
                             "line " + std::to_string(line) +
                                 " is not a JSON object (JSON Lines needs one object per line)");
        }
        for (const auto& [key, value] : json.items()) {
            if (std::find(table.columns.begin(), table.columns.end(), key) == table.columns.end()) {
                table.columns.push_back(key);
            }
        }
        objects.push_back(std::move(json));
        lines.push_back(line);
        if (objects.size() >= maxRows) {
            table.truncated = static_cast<bool>(in.peek() != EOF);
            break;
        }
    }
    if (objects.empty()) {
        throw InputError(source, "is empty (no JSON objects)");
    }
    for (std::size_t r = 0; r < objects.size(); ++r) {
        std::vector<std::string> row(table.columns.size());
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            const auto it = objects[r].find(table.columns[c]);
            if (it == objects[r].end() || it->is_null()) {
                continue;
            }
            row[c] = it->is_string() ? it->get<std::string>() : it->dump();
        }
        table.rows.push_back(std::move(row));
        table.lines.push_back(lines[r]);
    }
    return table;
}

/// The offset of the first byte that no text file holds, or npos: a NUL anywhere, or, where
/// control characters other than whitespace and escape are more than 8 and more than 1 in 100
/// of the first 64 KiB (text exported from a terminal has a few), the first of them. Without this,
/// an image or an archive renamed .csv got "line 5 has 2 fields but the header has 1".
std::size_t binaryContentAt(const std::string& content) {
    if (const auto nul = content.find('\0'); nul != std::string::npos) {
        return nul;
    }
    constexpr std::size_t kSampleBytes = 64 * 1024;
    constexpr std::size_t kControlsPerHundred = 1;
    const std::size_t sample = std::min(content.size(), kSampleBytes);
    std::size_t controls = 0;
    std::size_t first = std::string::npos;
    for (std::size_t i = 0; i < sample; ++i) {
        const auto c = static_cast<unsigned char>(content[i]);
        const bool whitespace = c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
        if (c < 0x20 && !whitespace && c != 0x1B) {
            ++controls;
            first = std::min(first, i);
        }
    }
    constexpr std::size_t kFewControls = 8;  // a stray bell or two in a small file is text
    return controls > kFewControls && controls * 100 > sample * kControlsPerHundred
               ? first
               : std::string::npos;
}

}  // namespace

std::optional<std::size_t> Table::columnIndex(const std::string& name) const {
    const auto it = std::find(columns.begin(), columns.end(), name);
    if (it == columns.end()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(it - columns.begin());
}

TableFormat formatFromExtension(const std::filesystem::path& file) {
    const auto extension = lower(file.extension().string());
    if (extension == ".csv") {
        return TableFormat::Csv;
    }
    if (extension == ".tsv" || extension == ".tab") {
        return TableFormat::Tsv;
    }
    if (extension == ".jsonl" || extension == ".ndjson") {
        return TableFormat::Jsonl;
    }
    throw InputError(file, "has an extension BERT Studio does not read (use .csv, .tsv or .jsonl)");
}

Table parseTable(const std::string& content, TableFormat format,
                 const std::filesystem::path& source, std::size_t maxRows) {
    if (content.compare(0, 2, "\xFF\xFE") == 0 || content.compare(0, 2, "\xFE\xFF") == 0) {
        throw InputError(source, "is UTF-16 text; save it as UTF-8");
    }
    if (const auto at = binaryContentAt(content); at != std::string::npos) {
        throw InputError(
            source, "is not a text file (binary content at byte " + std::to_string(at + 1) + ")");
    }
    std::size_t replaced = 0;
    std::string text = utf8::sanitize(content, &replaced);
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        text.erase(0, 3);
    }
    Table table =
        format == TableFormat::Jsonl
            ? parseJsonLines(text, source, maxRows)
            : parseDelimited(text, format == TableFormat::Tsv ? '\t' : ',', source, maxRows);
    table.invalidUtf8Replaced = replaced;
    return table;
}

Table readTable(const std::filesystem::path& file, std::optional<TableFormat> format,
                std::size_t maxRows) {
    checkInputFile(file, input_limits::kDataset);  // what it is before what it is called
    const TableFormat resolved = format ? *format : formatFromExtension(file);
    return parseTable(readInputFile(file, input_limits::kDataset), resolved, file, maxRows);
}

}  // namespace bert
