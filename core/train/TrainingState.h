#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <c10/core/Device.h>
#include <nlohmann/json.hpp>

#include "train/TrainerEvents.h"

namespace torch::optim {
class AdamW;
}

namespace bert {

class BertForSequenceClassificationImpl;
class WordPieceTokenizer;

/// A training-state checkpoint: a folder holding a transformers model folder (config.json,
/// model.safetensors, tokenizer files: export and predict read it as it is) plus what resuming
/// needs: AdamW's moments and the random states (training_state.safetensors) and the position in
/// the schedule (trainer_state.json). "Checkpoint" in this code means only this; gradient
/// checkpointing is "recompute" (train/Recompute.h) and Hugging Face folders are "model folders"
/// (hf/ModelFolder.h).
namespace checkpoint_files {
constexpr const char* kTrainerState = "trainer_state.json";             ///< TrainingState as JSON
constexpr const char* kTrainingTensors = "training_state.safetensors";  ///< moments, random states
constexpr const char* kBestFolder = "best";           ///< the best checkpoint so far
constexpr const char* kFolderPrefix = "checkpoint-";  ///< checkpoint-<step>/
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
    std::size_t microBatch = 0;      ///< after any out-of-memory recovery
    std::size_t evalBatch = 0;       ///< after any evaluation out-of-memory recovery
    double bestAccuracy = -1.0;      ///< best validation accuracy so far (-1: none yet)
    double lossScale = 0.0;          ///< fp16 loss scale (0 without loss scaling)
    std::int64_t growthTracker = 0;  ///< clean steps since the scale last changed
    double metric = 0.0;             ///< validation accuracy at this checkpoint
    nlohmann::json config = nlohmann::json::object();  ///< the run's TrainingConfig, for people
};

/// The folder of a checkpoint inside a run folder: best/ or checkpoint-<step>/.
std::filesystem::path checkpointFolder(const std::filesystem::path& runFolder, CheckpointKind kind,
                                       std::size_t step);

/// Writes a complete checkpoint into folder: the model folder, the optimizer's moments of every
/// parameter it holds state for (by parameter name), the CPU random state and, on CUDA, the
/// device's, then trainer_state.json last, so that a folder with trainer_state.json is complete.
/// Each file is replaced atomically; failures throw StoreError naming the file.
void saveCheckpoint(const std::filesystem::path& folder, BertForSequenceClassificationImpl& model,
                    const WordPieceTokenizer& tokenizer, const torch::optim::AdamW& optimizer,
                    const c10::Device& device, const TrainingState& state);

/// Restores a checkpoint into model (weights) and optimizer (moments and step counts of the
/// trainable parameters), and the random states; returns its TrainingState. Every tensor is
/// checked against the model before anything is changed: a missing or extra weight, a weight or
/// moment whose shape or type differs from its parameter's, a random state of the wrong size.
/// Throws InputError naming the file and the tensor; on a throw the model is unchanged.
TrainingState loadCheckpoint(const std::filesystem::path& folder,
                             BertForSequenceClassificationImpl& model,
                             torch::optim::AdamW& optimizer, const c10::Device& device);

/// Removes what an interrupted checkpoint write left in a run's folder: temporary files of
/// AtomicFile ("*.tmp-N") and checkpoint folders without their trainer_state.json (which is
/// written last). Complete checkpoints are kept. Returns the bytes freed.
std::uintmax_t removeIncompleteCheckpoints(const std::filesystem::path& runFolder);

/// The newest complete checkpoint in a run's folder (by step; a regular one before best/), or
/// empty. The folder is the truth: a process killed right after writing a checkpoint may not
/// have recorded it in the run store yet.
std::filesystem::path latestCheckpoint(const std::filesystem::path& runFolder);

}  // namespace bert
