#include "runs/RunTask.h"

#include <cstdio>
#include <optional>

#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "runs/RunExport.h"
#include "task/Calibration.h"
#include "task/Task.h"
#include "train/Metrics.h"
#include "train/TrainingConfig.h"

namespace bert {

TaskSettings taskSettingsOfRun(const RunRecord& run, const std::vector<EvalMetrics>& evaluations) {
    TaskSettings settings;
    const auto task = run.config.value("/job/data/task"_json_pointer, nlohmann::json());
    settings.kind = taskKindFromString(task.is_string() ? task.get<std::string>() : "")
                        .value_or(allTaskKinds().front());
    // How the run made long texts fit (a run from before the setting truncated).
    const auto training = run.config.value("/job/training"_json_pointer, nlohmann::json());
    std::optional<TrainingConfig> config;
    if (training.is_object()) {
        try {
            config = TrainingConfig::fromJson(training);
            settings.longText = config->longTextSpec();
        } catch (const InputError&) {
            // A stored config this version cannot read: its texts were truncated.
        }
        if (settings.longText.pooling == WindowPooling::Task) {
            settings.longText.pooling = taskOf(settings.kind).windowPooling();
        }
    }
    const auto* best = bestEvaluation(evaluations, bestMetricOfRunConfig(run.config));
    if (best != nullptr && best->task.is_object()) {
        taskOf(settings.kind).readRunSettings(settings, run.config, best->task);
    }
    // Temperature scaling, when the run asked for it: the temperature fitted at that evaluation
    // (none where the fit found no minimum: the probabilities stay the model's).
    if (best != nullptr && config && config->temperatureScaling) {
        if (const auto calibration = CalibrationReport::fromJson(best->calibration);
            calibration && calibration->temperature) {
            settings.temperature = calibration->temperature;
        }
    }
    return settings;
}

TaskSettings taskSettingsOfConfig(const EncoderConfig& config,
                                  const std::filesystem::path& source) {
    const auto& original = config.original;
    if (original.is_object() && original.contains(kTaskSettingsKey)) {
        return TaskSettings::fromJson(original[kTaskSettingsKey], source);
    }
    // A folder from elsewhere: the task whose head and problem_type it has.
    TaskSettings settings;
    const bool perToken = config.head == HeadKind::Token;
    for (const auto* task : allTasks()) {
        if (task->perToken() == perToken &&
            (perToken ||
             parseProblemType(std::string(task->problemType())) == effectiveProblemType(config))) {
            settings.kind = task->kind();
            break;
        }
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
