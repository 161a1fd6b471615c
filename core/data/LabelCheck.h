#pragma once

// What is probably wrong with a label column's values, said before a run trains on them
// (issue 26: labels differing only in case, spaces, Unicode normalisation, or 1 against 1.0
// became separate classes without a word; a text column chosen as labels made 194 classes).

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace bert {

/// English sentences for the run's log and the command line, empty when nothing looks wrong:
///  - labels that are the same but for case, surrounding spaces, Unicode normalisation or the
///    spelling of a number ("1" and "1.0") are separate classes: one sentence per such group;
///  - a column that looks like free text rather than classes: more than 20 classes, and either
///    most of them seen once or values that are long (a median of 25 bytes or 4 words).
/// classes: each label with its number of examples.
std::vector<std::string> labelWarnings(
    const std::vector<std::pair<std::string, std::size_t>>& classes);

/// Under this share of the examples a class (a label) is rare: the run's warning and the
/// dataset tab say so.
inline constexpr double kRareLabelShare = 0.05;

/// The classes (or labels) whose examples are under share of total, the rarest first (three
/// named, "+N" for the others): "rare classes: \"spam\" 3.0% (90/3000); a model can score well
/// while ignoring them: --class-weighting balanced or --focal-gamma 2 weigh them up, and
/// per-class F1 says more than accuracy" ("per-label" for labels). noun is "classes" or "labels";
/// "" when none is rare.
std::string rareLabelWarning(const char* noun,
                             const std::vector<std::pair<std::string, std::size_t>>& counts,
                             std::size_t total, double share);

/// The labels as shown where they must be told apart: a label whose surrounding spaces or
/// Unicode form would make it look like another (or like nothing) is shown as a JSON string,
/// quoted, with non-ASCII characters as \u escapes ("pos " and "pos", "caf\u00e9" and
/// "cafe\u0301"); the others as they are.
std::vector<std::string> distinctLabelNames(const std::vector<std::string>& labels);

}  // namespace bert
