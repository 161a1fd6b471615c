#pragma once

// What a run was made of, kept with it so that a resume trains exactly that run (issue 26: a
// changed config.json, a shuffled vocabulary or a swapped model folder once resumed silently,
// and the run ended with two models). No LibTorch here.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "train/TrainingJobSpec.h"

namespace bert {

/// The job with every path absolute (and its symbolic links resolved): a run stores these, so
/// that resume, export and predict work from any directory.
TrainingJob withAbsolutePaths(TrainingJob job);

/// The files the job reads, by absolute path, with a fingerprint of each (64 bits over its
/// bytes): the model folder's configuration, tokenizer and weights files (only the tokenizer's
/// for a from-scratch preset) and the data files. As stored in a run:
/// {"model_folder": "/abs", "files": [{"path": "/abs/config.json", "role": "model",
/// "fingerprint": "0123456789abcdef"}, ...]}. Throws InputError naming a file it cannot read.
nlohmann::json fingerprintJobInputs(const TrainingJob& job);

/// What differs between a run's stored inputs and the same job's files now, one line per file
/// ("/abs/config.json has changed", "... is gone", "... is new"), apart for the model and the
/// data. Empty for a run stored without inputs (older versions).
struct InputChanges {
    std::vector<std::string> model;
    std::vector<std::string> data;
    bool empty() const { return model.empty() && data.empty(); }
};
InputChanges compareJobInputs(const nlohmann::json& stored, const TrainingJob& job);

/// 16 hex digits over a file's bytes (not a security hash: a way to notice a change). Throws
/// InputError naming the file when it cannot be read.
std::string fileFingerprint(const std::filesystem::path& file);

}  // namespace bert
