#pragma once

// The single-label task's figures from a confusion matrix: accuracy, macro-F1, the per-class
// report, and the matrix's stored form. Host only.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace bert {

/// A confusion matrix: counts[true label][predicted label].
using ConfusionMatrix = std::vector<std::vector<std::int64_t>>;

/// Classes up to which a confusion matrix is stored dense (an array of rows, as before); past
/// it, sparse (issue 26: 5,000 labels stored 50 MB per evaluation and `runs list` took 8.8 s and
/// 2.2 GB).
inline constexpr std::size_t kDenseConfusionClasses = 256;
/// Classes up to which a stored sparse matrix is read back into a ConfusionMatrix (8 MB); past
/// it the matrix is left empty (accuracy and macro-F1 are stored apart).
inline constexpr std::size_t kReadableConfusionClasses = 1024;

/// The matrix as stored: dense rows up to kDenseConfusionClasses, else
/// {"classes": K, "cells": [[true, predicted, count], ...]} with the non-zero cells only.
nlohmann::json confusionToJson(const ConfusionMatrix& confusion);
/// Either stored form back; an empty matrix for one of more than kReadableConfusionClasses
/// classes, or for anything malformed.
ConfusionMatrix confusionFromJson(const nlohmann::json& json);

/// Share of the examples predicted right (0 for an empty matrix).
double accuracyOf(const ConfusionMatrix& confusion);

/// Mean over the classes of F1 = 2·TP / (predicted + actual); a class never predicted and never
/// present counts as 0, as in scikit-learn's f1_score(average="macro", zero_division=0).
double macroF1Of(const ConfusionMatrix& confusion);

/// One class's row of a classification report.
struct ClassMetrics {
    double precision =
        0.0;  ///< of the examples predicted as this class, the share right (0: none predicted)
    double recall = 0.0;  ///< of this class's examples, the share found
    double f1 = 0.0;
    std::int64_t support = 0;    ///< examples of this class
    std::int64_t predicted = 0;  ///< examples predicted as this class
};

/// Per-class precision, recall, F1 and support, as scikit-learn's classification_report with
/// zero_division=0.
std::vector<ClassMetrics> perClassOf(const ConfusionMatrix& confusion);

}  // namespace bert
