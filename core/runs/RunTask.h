#pragma once

// What predicting with a run's model needs beyond its weights (issue 29): the task, the
// multi-label decision threshold the run chose, and how a regression run standardised its
// target. Taken from the run (its job and its best evaluation) and written into an exported
// folder's config.json as "bert_studio_task", so that predict, Try it and an exported folder
// give the same answers.

#include <vector>

#include <nlohmann/json.hpp>

#include "model/EncoderConfig.h"
#include "runs/RunStore.h"
#include "task/regression/RegressionTargets.h"
#include "task/TaskKind.h"

namespace bert {

struct TaskSettings {
    TaskKind kind = TaskKind::SingleLabel;
    double threshold = 0.5;  ///< multi-label: a label is predicted at probability >= threshold
    TargetScaler scaling;    ///< regression: undone on the model's output

    nlohmann::json toJson() const;
};

/// The config.json key the settings are written under.
inline constexpr const char* kTaskSettingsKey = "bert_studio_task";

/// A run's settings: its job's task; the threshold the job fixed, else the one tuned on
/// validation at the best evaluation (by the run's best metric); the scaling its evaluations
/// report.
TaskSettings taskSettingsOfRun(const RunRecord& run, const std::vector<EvalMetrics>& evaluations);

/// A model folder's settings: config.json's "bert_studio_task" when it has one (our exports),
/// else what its head and problem_type say, at threshold 0.5 and no scaling (a folder from
/// elsewhere). Throws InputError naming source for a malformed block.
TaskSettings taskSettingsOfConfig(const EncoderConfig& config,
                                  const std::filesystem::path& source);

}  // namespace bert
