#include "data/TableReader.h"

#include <algorithm>
#include <cstdio>
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

/// A control character reading removes from a field (RemovedControls): NUL alone. The others
/// stay, as pandas and transformers keep them: each tokenizer reads them as the reference does
/// (BERT's normaliser drops them, byte-level BPE reads their bytes), and a target computed from
/// the text in Python (a body's length) stays the text's.
bool isStrayControl(unsigned char c) {
    return c == 0;
}

/// A control character that JSON forbids raw in a string (tab and line breaks aside, which
/// JSON Lines files hold between values).
bool isRawJsonControl(unsigned char c) {
    const bool whitespace = c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    return c < 0x20 && !whitespace;
}

/// Removes field's stray control characters, noting them in removed; line is the field's first
/// line (a quoted field's line breaks move the note to the line that holds the character).
void removeControls(std::string& field, std::size_t line, const std::string& column,
                    RemovedControls& removed) {
    const auto at = std::find_if(field.begin(), field.end(), [](char c) {
        return isStrayControl(static_cast<unsigned char>(c));
    });
    if (at == field.end()) {
        return;
    }
    if (removed.count == 0) {
        removed.line = line + static_cast<std::size_t>(std::count(field.begin(), at, '\n'));
        removed.column = column;
        removed.code = static_cast<unsigned char>(*at);
    }
    const auto end = std::remove_if(at, field.end(), [&](char c) {
        const bool stray = isStrayControl(static_cast<unsigned char>(c));
        removed.count += stray ? 1 : 0;
        return stray;
    });
    field.erase(end, field.end());
}

/// Writes JSON's \u escape for each raw control character of a JSON line (a NUL among them is
/// then removed from its field, with its column named).
void escapeControls(std::string& line) {
    if (std::none_of(line.begin(), line.end(),
                     [](char c) { return isRawJsonControl(static_cast<unsigned char>(c)); })) {
        return;
    }
    std::string out;
    for (const char c : line) {
        if (isRawJsonControl(static_cast<unsigned char>(c))) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
            out += escape;
        } else {
            out.push_back(c);
        }
    }
    line = std::move(out);
}

/// The first byte of text that is not UTF-8 (text holds one).
unsigned char firstInvalidByte(std::string_view text) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t start = pos;
        if (utf8::decode(text, pos) == utf8::kReplacement && pos - start == 1) {
            return static_cast<unsigned char>(text[start]);
        }
    }
    return 0;
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
    std::vector<unsigned char> badBytes;
    std::vector<bool> mended;
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
        // Invalid UTF-8 is no JSON: replaced here, in the line, and the cells that hold the
        // replacement marked below. A raw control character is escaped, for cleanFields to
        // remove and name with its column.
        std::size_t replaced = 0;
        const unsigned char badByte = firstInvalidByte(lineText);
        lineText = utf8::sanitize(lineText, &replaced);
        table.invalidUtf8Replaced += replaced;
        escapeControls(lineText);
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
        badBytes.push_back(replaced > 0 ? badByte : 0);
        mended.push_back(replaced > 0);
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
            if (mended[r] && row[c].find("\xEF\xBF\xBD") != std::string::npos) {
                table.invalidUtf8Cells.push_back({r, c, badBytes[r]});
            }
        }
        table.rows.push_back(std::move(row));
        table.lines.push_back(lines[r]);
    }
    return table;
}

/// The offset of the first byte that marks a file as binary, or npos: a NUL in the first 8 KiB
/// (git's test: a text file with one stray NUL deep inside, as an e-mail archive may hold, stays
/// text), or, where control characters other than whitespace and escape are more than 8 and more
/// than 1 in 100 of the first 64 KiB (text exported from a terminal has a few), the first of them.
/// Without this, an image or an archive renamed .csv got "line 5 has 2 fields but the header
/// has 1".
std::size_t binaryContentAt(const std::string& content) {
    constexpr std::size_t kNulSampleBytes = 8 * 1024;
    if (const auto nul = content.find('\0'); nul != std::string::npos && nul < kNulSampleBytes) {
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

/// Makes every field valid UTF-8 (noting the cells mended) and free of stray controls.
void cleanFields(Table& table) {
    for (auto& name : table.columns) {
        std::size_t replaced = 0;
        name = utf8::sanitize(name, &replaced);
        table.invalidUtf8Replaced += replaced;
        removeControls(name, 1, {}, table.removedControls);
    }
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::size_t line = r < table.lines.size() ? table.lines[r] : 0;
        for (std::size_t c = 0; c < table.rows[r].size(); ++c) {
            auto& field = table.rows[r][c];
            if (!utf8::validity(field).valid) {
                std::size_t replaced = 0;
                auto clean = utf8::sanitize(field, &replaced);
                table.invalidUtf8Cells.push_back({r, c, firstInvalidByte(field)});
                table.invalidUtf8Replaced += replaced;
                field = std::move(clean);
            }
            removeControls(field, line, table.columns[c], table.removedControls);
        }
    }
}

std::string controlName(unsigned char code) {
    if (code == 0) {
        return "NUL";
    }
    char name[8];
    std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(code));
    return name;
}

}  // namespace

std::string RemovedControls::describe() const {
    if (count == 0) {
        return {};
    }
    return "control characters removed: " + std::to_string(count) + " (the first, " +
           controlName(code) + ", on line " + std::to_string(line) +
           (column.empty() ? std::string(" in the header") : " in column \"" + column + "\"") + ")";
}

const InvalidUtf8Cell* Table::invalidUtf8At(std::size_t row, std::size_t column) const {
    auto it = std::lower_bound(
        invalidUtf8Cells.begin(), invalidUtf8Cells.end(), row,
        [](const InvalidUtf8Cell& cell, std::size_t value) { return cell.row < value; });
    for (; it != invalidUtf8Cells.end() && it->row == row; ++it) {
        if (it->column == column) {
            return &*it;
        }
    }
    return nullptr;
}

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
    std::string_view bytes = content;
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") {
        bytes.remove_prefix(3);
    }
    // Bytes that are not UTF-8 and no sequence of several bytes that is: a one-byte code, read as
    // Windows-1252 rather than every accented letter turned into U+FFFD (and "café" and "cafè"
    // into one class).
    std::string text;
    std::string encoding;
    if (const auto validity = utf8::validity(bytes); !validity.valid && !validity.multiByte) {
        text = utf8::fromWindows1252(bytes);
        encoding = "Windows-1252";
    } else {
        text = std::string(bytes);
    }
    Table table =
        format == TableFormat::Jsonl
            ? parseJsonLines(text, source, maxRows)
            : parseDelimited(text, format == TableFormat::Tsv ? '\t' : ',', source, maxRows);
    table.encoding = encoding;
    cleanFields(table);
    return table;
}

Table readTable(const std::filesystem::path& file, std::optional<TableFormat> format,
                std::size_t maxRows) {
    checkInputFile(file, input_limits::kDataset);  // what it is before what it is called
    const TableFormat resolved = format ? *format : formatFromExtension(file);
    return parseTable(readInputFile(file, input_limits::kDataset), resolved, file, maxRows);
}

}  // namespace bert
