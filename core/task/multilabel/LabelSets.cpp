#include "task/multilabel/LabelSets.h"

#include <algorithm>
#include <array>
#include <set>

#include "Error.h"

namespace bert {

namespace {

/// Leading and trailing white space removed: ASCII, U+00A0 (no-break) and U+3000 (ideographic,
/// what a Chinese input method types between words).
std::string_view trimmed(std::string_view text) {
    constexpr std::array<std::string_view, 2> kWideSpaces = {"\xC2\xA0", "\xE3\x80\x80"};
    const auto isAsciiSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
    };
    bool changed = true;
    while (changed && !text.empty()) {
        changed = false;
        if (isAsciiSpace(text.front())) {
            text.remove_prefix(1);
            changed = true;
        } else if (isAsciiSpace(text.back())) {
            text.remove_suffix(1);
            changed = true;
        }
        for (const auto space : kWideSpaces) {
            if (text.starts_with(space)) {
                text.remove_prefix(space.size());
                changed = true;
            }
            if (text.ends_with(space)) {
                text.remove_suffix(space.size());
                changed = true;
            }
        }
    }
    return text;
}

std::string lowered(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
        return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    });
    return lower;
}

/// The cell of an indicator column as 0/1, or nullopt when it is neither.
std::optional<bool> indicatorValue(std::string_view cell) {
    const auto value = lowered(trimmed(cell));
    if (value == "1" || value == "1.0" || value == "true") {
        return true;
    }
    if (value == "0" || value == "0.0" || value == "false") {
        return false;
    }
    return std::nullopt;
}

std::size_t requiredColumn(const Table& table, const std::string& column,
                           const std::filesystem::path& file) {
    if (const auto index = table.columnIndex(column)) {
        return *index;
    }
    std::string known;
    for (const auto& name : table.columns) {
        known += (known.empty() ? "" : ", ") + name;
    }
    throw InputError(file, "no column \"" + column + "\" (the columns are: " + known + ")");
}

/// A row's cell; rows shorter than the header (allowed by the reader) have empty cells.
std::string_view cellOf(const Table& table, std::size_t row, std::size_t column) {
    const auto& cells = table.rows[row];
    return column < cells.size() ? std::string_view(cells[column]) : std::string_view();
}

}  // namespace

std::optional<char> guessLabelSeparator(const std::vector<std::string>& cells) {
    std::array<std::size_t, kGuessedLabelSeparators.size()> found{};
    for (const auto& cell : cells) {
        for (std::size_t i = 0; i < kGuessedLabelSeparators.size(); ++i) {
            if (cell.find(kGuessedLabelSeparators[i]) != std::string::npos) {
                ++found[i];
            }
        }
    }
    // max_element keeps the first of equal counts: the more preferred separator.
    const auto best = std::max_element(found.begin(), found.end());
    if (*best == 0) {
        return std::nullopt;
    }
    return kGuessedLabelSeparators[static_cast<std::size_t>(best - found.begin())];
}

std::optional<char> guessLabelSeparator(const Table& table, std::size_t column) {
    std::vector<std::string> cells;
    cells.reserve(table.rows.size());
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        cells.emplace_back(cellOf(table, row, column));
    }
    return guessLabelSeparator(cells);
}

LabelSet splitLabels(std::string_view cell, char separator) {
    LabelSet labels;
    auto add = [&](std::string_view name) {
        if (!name.empty() && std::find(labels.begin(), labels.end(), name) == labels.end()) {
            labels.emplace_back(name);
        }
    };
    std::size_t start = 0;
    while (start <= cell.size()) {
        // A name in double quotes keeps the separators it holds ("a;b";c is {a;b, c}).
        const auto rest = trimmed(cell.substr(start));
        if (rest.starts_with('"')) {
            const auto open = static_cast<std::size_t>(rest.data() - cell.data());
            std::string name;
            std::size_t i = open + 1;
            for (; i < cell.size(); ++i) {
                if (cell[i] == '"') {
                    if (i + 1 < cell.size() && cell[i + 1] == '"') {
                        name.push_back('"');
                        ++i;
                        continue;
                    }
                    break;
                }
                name.push_back(cell[i]);
            }
            const auto after = i < cell.size() ? cell.find(separator, i) : std::string_view::npos;
            if (i < cell.size() &&
                trimmed(cell.substr(i + 1, std::min(after, cell.size()) - i - 1)).empty()) {
                add(trimmed(name));
                if (after == std::string_view::npos) {
                    break;
                }
                start = after + 1;
                continue;
            }
            // Never closed, or text after the closing quote: the quote is part of the name.
        }
        const auto end = std::min(cell.find(separator, start), cell.size());
        add(trimmed(cell.substr(start, end - start)));
        start = end + 1;
    }
    return labels;
}

