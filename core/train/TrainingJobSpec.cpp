#include "train/TrainingJobSpec.h"

#include "Error.h"
#include "hf/ModelCache.h"
#include "task/Task.h"

namespace bert {

nlohmann::json TrainingJob::toJson() const {
    nlohmann::json dataJson = {{"train_file", data.trainFile.string()},
                               {"text_column", data.columns.text},
                               {"text_pair_column", data.columns.textPair},
                               {"label_column", data.columns.label},
                               {"task", toString(data.task.kind)}};
    if (!data.task.labelSeparator.empty()) {
        dataJson["label_separator"] = data.task.labelSeparator;
    }
    if (!data.task.labelColumns.empty()) {
        dataJson["label_columns"] = data.task.labelColumns;
    }
    taskOf(data.task.kind).writeJobData(data.task, dataJson);
    if (data.task.threshold) {
        dataJson["threshold"] = *data.task.threshold;
    }
    if (data.validationFile) {
        dataJson["validation_file"] = data.validationFile->string();
    }
    return {{"name", name},
            {"model", modelFolder.string()},
            {"preset", preset},
            {"data", dataJson},
            {"training", training.toJson()}};
}

TrainingJob TrainingJob::fromJson(const nlohmann::json& json) {
    if (!json.is_object() || !json.contains("data") || !json.contains("training")) {
        throw InputError("a training job needs \"data\" and \"training\"");
    }
    try {
        TrainingJob job;
        job.name = json.value("name", std::string());
        job.modelFolder = json.value("model", std::string());
        job.preset = json.value("preset", std::string());
        const auto& data = json.at("data");
        if (!data.is_object()) {
            throw InputError("a training job's \"data\" must be an object");
        }
        job.data.trainFile = data.value("train_file", std::string());
        job.data.columns.text = data.value("text_column", std::string("text"));
        job.data.columns.textPair = data.value("text_pair_column", std::string());
        job.data.columns.label = data.value("label_column", std::string("label"));
        // Jobs stored before issue 29 have no task: they were single-label.
        const auto task = data.value("task", std::string("single-label"));
        const auto kind = taskKindFromString(task);
        if (!kind) {
            throw InputError("unknown task \"" + task +
                             "\"; the tasks are single-label, multi-label, regression and "
                             "token-classification");
        }
        job.data.task.kind = *kind;
        job.data.task.labelSeparator = data.value("label_separator", std::string());
        job.data.task.labelColumns = data.value("label_columns", std::vector<std::string>{});
        // Standardising is the default (runs stored before wrote the key only when on: see
        // runs/TrainingJob.cpp, jobOfRun).
        job.data.task.standardizeTargets = data.value("standardize_targets", true);
        if (data.contains("threshold") && data["threshold"].is_number()) {
            const auto threshold = data["threshold"].get<double>();
            if (!(threshold > 0.0 && threshold < 1.0)) {
                throw InputError("a training job's \"threshold\" must lie between 0 and 1");
            }
            job.data.task.threshold = threshold;
        }
        if (data.contains("validation_file") && !data["validation_file"].is_null()) {
            job.data.validationFile = data["validation_file"].get<std::string>();
        }
        job.training = TrainingConfig::fromJson(json.at("training"));
        return job;
    } catch (const nlohmann::json::exception& error) {
        throw InputError(std::string("a training job has a field of the wrong type: ") +
                         error.what());
    }
}

std::string TrainingJob::displayName() const {
    if (!name.empty()) {
        return name;
    }
    // A cached model by its repo id, not its snapshot's hash (hf/ModelCache.h).
    const std::string model =
        preset.empty() ? modelFolderName(modelFolder) : preset + " (from scratch)";
    return model + " on " + data.trainFile.filename().string();
}

std::string autoRunName(const TrainingJob& job, std::int64_t runId) {
    const auto techniques = job.training.techniquesSummary();
    return job.displayName() + (techniques.empty() ? "" : ", " + techniques) + " #" +
           std::to_string(runId);
}

}  // namespace bert
