#include "runs/RunTask.h"

#include "Error.h"
#include "train/Metrics.h"

namespace bert {

nlohmann::json TaskSettings::toJson() const {
    nlohmann::json json = {{"task", toString(kind)}};
    if (kind == TaskKind::MultiLabel) {
        json["threshold"] = threshold;
    }
    if (kind == TaskKind::Regression) {
        json["target_scaling"] = scaling.toJson();
    }
    return json;
}

TaskSettings taskSettingsOfRun(const RunRecord& run, const std::vector<EvalMetrics>& evaluations) {
    TaskSettings settings;
    const auto task = run.config.value("/job/data/task"_json_pointer, nlohmann::json());
    settings.kind = taskKindFromString(task.is_string() ? task.get<std::string>() : "")
                        .value_or(TaskKind::SingleLabel);
    const auto* best = bestEvaluation(evaluations, bestMetricOfRunConfig(run.config));
    if (best == nullptr || !best->task.is_object()) {
        return settings;
    }
    const auto& report = best->task;
    if (settings.kind == TaskKind::MultiLabel) {
        const auto fixed = run.config.value("/job/data/threshold"_json_pointer, nlohmann::json());
        settings.threshold = fixed.is_number()
                                 ? fixed.get<double>()
                                 : report.value("tuned_threshold", report.value("threshold", 0.5));
    }
    if (settings.kind == TaskKind::Regression && report.contains("scaling")) {
        settings.scaling = TargetScaler::fromJson(report["scaling"]);
    }
    return settings;
}

TaskSettings taskSettingsOfConfig(const EncoderConfig& config,
                                  const std::filesystem::path& source) {
    TaskSettings settings;
    const auto& original = config.original;
    if (original.is_object() && original.contains(kTaskSettingsKey)) {
        const auto& block = original[kTaskSettingsKey];
        const auto kind = block.is_object() && block.contains("task") && block["task"].is_string()
                              ? taskKindFromString(block["task"].get<std::string>())
                              : std::nullopt;
        if (!kind) {
            throw InputError(source, std::string("has a \"") + kTaskSettingsKey +
                                         "\" block without a task BERT Studio knows");
        }
        settings.kind = *kind;
        if (block.contains("threshold")) {
            if (!block["threshold"].is_number() || !(block["threshold"].get<double>() >= 0.0) ||
                block["threshold"].get<double>() > 1.0) {
                throw InputError(source, "\"threshold\" must be a number between 0 and 1");
            }
            settings.threshold = block["threshold"].get<double>();
        }
        if (block.contains("target_scaling")) {
            try {
                settings.scaling = TargetScaler::fromJson(block["target_scaling"]);
            } catch (const InputError& error) {
                throw InputError(source, error.problem());
            }
        }
        return settings;
    }
    if (config.head == HeadKind::Token) {
        settings.kind = TaskKind::TokenClassification;
    } else if (effectiveProblemType(config) == ProblemType::MultiLabel) {
        settings.kind = TaskKind::MultiLabel;
    } else if (effectiveProblemType(config) == ProblemType::Regression) {
        settings.kind = TaskKind::Regression;
    }
    return settings;
}

}  // namespace bert
