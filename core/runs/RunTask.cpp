#include "runs/RunTask.h"

#include <cstdio>

#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "runs/RunExport.h"
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
    if (kind == TaskKind::TokenClassification) {
        json["word_split"] = toString(wordSplit);
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
    if (settings.kind == TaskKind::TokenClassification && report.contains("word_split") &&
        report["word_split"].is_string()) {
        settings.wordSplit = wordSplitFromString(report["word_split"].get<std::string>());
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
        if (block.contains("word_split")) {
            if (!block["word_split"].is_string() ||
                (block["word_split"] != "words" && block["word_split"] != "characters")) {
                throw InputError(source, "\"word_split\" must be \"words\" or \"characters\"");
            }
            settings.wordSplit = wordSplitFromString(block["word_split"].get<std::string>());
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

std::optional<std::size_t> modelMaxLengthOfFolder(const std::filesystem::path& folder) {
    const auto file = folder / "tokenizer_config.json";
    std::error_code error;
    if (!std::filesystem::is_regular_file(file, error)) {
        return std::nullopt;
    }
    std::string problem;
    const auto json = parseJson(readInputFile(file, input_limits::kSmallJson), problem);
    if (!problem.empty() || !json.is_object()) {
        return std::nullopt;  // the tokenizer's loader says what is wrong with the file
    }
    const auto found = json.find("model_max_length");
    // transformers writes int(1e30) (VERY_LARGE_INTEGER) for "no limit".
    constexpr double kNoLimit = 1e9;
    if (found == json.end() || !found->is_number() || !(found->get<double>() >= 1.0) ||
        found->get<double>() >= kNoLimit) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(found->get<double>());
}

std::string ServedCheckpoint::describe() const {
    std::string text = "step " + std::to_string(step) + " (" + toString(kind) + " checkpoint)";
    if (evaluation) {
        char loss[32];
        std::snprintf(loss, sizeof loss, "%.4f", evaluation->loss);
        text += ": validation loss " + std::string(loss) + ", " + evaluationSummary(*evaluation);
    }
    return text;
}

nlohmann::json ServedCheckpoint::toJson() const {
    nlohmann::json json = {{"step", step}, {"checkpoint", toString(kind)}};
    if (evaluation) {
        json["validation_loss"] = evaluation->loss;
        json["evaluation"] = evaluationSummary(*evaluation);
    }
    return json;
}

std::optional<ServedCheckpoint> servedCheckpointOfRun(RunStore& store, std::int64_t runId,
                                                      bool preferBest) {
    const auto folder = modelCheckpointOfRun(store, runId, preferBest);
    if (folder.empty()) {
        return std::nullopt;
    }
    ServedCheckpoint served;
    served.folder = folder;
    for (const auto& checkpoint : store.checkpoints(runId)) {
        if (std::filesystem::path(checkpoint.path) == folder) {
            served.kind = checkpoint.kind;  // best/ is rewritten: its last record is its content
            served.step = checkpoint.step;
        }
    }
    for (const auto& eval : store.evaluations(runId)) {
        if (eval.step == served.step) {
            served.evaluation = eval;
        }
    }
    return served;
}

}  // namespace bert
