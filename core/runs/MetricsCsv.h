#pragma once

#include <cstdint>
#include <filesystem>

namespace bert {

class RunStore;

/// Writes a run's per-step and per-evaluation metrics as CSV (one row per step; evaluation
/// columns filled at the steps that have one), atomically. Throws StoreError naming the file
/// (or the database) on failure.
void writeMetricsCsv(RunStore& store, std::int64_t runId, const std::filesystem::path& file);

}  // namespace bert
