#pragma once

// The task a dataset looks like, for a user who did not say (issue 29: "the task is also
// guessed from the data and said before training"). Host only.

#include <string>
#include <vector>

#include "data/TableReader.h"
#include "task/TrainingData.h"

namespace bert {

struct TaskGuess {
    TaskKind kind = TaskKind::SingleLabel;
    std::string reason;  ///< why, in a few words a user reads before training starts
    /// Multi-label from one 0/1 column per label: those columns (the spec's, or the ones found);
    /// empty otherwise.
    std::vector<std::string> labelColumns;
};

/// From spec's training file: tagged sentences (a CoNLL file, JSONL with tokens and tags, span
/// JSON) are token classification; label columns given, or at least two 0/1 columns
/// (indicatorColumns) when spec's label column is missing or is one of them, multi-label from
/// those columns; label cells that hold a separator in at least a fifth of the rows,
/// multi-label; label cells that are numbers (mostlyNumbers), with more than
/// kRegressionDistinctValues different ones or any fraction, regression; anything else
/// single-label. A file that cannot be read guesses single-label (its error comes when the data
/// is loaded, with the file named).
TaskGuess guessTask(const DataSpec& spec);

/// The columns of table, in its order, other than columns' text and second text, whose every
/// row holds a 0/1 label as labelSetsFromIndicatorColumns reads it (0, 1, true, false...; an
/// empty cell is not one): what a file with one 0/1 column per label looks like.
std::vector<std::string> indicatorColumns(const Table& table, const ColumnSpec& columns);

/// Whether a column whose `filled` cells hold `numbers` numbers is a numeric one: every cell a
/// number, or all but a few (at most 1% of them, and one anyway, from kFewNonNumbersFrom cells
/// on). A typo in a regression target keeps the column a target, so that loading it names the
/// line and the cell, instead of the column passing for classes.
bool mostlyNumbers(std::size_t numbers, std::size_t filled);

/// Filled cells from which one that is not a number may be a typo (mostlyNumbers).
inline constexpr std::size_t kFewNonNumbersFrom = 10;

/// Distinct numeric labels beyond which integers are taken for a regression target, not
/// classes (ratings 1-5 stay classes; 0-100 scores do not).
inline constexpr std::size_t kRegressionDistinctValues = 20;

}  // namespace bert
