#pragma once

// What predicting with a run's model needs beyond its weights: the task, the multi-label
// decision threshold the run chose, how a regression run standardised its target, how a token
// classification run cut its texts into words. Taken from the run (runs/RunTask.h) and written
// into an exported folder's config.json as "bert_studio_task", so that predict, Try it and an
// exported folder give the same answers. Each task reads and writes its own fields (task/Task.h).

#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "data/LongText.h"
#include "data/WordSplit.h"
#include "task/TaskKind.h"
#include "task/regression/RegressionTargets.h"

namespace bert {

struct TaskSettings {
    TaskKind kind = TaskKind::SingleLabel;
    double threshold = 0.5;  ///< multi-label: a label is predicted at probability >= threshold
    TargetScaler scaling;    ///< regression: undone on the model's output
    /// Token classification: how texts are cut into words, as the run's data was.
    WordSplit wordSplit = WordSplit::Words;
    /// How texts longer than the max length are made to fit, as the run's were (its windows'
    /// pooling resolved: never WindowPooling::Task). Written only when not truncate.
    LongTextSpec longText;
    /// Single-label, with temperature scaling on: the logits are divided by it before the
    /// softmax (task/TemperatureScaling.h). None: probabilities as the model gives them.
    std::optional<double> temperature;

    /// {"task": "multi-label", "threshold": 0.5}: the task's name and its own fields.
    nlohmann::json toJson() const;
    /// The settings of a "bert_studio_task" block as toJson writes it. Throws InputError naming
    /// source for a block without a known task or with a malformed field.
    static TaskSettings fromJson(const nlohmann::json& block, const std::filesystem::path& source);
};

/// The config.json key the settings are written under.
inline constexpr const char* kTaskSettingsKey = "bert_studio_task";

}  // namespace bert
