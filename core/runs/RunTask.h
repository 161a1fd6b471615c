#pragma once

// What predicting with a run's model needs beyond its weights (issue 29): the task, the
// multi-label decision threshold the run chose, and how a regression run standardised its
// target. Taken from the run (its job and its best evaluation) and written into an exported
// folder's config.json as "bert_studio_task", so that predict, Try it and an exported folder
// give the same answers.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/WordSplit.h"
#include "model/EncoderConfig.h"
#include "runs/RunStore.h"
#include "task/TaskKind.h"
#include "task/regression/RegressionTargets.h"

namespace bert {

struct TaskSettings {
    TaskKind kind = TaskKind::SingleLabel;
    double threshold = 0.5;  ///< multi-label: a label is predicted at probability >= threshold
    TargetScaler scaling;    ///< regression: undone on the model's output
    /// Token classification: how texts are cut into words, as the run's data was.
    WordSplit wordSplit = WordSplit::Words;

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
TaskSettings taskSettingsOfConfig(const EncoderConfig& config, const std::filesystem::path& source);

/// The length a model folder's tokenizer cuts at: tokenizer_config.json's model_max_length (an
/// export writes the length its run trained at), as transformers' pipeline cuts with
/// truncation=True; nullopt when the file or the key is absent, or holds transformers' "no
/// limit" (a huge number).
std::optional<std::size_t> modelMaxLengthOfFolder(const std::filesystem::path& folder);

/// The checkpoint whose weights a run serves (Try it, `predict --run` and export take best/,
/// else the last) and the evaluation at its step, so that every screen can say which model
/// answers.
struct ServedCheckpoint {
    std::filesystem::path folder;
    CheckpointKind kind = CheckpointKind::Best;
    std::size_t step = 0;
    std::optional<EvalMetrics> evaluation;  ///< the evaluation at step, when one was recorded

    /// "step 40 (best checkpoint): validation loss 0.0660, entity F1 0.8571"
    std::string describe() const;
    nlohmann::json toJson() const;
};

/// The run's served checkpoint (runs/RunExport.h, modelCheckpointOfRun), or nullopt when none
/// of its checkpoints is on disk.
std::optional<ServedCheckpoint> servedCheckpointOfRun(RunStore& store, std::int64_t runId,
                                                      bool preferBest = true);

}  // namespace bert
