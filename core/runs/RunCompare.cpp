#include "runs/RunCompare.h"

#include <map>

namespace bert {

namespace {

void flatten(const nlohmann::json& json, const std::string& prefix,
             std::map<std::string, std::string>& out) {
    if (json.is_object()) {
        for (const auto& [key, value] : json.items()) {
            flatten(value, prefix.empty() ? key : prefix + "." + key, out);
        }
    } else {
        out[prefix] = json.is_string() ? json.get<std::string>() : json.dump();
    }
}

}  // namespace

std::vector<SettingDifference> settingDifferences(const std::vector<RunRecord>& runs) {
    std::vector<std::map<std::string, std::string>> settings(runs.size());
    std::map<std::string, bool> keys;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        flatten(runs[i].config.contains("job") ? runs[i].config["job"] : runs[i].config, "",
                settings[i]);
        for (const auto& [key, value] : settings[i]) {
            keys[key] = true;
        }
    }
    std::vector<SettingDifference> differences;
    for (const auto& [key, unused] : keys) {
        SettingDifference difference{key, {}};
        bool differs = false;
        for (auto& s : settings) {
            difference.values.push_back(s.count(key) ? s[key] : std::string("—"));
            differs = differs || difference.values.back() != difference.values.front();
        }
        if (differs) {
            differences.push_back(std::move(difference));
        }
    }
    return differences;
}

}  // namespace bert
