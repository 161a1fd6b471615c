#pragma once

// The plain-number part of a training-state checkpoint (trainer_state.json) and the names of a
// checkpoint's files, without LibTorch: the checkpoint code (TrainingState.h) and the fuzzer
// share them.

#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "train/TrainerEvents.h"

namespace bert {

namespace checkpoint_files {
constexpr const char* kTrainerState = "trainer_state.json";             ///< TrainingState as JSON
constexpr const char* kTrainingTensors = "training_state.safetensors";  ///< moments, random states
constexpr const char* kBestFolder = "best";           ///< the best checkpoint so far
constexpr const char* kFolderPrefix = "checkpoint-";  ///< checkpoint-<step>/
/// A checkpoint moved aside while its replacement goes in (where RENAME_EXCHANGE is missing).
constexpr const char* kPreviousSuffix = ".previous";
}  // namespace checkpoint_files

/// Where a run is in its schedule.
struct TrainingPosition {
    std::size_t epoch = 0;   ///< 0-based epoch in progress
    std::size_t window = 0;  ///< next window (optimizer step) of that epoch
    std::size_t step = 0;    ///< optimizer steps done
};

/// The plain-number part of a checkpoint (trainer_state.json).
struct TrainingState {
    CheckpointKind kind = CheckpointKind::Epoch;
    TrainingPosition position;
    std::size_t microBatch = 0;  ///< after any out-of-memory recovery
    std::size_t evalBatch = 0;   ///< after any evaluation out-of-memory recovery
    /// The best value so far of the run's best_metric, higher is better (the loss negated);
    /// absent: none yet. Older states stored best_accuracy, read as this.
    std::optional<double> bestScore;
    /// The best evaluation's validation loss and step, which break ties of bestScore
    /// (train/Metrics.h, ranksAbove); older states lack them: infinity and 0.
    double bestLoss = std::numeric_limits<double>::infinity();
    std::size_t bestStep = 0;
    std::size_t evaluationsWithoutImprovement = 0;  ///< for early stopping
    double lossScale = 0.0;                         ///< fp16 loss scale (0 without loss scaling)
    std::int64_t growthTracker = 0;                 ///< clean steps since the scale last changed
    double metric = 0.0;                            ///< the best_metric's value at this checkpoint
    nlohmann::json config = nlohmann::json::object();  ///< the run's TrainingConfig, for people
    /// AdamW's step count per parameter name (what the moments in training_state.safetensors need).
    nlohmann::json adamSteps = nlohmann::json::object();
};

/// trainer_state.json's content.
nlohmann::json trainingStateToJson(const TrainingState& state);

/// Parses trainer_state.json; throws InputError naming file for text that is not a JSON object,
/// nests too deep, or has a field of the wrong type.
TrainingState parseTrainingState(std::string_view text, const std::filesystem::path& file);

}  // namespace bert
