#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "checkpoint/ModelFolder.h"
#include "store/RunStore.h"
#include "train/Trainer.h"

namespace bert {

/// Everything a run needs, as the command line and the studio both describe it. Stored in the
/// run (config_json) so that `resume` can rebuild the same run.
struct TrainingJob {
    std::string name;                   ///< run name; empty: "<model> on <dataset>"
    std::filesystem::path modelFolder;  ///< a transformers folder (base or fine-tuned)
    /// From-scratch size (tiny, mini, small, base) using modelFolder's tokenizer; empty: fine-tune.
    std::string preset;
    DataSpec data;
    TrainingConfig training;

    nlohmann::json toJson() const;
    /// Throws InputError for a malformed job.
    static TrainingJob fromJson(const nlohmann::json& json);
    std::string displayName() const;
};

/// A job's data and model, ready to train: the model has the data's labels.
struct PreparedJob {
    TrainingData data;
    ModelBundle model;
};
PreparedJob prepareJob(const TrainingJob& job);

struct SessionResult {
    std::int64_t runId = 0;
    RunResult result;
};

/// Runs a job end to end: creates the run in the store (or reopens runId to resume it from its
/// last checkpoint), trains with a RunRecorder writing every metric, and reports to `observer`
/// as well. Input errors before training (bad file, missing column) throw InputError and store
/// nothing; everything after is recorded in the run.
SessionResult runTrainingJob(const TrainingJob& job, const std::filesystem::path& database,
                             TrainerObserver* observer, const std::atomic<bool>& cancel,
                             const std::function<void(std::int64_t)>& onRunCreated = {});
SessionResult resumeTrainingRun(std::int64_t runId, const std::filesystem::path& database,
                                TrainerObserver* observer, const std::atomic<bool>& cancel);

/// The job a stored run was made from.
TrainingJob jobOfRun(const RunRecord& run);

/// Writes a run's model (best checkpoint, else last) as a transformers folder plus a run card
/// (README.md and run_card.json: configuration, labels, metrics, memory). Returns the folder.
std::filesystem::path exportRun(RunStore& store, std::int64_t runId, const std::filesystem::path& target,
                                bool preferBest = true);

/// The newest complete checkpoint in a run's folder (by step; a regular one before best/), or empty.
std::filesystem::path latestCheckpoint(const std::filesystem::path& runFolder);

/// The checkpoint folder a run's model is best taken from (best, else the last), or empty.
std::filesystem::path modelCheckpointOfRun(RunStore& store, std::int64_t runId, bool preferBest = true);

}  // namespace bert
