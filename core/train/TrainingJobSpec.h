#pragma once

// A training job as the command line's --config files, the studio and stored runs describe it,
// without LibTorch (the job-file fuzzer reads it too). TrainingJob.h runs it.

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "task/TrainingData.h"
#include "train/TrainingConfig.h"

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

/// The name of a run the user did not name: "<model> on <dataset>, <techniques on> #<id>", so
/// that runs of one model and dataset can be told apart in tables and charts.
std::string autoRunName(const TrainingJob& job, std::int64_t runId);

}  // namespace bert
