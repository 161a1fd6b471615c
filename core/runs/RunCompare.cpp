#include "runs/RunCompare.h"

#include <map>

#include "train/Metrics.h"

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

std::string headlineKey(const EvalMetrics& eval) {
    if (!eval.task.is_object()) {
        return "accuracy";
    }
    const auto main = eval.task.find("main");
    return main != eval.task.end() && main->is_string() ? main->get<std::string>() : "accuracy";
}

bool headlineHigherIsBetter(const EvalMetrics& eval) {
    if (!eval.task.is_object()) {
        return true;
    }
    const auto found = eval.task.find("higher_is_better");
    return found == eval.task.end() || !found->is_boolean() || found->get<bool>();
}

std::optional<BestTaskMetric> bestTaskMetric(const std::vector<EvalMetrics>& evaluations) {
    const auto* best = bestEvaluation(evaluations, BestMetric::Task);
    if (best == nullptr) {
        return std::nullopt;
    }
    return BestTaskMetric{headlineKey(*best), headlineHigherIsBetter(*best),
                          metricOf(*best, BestMetric::Task)};
}

}  // namespace bert
