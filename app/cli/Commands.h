#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "train/TrainingJob.h"

namespace bert::cli {

/// `inspect`: configuration, parameter count, weight memory and tokenizer of a model folder.
void inspect(const std::filesystem::path& folder, bool json, std::ostream& out);

/// `predict`: label probabilities of each text under the model in folder.
void predict(const std::filesystem::path& folder, const std::vector<std::string>& texts,
             std::size_t maxLength, bool json, std::ostream& out, std::ostream& err);

/// The flags of `train` and `estimate`; text-valued switches are resolved into job.training.
struct TrainArguments {
    TrainingJob job;
    std::string configFile;
    std::string validationFile;
    std::string padding = "dynamic";
    std::string precision = "fp32";
    std::string cacheRelease = "never";
    std::string memoryCap;
    std::string reportFile;  ///< train --report: per-step timings and memory as JSON
    /// Applies the text-valued switches; throws InputError for bad values.
    TrainingJob resolve() const;
};

/// Loads --config FILE (a whole job, or just its "training" settings) into args before flags
/// are parsed, so that flags given on the command line override the file.
void loadConfigFile(const std::filesystem::path& file, TrainArguments& args);

/// "16GiB", "800 MiB", "1.5GB", "123456" -> bytes. Throws InputError.
std::int64_t parseByteSize(const std::string& text);

/// `train`: returns the exit code (0 completed, 3 failed, 130 cancelled).
int train(const TrainArguments& args, const std::filesystem::path& database,
          const std::atomic<bool>& cancel, std::ostream& out, std::ostream& err);
int resume(std::int64_t runId, const std::filesystem::path& database, const std::atomic<bool>& cancel,
           std::ostream& out, std::ostream& err);
void estimate(const TrainArguments& args, bool trial, std::ostream& out);

void listRuns(const std::filesystem::path& database, bool json, std::ostream& out);
void showRun(const std::filesystem::path& database, std::int64_t runId, std::ostream& out);
void compareRuns(const std::filesystem::path& database, const std::vector<std::int64_t>& runIds,
                 std::ostream& out);

/// "12.3 MiB"-style size for people.
std::string humanBytes(double bytes);

}  // namespace bert::cli
