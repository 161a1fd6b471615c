#pragma once

#include <string>
#include <vector>

#include "runs/RunStore.h"

namespace bert {

/// One setting whose value differs between runs: its dotted path in the run's job
/// ("training.batch_size") and each run's value as text.
struct SettingDifference {
    std::string setting;
    std::vector<std::string> values;
};

/// The settings that differ between runs, sorted by name; equal settings are left out.
std::vector<SettingDifference> settingDifferences(const std::vector<RunRecord>& runs);

}  // namespace bert
