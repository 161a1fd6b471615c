#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "data/Dataset.h"

namespace bert {

/// Where a run's data comes from.
struct DataSpec {
    std::filesystem::path trainFile;
    std::optional<std::filesystem::path> validationFile;  ///< else a stratified split
    ColumnSpec columns;
};

/// A run's data, loaded, split, labelled and tokenized once.
struct TrainingData {
    LabelMap labels;
    TokenizedSet train;
    TokenizedSet validation;
    std::string fingerprint;
    std::size_t skippedEmpty = 0;
    std::size_t invalidUtf8Replaced = 0;
};

/// Loads spec's files, splits off validationFraction of the training file (stratified, seeded)
/// when there is no validation file, builds the label map from the training examples and
/// tokenizes both sets to maxLength. Throws InputError naming the file at fault.
TrainingData prepareTrainingData(const DataSpec& spec, const Tokenizer& tokenizer,
                                 std::size_t maxLength, double validationFraction,
                                 std::uint64_t seed);

}  // namespace bert
