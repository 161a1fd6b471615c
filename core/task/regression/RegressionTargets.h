#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/TableReader.h"

namespace bert {

/// The largest target, either side of zero, that training reads: it holds targets as 32-bit
/// floats (at most 3.4e38), and values near a double's 1e308 overflowed into a divergence that
/// was blamed on the learning rate.
inline constexpr double kLargestTarget = 1e38;

/// A regression target cell as a number, or nullopt when it is not one. Strict and
/// locale-independent (std::from_chars, so "2,5" is refused under a German locale as under any
/// other): surrounding white space and one leading '+' are allowed; "1e-3", "-2.5", ".5", "7."
/// are numbers; "12abc", "0x1A", "_2012_20", "nan", "inf", a value beyond kLargestTarget and
/// one out of a double's range (1e400, or 1e-400, which would silently read as 0) are not: a NaN or
/// infinite target makes the mean squared error NaN on the first batch that holds it, long after
/// the import could have said which line it was on.
std::optional<double> parseTargetValue(std::string_view cell);

/// parseTargetValue, or InputError naming file, the line and the column, with the cell, and a
/// hint when the cell looks like a decimal comma, is NaN or infinite, or is too large. An empty
/// cell is refused too (a missing target is not 0).
double parseTarget(std::string_view cell, const std::filesystem::path& file, std::size_t line,
                   std::string_view column);

/// Every row's target from one column of a table (parseTarget with each row's line). Throws
/// InputError naming file when the column is missing.
std::vector<double> targetsOfColumn(const Table& table, const std::string& column,
                                    const std::filesystem::path& file);

/// Optional target standardisation (issue 29, point 3): the model learns (y - mean) / scale, and
/// predictions are mapped back with inverse before anything is shown or stored, so every metric
/// and every exported prediction is in the user's units. Fitted on the training targets only.
///
/// As scikit-learn's StandardScaler: the population standard deviation (divided by n, not n - 1)
/// and a scale of 1 when the targets are constant (or nearly: below 10 machine epsilons of the
/// mean's size, as its _handle_zeros_in_scale), so that a constant target trains as centred
/// values instead of dividing by zero.
struct TargetScaler {
    double mean = 0.0;
    double scale = 1.0;

    /// Fitted to the targets; the identity for none. The variance is computed as
    /// StandardScaler's _incremental_mean_and_var does (sum of squared deviations corrected by
    /// the square of their sum over n), so the two agree to the last bits.
    static TargetScaler fit(const std::vector<double>& targets);

    double transform(double target) const { return (target - mean) / scale; }
    double inverse(double standardised) const { return standardised * scale + mean; }
    bool isIdentity() const { return mean == 0.0 && scale == 1.0; }

    /// {"mean": m, "scale": s}, stored with the run so predict and Try it undo it.
    nlohmann::json toJson() const;
    /// Throws InputError for anything but two finite numbers with a positive scale.
    static TargetScaler fromJson(const nlohmann::json& json);
};

/// A warning for training targets that cannot be learnt as given, or "" when there is none:
/// a constant target (nothing to learn; Pearson and Spearman undefined), or one whose spread is
/// below what a 32-bit float tells apart at its mean (1e6 + 0.001 k reads as 1e6 in float:
/// without standardisation the model sees a constant, and R² came out at -1.7e17), or, with
/// standardisation, one so nearly constant that it is only centred (TargetScaler's bound).
/// column names the target in the sentence.
std::string targetSpreadWarning(const std::vector<double>& targets, const TargetScaler& scaling,
                                bool standardised, const std::string& column);

}  // namespace bert