std::vector<LabelSet> labelSetsFromColumn(const Table& table, const std::string& column,
                                          char separator, const std::filesystem::path& file) {
    const auto index = requiredColumn(table, column, file);
    std::vector<LabelSet> sets;
    sets.reserve(table.rows.size());
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        sets.push_back(splitLabels(cellOf(table, row, index), separator));
    }
    return sets;
}

std::vector<LabelSet> labelSetsFromIndicatorColumns(const Table& table,
                                                    const std::vector<std::string>& columns,
                                                    const std::filesystem::path& file) {
    if (columns.empty()) {
        throw InputError(file, "no label columns were chosen");
    }
    std::vector<std::size_t> indices;
    std::set<std::string> seen;
    for (const auto& column : columns) {
        if (!seen.insert(column).second) {
            throw InputError(file, "the label column \"" + column + "\" is chosen twice");
        }
        indices.push_back(requiredColumn(table, column, file));
    }
    std::vector<LabelSet> sets(table.rows.size());
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        for (std::size_t i = 0; i < indices.size(); ++i) {
            const auto cell = cellOf(table, row, indices[i]);
            const auto value = indicatorValue(cell);
            if (!value) {
                // readTable fills lines; a table built in code may not (then the header's line
                // plus the row's position is the best guess).
                const auto line = row < table.lines.size() ? table.lines[row] : row + 2;
                throw InputError(
                    file,
                    "line " + std::to_string(line) + ", column \"" + columns[i] + "\": " +
                        (trimmed(cell).empty() ? std::string("the cell is empty")
                                               : "\"" + std::string(cell) + "\" is not 0 or 1") +
                        " (a label column holds 0/1 or true/false)");
            }
            if (*value) {
                sets[row].push_back(columns[i]);
            }
        }
    }
    return sets;
}

MultiLabelMap::MultiLabelMap(std::vector<std::string> names) : names_(std::move(names)) {
    for (const auto& name : names_) {
        if (trimmed(name).empty()) {
            throw InputError("a label name is empty");
        }
    }
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
}

MultiLabelMap MultiLabelMap::fromLabelSets(const std::vector<LabelSet>& sets,
                                           const std::filesystem::path& file) {
    std::set<std::string> names;
    for (const auto& set : sets) {
        names.insert(set.begin(), set.end());
    }
    if (names.empty()) {
        throw InputError(file,
                         "no example has any label (is the label column or the separator "
                         "the right one?)");
    }
    return MultiLabelMap(std::vector<std::string>(names.begin(), names.end()));
}

std::optional<std::size_t> MultiLabelMap::indexOf(std::string_view name) const {
    const auto found = std::lower_bound(names_.begin(), names_.end(), name);
    if (found == names_.end() || *found != name) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(found - names_.begin());
}

std::vector<std::uint8_t> MultiLabelMap::multiHot(const LabelSet& labels) const {
    std::vector<std::uint8_t> row(names_.size(), 0);
    for (const auto& label : labels) {
        const auto index = indexOf(label);
        if (!index) {
            throw InputError("the label \"" + label + "\" is not one of the task's " +
                             std::to_string(names_.size()) + " labels");
        }
        row[*index] = 1;
    }
    return row;
}

LabelSet MultiLabelMap::labelsOf(const std::vector<std::uint8_t>& multiHot) const {
    LabelSet labels;
    for (std::size_t i = 0; i < std::min(multiHot.size(), names_.size()); ++i) {
        if (multiHot[i] != 0) {
            labels.push_back(names_[i]);
        }
    }
    return labels;
}

std::vector<std::vector<std::int64_t>> labelCoOccurrence(const MultiLabelMap& map,
                                                         const std::vector<LabelSet>& sets) {
    std::vector<std::vector<std::int64_t>> counts(map.size(),
                                                  std::vector<std::int64_t>(map.size(), 0));
    std::vector<std::size_t> present;
    for (const auto& set : sets) {
        present.clear();
        for (const auto& label : set) {
            if (const auto index = map.indexOf(label)) {
                present.push_back(*index);
            }
        }
        std::sort(present.begin(), present.end());
        present.erase(std::unique(present.begin(), present.end()), present.end());
        for (const auto i : present) {
            for (const auto j : present) {
                ++counts[i][j];
            }
        }
    }
    return counts;
}

}  // namespace bert
