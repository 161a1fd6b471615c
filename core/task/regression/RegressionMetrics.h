#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace bert {

/// The metrics of a regression evaluation (issue 29, point 3), in the user's units: the caller
/// undoes any target standardisation (TargetScaler::inverse) on the predictions first and passes
/// the original targets.
///
/// A figure that is undefined is nullopt rather than NaN, so that it is stored, compared and shown
/// as "undefined" instead of poisoning a chart or a JSON file.
struct RegressionReport {
    std::size_t examples = 0;
    double rmse = 0.0;  ///< sqrt(mean((prediction - truth)^2)), sklearn's root_mean_squared_error
    double mae = 0.0;   ///< mean(|prediction - truth|), sklearn's mean_absolute_error
    /// scipy.stats.pearsonr's statistic; undefined (nullopt) with fewer than 2 examples or when
    /// the predictions or the truth are constant (scipy returns NaN and warns).
    std::optional<double> pearson;
    /// scipy.stats.spearmanr's statistic: Pearson's of the ranks, ties given their average rank;
    /// undefined as Pearson's.
    std::optional<double> spearman;
    /// sklearn's r2_score: 1 - residual sum of squares / total sum of squares. With a constant
    /// truth (total 0) it is 1 for perfect predictions and 0 otherwise (r2_score's
    /// force_finite=True); undefined with fewer than 2 examples (r2_score returns NaN).
    std::optional<double> r2;
    /// Why the figures that are nullopt are undefined, for people: "fewer than 2 examples",
    /// "the target is constant", "the predictions are constant"; empty when all are defined.
    std::string undefinedWhy;
};

/// Every figure; examples 0 and nothing defined for empty input. Throws std::invalid_argument
/// when the sizes differ (a bug of the caller).
RegressionReport regressionReportOf(std::span<const double> predictions,
                                    std::span<const double> truth);

/// Ranks from 1, ties given the mean of the ranks they span (scipy.stats.rankdata's "average").
std::vector<double> averageRanks(std::span<const double> values);

/// Pearson's correlation as scipy.stats.pearsonr computes it (centred, each side divided by its
/// norm, clipped to [-1, 1]); nullopt for fewer than 2 values or a constant side.
std::optional<double> pearsonOf(std::span<const double> x, std::span<const double> y);

}  // namespace bert
