#include "store/RunCompare.h"

#include <map>
#include <sstream>

#include "Error.h"
#include "io/AtomicFile.h"

namespace bert {

namespace {

void flatten(const nlohmann::json& json, const std::string& prefix, std::map<std::string, std::string>& out) {
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
        flatten(runs[i].config.contains("job") ? runs[i].config["job"] : runs[i].config, "", settings[i]);
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

void writeMetricsCsv(RunStore& store, std::int64_t runId, const std::filesystem::path& file) {
    std::map<std::size_t, EvalMetrics> evaluations;
    for (const auto& evaluation : store.evaluations(runId)) {
        evaluations[evaluation.step] = evaluation;
    }
    std::ostringstream csv;
    csv << "step,epoch,loss,learning_rate,memory_current_bytes,memory_peak_bytes,memory_reserved_bytes,"
           "samples_per_second,tokens_per_second,padding_share,loss_scale,micro_batch,accumulation,skipped,"
           "validation_loss,validation_accuracy,validation_macro_f1\n";
    for (const auto& m : store.steps(runId)) {
        csv << m.step << ',' << m.epoch << ',' << m.loss << ',' << m.learningRate << ',' << m.memory.current << ','
            << m.memory.peak << ',' << m.memory.reserved << ',' << m.samplesPerSecond << ',' << m.tokensPerSecond
            << ',' << m.paddingShare << ',' << m.lossScale << ',' << m.microBatch << ',' << m.accumulation << ','
            << (m.skipped ? 1 : 0);
        if (const auto it = evaluations.find(m.step); it != evaluations.end()) {
            csv << ',' << it->second.loss << ',' << it->second.accuracy << ',' << it->second.macroF1;
        } else {
            csv << ",,,";
        }
        csv << '\n';
    }
    writeFileAtomically(file, csv.str());
}

}  // namespace bert
