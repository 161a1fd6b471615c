#pragma once

#include <cstdint>
#include <filesystem>

#include "runs/RunStore.h"

namespace bert {

/// The checkpoint folder a run's model is best taken from (best, else the last), or empty when
/// none of its recorded checkpoints is on disk.
std::filesystem::path modelCheckpointOfRun(RunStore& store, std::int64_t runId,
                                           bool preferBest = true);

/// Writes a run's model (best checkpoint, else last) as a transformers folder plus a run card
/// (README.md and run_card.json: configuration, labels, metrics, memory). Returns the folder.
/// Throws InputError for a run that does not exist or has no saved model, StoreError when the
/// target cannot be written.
std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& target, bool preferBest = true);

}  // namespace bert
