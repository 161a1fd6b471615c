#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "data/Dataset.h"
#include "data/LongText.h"
#include "data/WordSplit.h"
#include "task/TaskKind.h"
#include "task/regression/RegressionTargets.h"
#include "task/token/TagScheme.h"

namespace bert {

/// Where a run's data comes from, and what it is to learn from it.
struct DataSpec {
    std::filesystem::path trainFile;
    std::optional<std::filesystem::path> validationFile;  ///< else a stratified split
    ColumnSpec columns;
    TaskSpec task;
};

/// A run's data, loaded, split, labelled and tokenized once, for its task.
struct TrainingData {
    TaskKind task = TaskKind::SingleLabel;
    /// The model's outputs by name: single-label classes, multi-label labels, token tags, or
    /// regression's one target (its column's name).
    LabelMap labels;
    TokenizedSet train;
    TokenizedSet validation;
    /// Regression: how the targets were standardised (the identity when not asked).
    TargetScaler scaling;
    /// Regression: the training targets' mean and standard deviation (scale), standardised or
    /// not: a target far from unit scale that is not standardised is hard to learn.
    TargetScaler targetSpread;
    /// Multi-label: the threshold the job fixed (TaskSpec::threshold); none: tuned.
    std::optional<double> threshold;
    std::string fingerprint;
    /// What reading the training file skipped and mended (ExampleSet's notes).
    std::size_t skippedEmpty = 0;
    std::size_t firstSkippedLine = 0;
    std::size_t invalidUtf8Replaced = 0;
    std::string encoding;
    RemovedControls removedControls;
    /// Those notes as a sentence (readingNotes), "" when there are none.
    std::vector<std::string> readingNotes() const;
    /// Takes the notes of the set read.
    void noteReading(const ExampleSet& set);
    /// Token classification: the tags' scheme (its entity reading: seqeval's default mode for
    /// BIO, strict for IOBES), and the words past max length, never learnt or scored.
    TagScheme tagScheme = TagScheme::Bio;
    std::size_t wordsCut = 0;
    /// Token classification: how the data's text was cut into words (span JSON: per
    /// character), which predict must cut the same way (data/WordSplit.h).
    WordSplit wordSplit = WordSplit::Words;
    /// Texts longer than the max length (data/LongText.h): how they were made to fit, and what
    /// that made of them in a sentence (truncated: how many texts the max length cut, "" when
    /// none).
    LongTextSpec longText;
    std::string longTextNote;
    /// Windows: the validation documents, one per example of the file, with their labels,
    /// targets and values (no encodings: their windows are validation's), which evaluation
    /// scores after pooling each document's windows.
    TokenizedSet validationDocuments;
};

/// Loads spec's files, splits off validationFraction of the training file (stratified, seeded)
/// when there is no validation file, builds the label map from the training examples and
/// tokenizes both sets to maxLength, as spec's task reads them. Throws InputError naming the
/// file at fault.
/// Texts longer than maxLength are made to fit as longText says; with head+tail or windows
/// they are tokenized whole first. Throws InputError naming the setting for a strategy that
/// cannot apply (token classification, pairs) or cannot cut at maxLength.
TrainingData prepareTrainingData(const DataSpec& spec, const Tokenizer& tokenizer,
                                 std::size_t maxLength, double validationFraction,
                                 std::uint64_t seed, const LongTextSpec& longText = {});

/// Regression trained on targets that are not standardised while their mean or standard
/// deviation is far from unit scale (beyond kUnscaledTargetLimit): the sentence that says so and
/// how to standardise (a head that starts near 0 then spends the run reaching the targets: R²
/// of -240 with no hint). Empty otherwise.
inline constexpr double kUnscaledTargetLimit = 3.0;
std::string unscaledTargetHint(const TrainingData& data);

}  // namespace bert
