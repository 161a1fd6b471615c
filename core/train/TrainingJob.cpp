#include "train/TrainingJob.h"

#include <fstream>

#include "Error.h"
#include "io/AtomicFile.h"
#include "memory/MemoryMonitor.h"

namespace bert {

nlohmann::json TrainingJob::toJson() const {
    nlohmann::json dataJson = {{"train_file", data.trainFile.string()},
                               {"text_column", data.columns.text},
                               {"text_pair_column", data.columns.textPair},
                               {"label_column", data.columns.label}};
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
    TrainingJob job;
    job.name = json.value("name", std::string());
    job.modelFolder = json.value("model", std::string());
    job.preset = json.value("preset", std::string());
    const auto& data = json["data"];
    job.data.trainFile = data.value("train_file", std::string());
    job.data.columns.text = data.value("text_column", std::string("text"));
    job.data.columns.textPair = data.value("text_pair_column", std::string());
    job.data.columns.label = data.value("label_column", std::string("label"));
    if (data.contains("validation_file") && data["validation_file"].is_string()) {
        job.data.validationFile = data["validation_file"].get<std::string>();
    }
    job.training = TrainingConfig::fromJson(json["training"]);
    return job;
}

std::string TrainingJob::displayName() const {
    if (!name.empty()) {
        return name;
    }
    // A folder called "model" (as packages ship it) says little: name its parent instead.
    auto folder = modelFolder.filename() == "model" ? modelFolder.parent_path().filename() : modelFolder.filename();
    const std::string model = preset.empty() ? folder.string() : preset + " (from scratch)";
    return model + " on " + data.trainFile.filename().string();
}

PreparedJob prepareJob(const TrainingJob& job) {
    if (job.modelFolder.empty()) {
        throw InputError("no model folder given (and no bundled default model found)");
    }
    // The CPU accounting counts only tensors allocated after it is installed: install it before
    // the model exists, or a run's peak leaves out the model's weights (it did: 87 MiB on MiniLM).
    const MemoryMonitor cpuAccounting{c10::Device(c10::kCPU)};
    auto tokenizer = WordPieceTokenizer::fromModelFolder(job.modelFolder);
    auto data = prepareTrainingData(job.data, tokenizer, job.training);
    if (!job.preset.empty()) {
        auto model = makePresetModel(job.preset, std::move(tokenizer), data.labels.names, job.training.seed);
        return {std::move(data), std::move(model)};
    }
    LoadOptions options;
    options.labels = data.labels.names;
    options.seed = job.training.seed;
    auto model = loadModelFolder(job.modelFolder, options);
    if (static_cast<std::int64_t>(job.training.maxLength) > model.config.maxPositionEmbeddings) {
        throw InputError(job.modelFolder / "config.json",
                         "allows at most " + std::to_string(model.config.maxPositionEmbeddings) +
                             " positions; max length " + std::to_string(job.training.maxLength) + " is longer");
    }
    return {std::move(data), std::move(model)};
}

TrainingJob jobOfRun(const RunRecord& run) {
    if (!run.config.contains("job")) {
        throw InputError("run " + std::to_string(run.id) + " does not record its job");
    }
    return TrainingJob::fromJson(run.config["job"]);
}

namespace {

SessionResult trainRun(RunStore& store, std::int64_t runId, PreparedJob& prepared, const TrainingJob& job,
                       const std::filesystem::path& checkpoint, TrainerObserver* observer,
                       const std::atomic<bool>& cancel) {
    RunRecorder recorder(store.file(), runId);
    ObserverList observers;
    observers.add(&recorder);
    if (observer != nullptr) {
        observers.add(observer);
    }
    Trainer trainer(prepared.model, prepared.data, job.training, observers, store.runFolder(runId));
    if (!checkpoint.empty()) {
        trainer.resumeFrom(checkpoint);
        observers.onEvent({EventKind::Info, 0, "resumed from " + checkpoint.string(), nlohmann::json::object()});
    }
    const auto result = trainer.run(cancel);
    recorder.flush();
    if (const auto error = recorder.lastError(); !error.empty()) {
        throw InputError("the run's metrics could not be stored: " + error);
    }
    return {runId, result};
}

}  // namespace

SessionResult runTrainingJob(const TrainingJob& job, const std::filesystem::path& database,
                             TrainerObserver* observer, const std::atomic<bool>& cancel,
                             const std::function<void(std::int64_t)>& onRunCreated) {
    auto prepared = prepareJob(job);
    RunStore store(database);
    NewRun run;
    run.name = job.displayName();
    run.config = {{"job", job.toJson()}};
    run.datasetPath = std::filesystem::absolute(job.data.trainFile).string();
    run.datasetFingerprint = prepared.data.fingerprint;
    run.baseModel = job.preset.empty() ? job.modelFolder.string() : "preset:" + job.preset;
    run.labels = prepared.data.labels.names;
    run.techniques = job.training.techniquesSummary();
    const auto runId = store.createRun(run);
    if (onRunCreated) {
        onRunCreated(runId);
    }
    if (prepared.data.skippedEmpty > 0 || prepared.data.invalidUtf8Replaced > 0) {
        RunRecorder note(database, runId);
        note.onEvent({EventKind::Info, 0,
                      std::to_string(prepared.data.skippedEmpty) + " rows without text or label skipped; " +
                          std::to_string(prepared.data.invalidUtf8Replaced) + " invalid UTF-8 sequences replaced",
                      {{"skipped_empty", prepared.data.skippedEmpty},
                       {"invalid_utf8", prepared.data.invalidUtf8Replaced}}});
    }
    return trainRun(store, runId, prepared, job, {}, observer, cancel);
}

std::filesystem::path modelCheckpointOfRun(RunStore& store, std::int64_t runId, bool preferBest) {
    std::filesystem::path best;
    std::filesystem::path last;
    for (const auto& checkpoint : store.checkpoints(runId)) {
        if (!std::filesystem::exists(checkpoint.path)) {
            continue;
        }
        (checkpoint.kind == "best" ? best : last) = checkpoint.path;
    }
    if (preferBest && !best.empty()) {
        return best;
    }
    return last.empty() ? best : last;
}

std::filesystem::path latestCheckpoint(const std::filesystem::path& runFolder) {
    // The folder is the truth: a process killed right after writing a checkpoint may not have
    // recorded it in the database yet.
    std::filesystem::path latest;
    std::size_t latestStep = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(runFolder, error)) {
        std::ifstream in(entry.path() / "trainer_state.json");
        if (!in) {
            continue;
        }
        const auto state = nlohmann::json::parse(in, nullptr, false);
        if (state.is_discarded() || !std::filesystem::exists(entry.path() / "training_state.safetensors")) {
            continue;
        }
        const auto step = state.value("step", std::size_t{0});
        const bool best = entry.path().filename() == "best";
        if (latest.empty() || step > latestStep || (step == latestStep && !best)) {
            latest = entry.path();
            latestStep = step;
        }
    }
    return latest;
}

