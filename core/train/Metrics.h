#pragma once

#include <cstdint>
#include <vector>

namespace bert {

/// A confusion matrix: counts[true label][predicted label].
using ConfusionMatrix = std::vector<std::vector<std::int64_t>>;

/// Share of the examples predicted right (0 for an empty matrix).
double accuracyOf(const ConfusionMatrix& confusion);

/// Mean over the classes of F1 = 2·TP / (predicted + actual); a class never predicted and never
/// present counts as 0, as in scikit-learn's f1_score(average="macro", zero_division=0).
double macroF1Of(const ConfusionMatrix& confusion);

}  // namespace bert
