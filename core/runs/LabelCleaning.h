#pragma once

// Likely label errors of a training file (`bert-studio-cli clean`): the job trained k times,
// each time on all folds but one (stratified), the held-out fold predicted by the model that
// never saw it; those out-of-fold probabilities ranked by confident learning
// (task/ConfidentLearning.h, Northcutt et al. 2021). Nothing is stored in the run database: the
// folds' models are thrown away, the list is what remains. Single-label classification.

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "task/ConfidentLearning.h"
#include "train/TrainingJobSpec.h"

namespace bert {

/// One example whose label is likely wrong, as the file holds it.
struct LabelErrorRow {
    std::size_t example = 0;  ///< its place among the file's examples (rows read)
    std::size_t line = 0;
    std::string text;
    std::string pair;
    std::string given;     ///< its label
    std::string likely;    ///< the class the held-out model gave the most probability
    double quality = 0.0;  ///< the probability of its given label (self-confidence)
};

struct LabelCleaningReport {
    std::filesystem::path file;
    std::size_t examples = 0;
    std::size_t folds = 0;
    std::vector<std::string> labels;
    /// Confident learning's per-class thresholds and confident joint, over the labels.
    LabelIssues found;
    /// The issues, lowest quality first (confident learning's ranking).
    std::vector<LabelErrorRow> rows;
    /// The held-out models' accuracy on the given labels, fold by fold.
    std::vector<double> foldAccuracy;
    /// Stopped by cancel before every fold was trained: nothing was ranked.
    bool cancelled = false;
};

/// Finds likely label errors in job's training file (its validation file, if any, is left
/// alone): folds stratified folds, each trained with job's settings (no checkpoints, nothing
/// stored) and its held-out examples predicted; progress gets a line per fold. Throws
/// InputError for a task other than single-label, fewer than 2 folds, or a class with fewer
/// examples than folds (named), and whatever training throws; Cancelled when cancel is set.
LabelCleaningReport findLabelErrors(const TrainingJob& job, std::size_t folds,
                                    const std::atomic<bool>& cancel,
                                    const std::function<void(const std::string&)>& progress);

/// The report's rows as CSV: rank, line, given, likely, quality, text (pair).
void writeLabelErrorsCsv(const LabelCleaningReport& report, const std::filesystem::path& file);

/// Writes the training file's examples, corrected, as CSV with the job's column names: the
/// rows found dropped, or (relabel) given their likely label. Refuses (InputError) to write
/// over the training file itself: the user's file is never changed.
void writeCleanedFile(const TrainingJob& job, const LabelCleaningReport& report,
                      const std::filesystem::path& file, bool relabel);

/// Throws InputError when file is job's training file: the corrected copy goes beside it.
void refuseTrainingFileAsCopy(const TrainingJob& job, const std::filesystem::path& file);

/// Stratified folds of examples by label: each class's examples shuffled with seed and dealt to
/// the folds in turn, so that every fold holds each class's share. Each example's fold, in
/// [0, folds). Throws InputError naming file and the class that has fewer examples than folds.
std::vector<std::size_t> stratifiedFolds(const std::vector<std::string>& labels, std::size_t folds,
                                         std::uint64_t seed, const std::filesystem::path& file);

}  // namespace bert
