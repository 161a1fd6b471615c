#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/TableReader.h"

namespace bert {

/// The labels of one example of a multi-label task (issue 29, point 2), in order of first
/// appearance, without duplicates.
using LabelSet = std::vector<std::string>;

/// The separators guessLabelSeparator considers, most preferred first.
///
/// A comma is deliberately not guessed: label names people write often hold commas
/// ("Washington, D.C.", "Sales, EMEA"), a single-label column of such names would silently become
/// a multi-label one, and in a CSV a comma inside a cell is only there if the cell was quoted, so
/// it is the separator that a hand-written file gets wrong most often. A user who does separate
/// labels by commas says so (the dataset tab's choice, `--label-separator ,`); splitLabels accepts
/// any separator.
inline constexpr std::string_view kGuessedLabelSeparators = ";|";

/// The separator of a multi-label column guessed from its cells: the one of
/// kGuessedLabelSeparators that occurs in the most cells (';' on a tie), or nullopt when neither
/// occurs anywhere (every cell then holds at most one label, which splitLabels reads as is).
std::optional<char> guessLabelSeparator(const std::vector<std::string>& cells);
/// The same over one column of a table.
std::optional<char> guessLabelSeparator(const Table& table, std::size_t column);

/// The label names of one cell: split at separator, each name trimmed of white space (ASCII,
/// no-break and ideographic spaces), empty names dropped (so "a;;b;" and " a ; b" are {a, b}, and
/// an empty cell is the empty set: an example with no label is a valid multi-label example).
/// A name in double quotes is read whole, separators and all ("\"a;b\";c" is {a;b, c}; "" inside
/// is one quote); a quote that is never closed, or followed by more than white space before the
/// next separator, is read as part of the name.
/// A name given twice is merged, not refused: "spam;spam" can only mean the set {spam}, a
/// multi-hot target cannot count, and scikit-learn's MultiLabelBinarizer reads it the same way.
LabelSet splitLabels(std::string_view cell, char separator);

/// The label set of each row of one column holding separated labels. Throws InputError naming
/// file when the column is missing.
std::vector<LabelSet> labelSetsFromColumn(const Table& table, const std::string& column,
                                          char separator, const std::filesystem::path& file);

/// The label set of each row from indicator columns, one per label, named as the column: a row
/// has the label when its cell is 1 (or true). Accepted cells, trimmed and case-insensitive:
/// 0, 1, 0.0, 1.0, true, false (JSON Lines booleans arrive as true/false, a pandas boolean column
/// written to CSV as True/False, one with a missing value as 0.0/1.0). Anything else, the empty
/// cell included, throws InputError naming file, the row's line and the column: a missing value
/// is not silently "absent". Also throws for a missing or repeated column, or no columns.
std::vector<LabelSet> labelSetsFromIndicatorColumns(const Table& table,
                                                    const std::vector<std::string>& columns,
                                                    const std::filesystem::path& file);

/// The labels of a multi-label task: the position of a name is its logit's index. Names are
/// sorted by their UTF-8 bytes, which is code-point order, so the map is the same as scikit-learn
/// MultiLabelBinarizer's classes_ (Python's sorted()) on the same names, and the same whichever
/// order the rows come in.
class MultiLabelMap {
public:
    MultiLabelMap() = default;
    /// Any names in any order; duplicates are merged. Throws InputError for an empty name.
    explicit MultiLabelMap(std::vector<std::string> names);

    /// Every name of every set. Throws InputError naming file when there is none at all (a
    /// column of empty cells, or the wrong separator on a single-label file still gives names).
    static MultiLabelMap fromLabelSets(const std::vector<LabelSet>& sets,
                                       const std::filesystem::path& file = {});

    const std::vector<std::string>& names() const noexcept { return names_; }
    std::size_t size() const noexcept { return names_.size(); }
    std::optional<std::size_t> indexOf(std::string_view name) const;

    /// 0/1 per label, in the map's order. Throws InputError for a name not in the map (a
    /// validation row with a label training never saw: the caller adds file and line).
    std::vector<std::uint8_t> multiHot(const LabelSet& labels) const;
    /// The names set in a multi-hot row, in the map's order.
    LabelSet labelsOf(const std::vector<std::uint8_t>& multiHot) const;

private:
    std::vector<std::string> names_;
};

/// How often each pair of labels occurs together: counts[i][j] examples have both map names i
/// and j; the diagonal is each label's count (the dataset tab's co-occurrence table). Names not
/// in the map are ignored.
std::vector<std::vector<std::int64_t>> labelCoOccurrence(const MultiLabelMap& map,
                                                         const std::vector<LabelSet>& sets);

}  // namespace bert
