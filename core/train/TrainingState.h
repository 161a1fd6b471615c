#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <nlohmann/json.hpp>

#include "train/TrainerEvents.h"
#include "train/TrainingStateFile.h"

namespace torch::optim {
class AdamW;
}

namespace bert {

class SequenceClassifier;
class Tokenizer;

/// A training-state checkpoint: a folder holding a transformers model folder (config.json,
/// model.safetensors, tokenizer files: export and predict read it as it is) plus what resuming
/// needs: AdamW's moments and the random states (training_state.safetensors) and the position in
/// the schedule (trainer_state.json). "Checkpoint" in this code means only this; gradient
/// checkpointing is "recompute" (train/Recompute.h) and Hugging Face folders are "model folders"
/// (hf/ModelFolder.h).
/// The folder of a checkpoint inside a run folder: best/ or checkpoint-<step>/.
std::filesystem::path checkpointFolder(const std::filesystem::path& runFolder, CheckpointKind kind,
                                       std::size_t step);

/// Writes a complete checkpoint into folder: the model folder, the optimizer's moments of every
/// parameter it holds state for (by parameter name), the CPU random state and, on CUDA, the
/// device's, then trainer_state.json last, so that a folder with trainer_state.json is complete.
/// Each file is replaced atomically; failures throw StoreError naming the file.
/// extraTensors go into training_state.safetensors as well (a data-parallel run's random state
/// of every rank: rankRngTensor()).
void saveCheckpoint(const std::filesystem::path& folder, SequenceClassifier& model,
                    const Tokenizer& tokenizer, const torch::optim::AdamW& optimizer,
                    const c10::Device& device, const TrainingState& state,
                    const std::vector<std::pair<std::string, at::Tensor>>& extraTensors = {});

/// The name of rank r's random state (CPU, or the device's) in a data-parallel checkpoint.
std::string rankRngTensor(int rank, bool device);

/// Restores a checkpoint into model (weights) and optimizer (moments and step counts of the
/// trainable parameters), and the random states; returns its TrainingState. Every tensor is
/// checked against the model before anything is changed: a missing or extra weight, a weight or
/// moment whose shape or type differs from its parameter's, a random state of the wrong size.
/// Throws InputError naming the file and the tensor; on a throw the model is unchanged.
/// rank >= 0: a data-parallel rank, which takes its own random states (rankRngTensor) where the
/// checkpoint has them.
TrainingState loadCheckpoint(const std::filesystem::path& folder,
                             SequenceClassifier& model,
                             torch::optim::AdamW& optimizer, const c10::Device& device,
                             int rank = -1);

/// Removes what an interrupted checkpoint write left in a run's folder: temporary files of
/// AtomicFile ("*.tmp-N") and checkpoint folders without their trainer_state.json (which is
/// written last). Complete checkpoints are kept. Returns the bytes freed.
std::uintmax_t removeIncompleteCheckpoints(const std::filesystem::path& runFolder);

/// The newest complete checkpoint in a run's folder (by step; a regular one before best/), or
/// empty. The folder is the truth: a process killed right after writing a checkpoint may not
/// have recorded it in the run store yet.
std::filesystem::path latestCheckpoint(const std::filesystem::path& runFolder);

}  // namespace bert
