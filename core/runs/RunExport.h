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
///
/// Never destroys: the folder is written beside the target and renamed into place, so a failure
/// part-way leaves the target as it was; an existing non-empty target is refused unless force,
/// and even then a folder holding the run's own checkpoints or its base model is refused.
/// Throws InputError for a run that does not exist or has no saved model and for a refused
/// target, StoreError when the target cannot be written.
std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& target, bool preferBest = true,
                                bool force = false);

}  // namespace bert
