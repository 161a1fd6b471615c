#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runs/RunStore.h"

namespace bert {

/// One setting whose value differs between runs: its dotted path in the run's job
/// ("training.batch_size") and each run's value as text.
struct SettingDifference {
    std::string setting;
    std::vector<std::string> values;
};

/// The settings that differ between runs, sorted by name; equal settings are left out.
std::vector<SettingDifference> settingDifferences(const std::vector<RunRecord>& runs);

/// A run's best by its task's metric, as the trainer judges it with best_metric task-metric:
/// the highest accuracy (single-label), micro-F1 (multi-label) or entity F1 (token
/// classification), the lowest RMSE (regression). Every screen that shows a run's best (the
/// runs list, compare, `runs list` and `runs compare`) shows this one.
struct BestTaskMetric {
    std::string metric;  ///< the headline's key: "accuracy", "micro_f1", "rmse", "entity_f1"
    bool higherIsBetter = true;
    double value = 0.0;
};

/// The figure an evaluation is judged by: its task report's "main", or "accuracy" for
/// single-label, which stores no task report.
std::string headlineKey(const EvalMetrics& eval);
bool headlineHigherIsBetter(const EvalMetrics& eval);

/// The best of evaluations by their task's metric; nullopt when there are none.
std::optional<BestTaskMetric> bestTaskMetric(const std::vector<EvalMetrics>& evaluations);

}  // namespace bert
