#pragma once

#include <cstdint>

namespace bert {
class RunStore;
}

namespace bert::ui {

/// Bytes of a run's files on disk: its folder of checkpoints (0 when it has none).
std::int64_t runDiskBytes(const RunStore& store, std::int64_t runId);

/// Removes a run's checkpoints (its whole folder in the runs folder) and keeps its record:
/// metrics, evaluations, events, settings and notes stay, and the run can still be compared,
/// opened and trained again, but no longer resumed, exported or tried. Refuses (InputError) a
/// run that is running. Returns the bytes freed.
std::int64_t removeRunCheckpoints(RunStore& store, std::int64_t runId);

}  // namespace bert::ui