SessionResult resumeTrainingRun(std::int64_t runId, const std::filesystem::path& database,
                                TrainerObserver* observer, const std::atomic<bool>& cancel) {
    RunStore store(database);
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    if (run->status == RunStatus::Completed) {
        throw InputError("run " + std::to_string(runId) + " has completed; there is nothing to resume");
    }
    if (run->status == RunStatus::Running) {
        throw InputError("run " + std::to_string(runId) + " is still running in another process");
    }
    const auto checkpoint = latestCheckpoint(store.runFolder(runId));
    if (checkpoint.empty()) {
        throw InputError("run " + std::to_string(runId) +
                         " has no checkpoint to resume from (it stopped before its first one)");
    }
    const auto job = jobOfRun(*run);
    auto prepared = prepareJob(job);
    if (prepared.data.fingerprint != run->datasetFingerprint) {
        throw InputError(job.data.trainFile, "has changed since run " + std::to_string(runId) +
                                                 " started; resuming would train on other data");
    }
    store.reopen(runId);
    return trainRun(store, runId, prepared, job, checkpoint, observer, cancel);
}

std::filesystem::path exportRun(RunStore& store, std::int64_t runId, const std::filesystem::path& target,
                                bool preferBest) {
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    const auto source = modelCheckpointOfRun(store, runId, preferBest);
    if (source.empty()) {
        throw InputError("run " + std::to_string(runId) + " has no saved model to export");
    }
    std::error_code error;
    std::filesystem::create_directories(target, error);
    if (error) {
        throw InputError(target, "cannot be created: " + error.message());
    }
    for (const char* name : {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json",
                             "special_tokens_map.json"}) {
        std::filesystem::copy_file(source / name, target / name,
                                   std::filesystem::copy_options::overwrite_existing, error);
        if (error) {
            throw InputError(target / name, "could not be written: " + error.message());
        }
    }
    const auto evaluations = store.evaluations(runId);
    const nlohmann::json card = {
        {"run", run->id},
        {"name", run->name},
        {"created_at", run->createdAt},
        {"status", toString(run->status)},
        {"base_model", run->baseModel},
        {"dataset", run->datasetPath},
        {"dataset_fingerprint", run->datasetFingerprint},
        {"labels", run->labels},
        {"configuration", run->config},
        {"techniques", run->techniques},
        {"metrics", run->finalMetrics},
        {"memory", {{"device", run->device},
                    {"peak_bytes", run->peakMemoryBytes},
                    {"forecast_bytes", run->forecastBytes},
                    {"trial_peak_bytes", run->trialPeakBytes}}},
        {"exported_from", source.string()},
    };
    writeFileAtomically(target / "run_card.json", card.dump(2) + "\n");
    char accuracy[32];
    std::snprintf(accuracy, sizeof accuracy, "%.4f", run->bestAccuracy);
    std::string readme = "# " + run->name + "\n\nFine-tuned with BERT Studio from `" + run->baseModel +
                         "` on `" + run->datasetPath + "`.\n\n" + "- Labels: ";
    for (std::size_t i = 0; i < run->labels.size(); ++i) {
        readme += (i ? ", " : "") + run->labels[i];
    }
    readme += "\n- Best validation accuracy: " + std::string(accuracy) + "\n- Techniques: " + run->techniques +
              "\n- Peak memory: " + std::to_string(run->peakMemoryBytes >> 20) + " MiB on " + run->device +
              " (forecast " + std::to_string(run->forecastBytes >> 20) + " MiB)\n- Evaluations: " +
              std::to_string(evaluations.size()) +
              "\n\nLoad it with transformers:\n\n```python\nfrom transformers import AutoModelForSequenceClassification, "
              "AutoTokenizer\nmodel = AutoModelForSequenceClassification.from_pretrained(\"" +
              target.string() + "\")\ntokenizer = AutoTokenizer.from_pretrained(\"" + target.string() +
              "\")\n```\n\nThe full configuration and metrics are in run_card.json.\n";
    writeFileAtomically(target / "README.md", readme);
    return target;
}

}  // namespace bert
