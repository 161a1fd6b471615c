#pragma once

// A run's or a model folder's task settings (task/TaskSettings.h: the task, the multi-label
// threshold, the regression target's scaling, the word split), and which checkpoint of a run
// answers when it predicts.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/EncoderConfig.h"
#include "runs/RunStore.h"
#include "task/TaskSettings.h"

namespace bert {

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
