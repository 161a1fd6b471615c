#include "task/TaskGuess.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "data/TableReader.h"
#include "data/TaggedReader.h"
#include "task/multilabel/LabelSets.h"

namespace bert {

namespace {

std::string lowerExtension(const std::filesystem::path& file) {
    auto extension = file.extension().string();
    for (auto& c : extension) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return extension;
}

/// The first non-blank line of a JSON Lines file as an object, or null.
nlohmann::json firstJsonObject(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
        return json.is_object() ? json : nlohmann::json();
    }
    return {};
}

bool isNumber(const std::string& cell, bool& fraction) {
    const auto begin = cell.find_first_not_of(" \t");
    const auto end = cell.find_last_not_of(" \t");
    if (begin == std::string::npos) {
        return false;
    }
    double value = 0.0;
    const auto* first = cell.data() + begin;
    const auto* last = cell.data() + end + 1;
    // chars_format::general: never hexadecimal. "nan", "inf" and "-Infinity" count as numbers
    // here: a number column with a few of them is a regression target (training then refuses
    // them, naming the line), not a single-label task of hundreds of classes.
    const auto [stop, error] = std::from_chars(first, last, value, std::chars_format::general);
    if (error != std::errc() || stop != last) {
        return false;
    }
    if (!std::isfinite(value)) {
        return true;
    }
    fraction = fraction || value != std::floor(value);
    return true;
}

}  // namespace

std::vector<std::string> indicatorColumns(const Table& table, const ColumnSpec& columns) {
    std::vector<std::string> found;
    if (table.rows.empty()) {
        return found;
    }
    for (const auto& column : table.columns) {
        if (column == columns.text || (!columns.textPair.empty() && column == columns.textPair)) {
            continue;
        }
        // The reader's own check, so that a column guessed here is one training reads.
        try {
            labelSetsFromIndicatorColumns(table, {column}, {});
            found.push_back(column);
        } catch (const InputError&) {
        }
    }
    return found;
}

bool mostlyNumbers(std::size_t numbers, std::size_t filled) {
    const std::size_t few =
        filled < kFewNonNumbersFrom ? 0 : std::max<std::size_t>(1, filled / 100);
    return filled > 0 && numbers <= filled && filled - numbers <= few;
}

TaskGuess guessTask(const DataSpec& spec) {
    const auto& file = spec.trainFile;
    const auto extension = lowerExtension(file);
    if (extension == ".conll" || extension == ".bio" || extension == ".iob" ||
        extension == ".iobes") {
        return {TaskKind::TokenClassification, "a CoNLL file of tagged words", {}};
    }
    // CoNLL files are often named .txt (CoNLL-2003's own) or .tsv: known by their lines.
    if (extension == ".txt" || extension == ".tsv") {
        std::ifstream in(file, std::ios::binary);
        std::string head(64 * 1024, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        if (looksLikeConll(head)) {
            return {TaskKind::TokenClassification, "a CoNLL file of tagged words", {}};
        }
    }
    if (!spec.task.labelColumns.empty()) {
        return {TaskKind::MultiLabel, "one 0/1 column per label", spec.task.labelColumns};
    }
    if (extension == ".jsonl" || extension == ".ndjson" || extension == ".json") {
        const auto first = firstJsonObject(file);
        if (first.contains("tokens") && (first.contains("tags") || first.contains("ner_tags"))) {
            return {TaskKind::TokenClassification, "JSON lines of tokens and their tags", {}};
        }
        if (first.contains("text") && first.contains("label") && first["label"].is_object()) {
            return {TaskKind::TokenClassification, "JSON lines of entity spans over texts", {}};
        }
    }
    Table table;
    try {
        table = readTable(file, std::nullopt, 5000);
    } catch (const std::exception&) {
        return {TaskKind::SingleLabel, "the data could not be read to guess", {}};
    }
    const auto column = table.columnIndex(spec.columns.label);
    // Several 0/1 columns and no other label column: one column per label (a binary label
    // column of 0/1 alone stays single-label).
    auto indicators = indicatorColumns(table, spec.columns);
    if (indicators.size() >= 2 && (!column || std::find(indicators.begin(), indicators.end(),
                                                        spec.columns.label) != indicators.end())) {
        return {TaskKind::MultiLabel, "one 0/1 column per label", std::move(indicators)};
    }
    if (!column || table.rows.empty()) {
        return {TaskKind::SingleLabel, "one label per text", {}};
    }
    std::size_t separated = 0;
    std::size_t numbers = 0;
    std::size_t filled = 0;
    bool fraction = false;
    std::set<std::string> distinct;
    const std::string separators =
        spec.task.labelSeparator.empty() ? std::string(";|") : spec.task.labelSeparator;
    for (const auto& row : table.rows) {
        const auto& cell = row[*column];
        if (cell.find_first_not_of(" \t") == std::string::npos) {
            continue;
        }
        ++filled;
        separated += cell.find_first_of(separators) != std::string::npos ? 1 : 0;
        numbers += isNumber(cell, fraction) ? 1 : 0;
        distinct.insert(cell);
    }
    if (filled > 0 && separated * 5 >= filled) {
        return {TaskKind::MultiLabel, "the label column holds several labels per row", {}};
    }
    if (mostlyNumbers(numbers, filled) &&
        (fraction || distinct.size() > kRegressionDistinctValues)) {
        return {TaskKind::Regression, "the label column holds numbers", {}};
    }
    return {TaskKind::SingleLabel, "one label per text", {}};
}

}  // namespace bert
