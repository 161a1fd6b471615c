#pragma once

// The task a dataset looks like, for a user who did not say (issue 29: "the task is also
// guessed from the data and said before training"). Host only.

#include <string>

#include "task/TrainingData.h"

namespace bert {

struct TaskGuess {
    TaskKind kind = TaskKind::SingleLabel;
    std::string reason;  ///< why, in a few words a user reads before training starts
};

/// From spec's training file: tagged sentences (a CoNLL file, JSONL with tokens and tags, span
/// JSON) are token classification; several label columns, or label cells that hold a separator
/// in at least a fifth of the rows, multi-label; label cells that are all numbers, with more
/// than kRegressionDistinctValues different ones or any fraction, regression; anything else
/// single-label. A file that cannot be read guesses single-label (its error comes when the data
/// is loaded, with the file named).
TaskGuess guessTask(const DataSpec& spec);

/// Distinct numeric labels beyond which integers are taken for a regression target, not
/// classes (ratings 1-5 stay classes; 0-100 scores do not).
inline constexpr std::size_t kRegressionDistinctValues = 20;

}  // namespace bert
