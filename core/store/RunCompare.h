#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "store/RunStore.h"

namespace bert {

/// One setting whose value differs between runs: its dotted path in the run's job
/// ("training.batch_size") and each run's value as text.
struct SettingDifference {
    std::string setting;
    std::vector<std::string> values;
};

/// The settings that differ between runs, sorted by name; equal settings are left out.
std::vector<SettingDifference> settingDifferences(const std::vector<RunRecord>& runs);

/// Writes a run's per-step and per-evaluation metrics as CSV (one row per step; evaluation
/// columns filled at the steps that have one). Throws InputError naming the file on failure.
void writeMetricsCsv(RunStore& store, std::int64_t runId, const std::filesystem::path& file);

}  // namespace bert
