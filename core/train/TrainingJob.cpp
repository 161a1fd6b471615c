#include "train/TrainingJob.h"

#include <algorithm>
#include <fstream>

#include "Error.h"
#include "distributed/Collective.h"
#include "memory/MemoryForecast.h"
#include "memory/MemoryMonitor.h"
#include "runs/RunRecorder.h"

namespace bert {

PreparedJob prepareJob(const TrainingJob& job) {
    if (job.modelFolder.empty()) {
        throw InputError("no model folder given (and no bundled default model found)");
    }
    // The CPU accounting counts only tensors allocated after it is installed: install it before
    // the model exists, or a run's peak leaves out the model's weights (it did: 87 MiB on MiniLM).
    const MemoryMonitor cpuAccounting{c10::Device(c10::kCPU)};
    auto tokenizer = loadTokenizer(job.modelFolder);
    auto data = prepareTrainingData(job.data, *tokenizer, job.training.maxLength,
                                    job.training.validationFraction, job.training.seed);
    if (!job.preset.empty()) {
        auto model =
            makePresetModel(job.preset, std::move(tokenizer), data.labels.names, job.training.seed);
        return {std::move(data), std::move(model)};
    }
    LoadOptions options;
    options.labels = data.labels.names;
    options.seed = job.training.seed;
    options.tokenizer = std::move(tokenizer);
    auto model = loadModelFolder(job.modelFolder, options);
    if (static_cast<std::int64_t>(job.training.maxLength) > model.config.maxSequenceLength()) {
        throw InputError(job.modelFolder / "config.json",
                         "allows sequences of at most " +
                             std::to_string(model.config.maxSequenceLength()) +
                             " tokens; max length " + std::to_string(job.training.maxLength) +
                             " is longer");
    }
    return {std::move(data), std::move(model)};
}

BatchFit findLargestBatch(const TrainingJob& job, const std::atomic<bool>& cancel) {
    auto prepared = prepareJob(job);
    checkTrainable(prepared.model, prepared.data, job.training);
    BatchFit fit;
    fit.budgetBytes =
        job.training.memoryCapBytes.value_or(deviceMemoryBytes(c10::Device(job.training.device)));
    const auto first =
        largestFittingBatch(prepared.model.config, job.training,
                            ExampleLengths::of(prepared.data.train.lengths), fit.budgetBytes);
    if (!first) {
        return fit;
    }
    TrainerObserver silent;
    for (const auto size : microBatchesKeeping(job.training)) {
        if (size > first->batchSize) {
            continue;  // the forecast already says it does not fit
        }
        if (cancel.load()) {
            return fit;
        }
        TrainingConfig candidate = *first;  // with the evaluation batch that fits
        candidate.accumulationSteps = job.training.stepExamples() / size;
        candidate.batchSize = size;
        Trainer trainer(prepared.model, prepared.data, candidate, silent);
        ++fit.trials;
        const auto peak = trainer.trialStepPeak();
        if (peak <= fit.budgetBytes) {
            fit.fits = true;
            fit.config = candidate;
            fit.forecastBytes = trainer.forecast().total();
            fit.trialPeakBytes = peak;
            return fit;
        }
    }
    return fit;
}

TrainingJob jobOfRun(const RunRecord& run) {
    if (!run.config.contains("job")) {
        throw InputError("run " + std::to_string(run.id) + " does not record its job");
    }
    return TrainingJob::fromJson(run.config["job"]);
}

namespace {

SessionResult trainRun(RunStore& store, std::int64_t runId, PreparedJob& prepared,
                       const TrainingJob& job, const std::filesystem::path& checkpoint,
                       TrainerObserver* observer, const std::atomic<bool>& cancel,
                       Collective* collective) {
    RunRecorder recorder(store.file(), runId);
    ObserverList observers;
    observers.add(&recorder);
    if (observer != nullptr) {
        observers.add(observer);
    }
    Trainer trainer(prepared.model, prepared.data, job.training, observers, store.runFolder(runId));
    if (collective != nullptr) {
        trainer.joinDataParallel(*collective);
    }
    if (!checkpoint.empty()) {
        trainer.resumeFrom(checkpoint);
        observers.onEvent(
            {EventKind::Info, 0, "resumed from " + checkpoint.string(), nlohmann::json::object()});
    }
    const auto result = trainer.run(cancel);
    recorder.flush();
    if (const auto error = recorder.lastError(); !error.empty()) {
        throw StoreError("the run's metrics could not be stored: " + error);
    }
    return {runId, result};
}

/// trainRun, recording in the run whatever stops it with an exception.
SessionResult trainRecorded(RunStore& store, std::int64_t runId, PreparedJob& prepared,
                            const TrainingJob& job, const std::filesystem::path& checkpoint,
                            TrainerObserver* observer, const std::atomic<bool>& cancel,
                            Collective* collective = nullptr) {
    try {
        return trainRun(store, runId, prepared, job, checkpoint, observer, cancel, collective);
    } catch (const std::exception& error) {
        RunResult failed;
        failed.status = RunStatus::Failed;
        failed.error = error.what();
        try {
            store.finishRun(runId, failed);
        } catch (const std::exception&) {
            // the store itself failed: the original error says more than this one
        }
        throw;
    }
}

}  // namespace

SessionResult runTrainingJob(const TrainingJob& job, const std::filesystem::path& database,
                             TrainerObserver* observer, const std::atomic<bool>& cancel,
                             const std::function<void(std::int64_t)>& onRunCreated,
                             Collective* collective) {
    if (job.training.processes > 1 && collective == nullptr) {
        // One process must not quietly train what was asked of several (a different batch).
        throw InputError("this job asks for " + std::to_string(job.training.processes) +
                         " data-parallel processes: start it with bert-studio-cli train --nproc " +
                         std::to_string(job.training.processes) + " (or torchrun)");
    }
    auto prepared = prepareJob(job);
    checkTrainable(prepared.model, prepared.data, job.training);
    RunStore store(database);
    NewRun run;
    run.name = job.displayName();
    run.config = {{"job", job.toJson()}};
    if (collective != nullptr) {
        run.config["world_size"] = collective->size();
    }
    run.datasetPath = std::filesystem::absolute(job.data.trainFile).string();
    run.datasetFingerprint = prepared.data.fingerprint;
    run.baseModel = job.preset.empty() ? job.modelFolder.string() : "preset:" + job.preset;
    run.labels = prepared.data.labels.names;
    run.techniques = job.training.techniquesSummary();
    if (collective != nullptr) {
        run.techniques += ", data parallel x" + std::to_string(collective->size());
    }
    store.claimRunsFolder();  // before the run exists: a folder of another database stops it here
    const auto runId = store.createRun(run);
    if (job.name.empty()) {
        // Runs of one model and dataset differ by their techniques and their number.
        store.rename(runId, autoRunName(job, runId));
    }
    if (onRunCreated) {
        onRunCreated(runId);
    }
    if (prepared.data.skippedEmpty > 0 || prepared.data.invalidUtf8Replaced > 0) {
        ObserverList notes;
        if (observer != nullptr) {
            notes.add(observer);
        }
        RunRecorder recorder(store.file(), runId);
        notes.add(&recorder);
        notes.onEvent({EventKind::Info,
                       0,
                       std::to_string(prepared.data.skippedEmpty) +
                           " rows without text or label skipped; " +
                           std::to_string(prepared.data.invalidUtf8Replaced) +
                           " invalid UTF-8 sequences replaced",
                       {{"skipped_empty", prepared.data.skippedEmpty},
                        {"invalid_utf8", prepared.data.invalidUtf8Replaced}}});
    }
    return trainRecorded(store, runId, prepared, job, {}, observer, cancel, collective);
}

RunResult trainAsDataParallelWorker(const TrainingJob& job, Collective& collective,
                                    const std::atomic<bool>& cancel) {
    auto prepared = prepareJob(job);
    checkTrainable(prepared.model, prepared.data, job.training);
    TrainerObserver silent;
    Trainer trainer(prepared.model, prepared.data, job.training, silent);
    trainer.joinDataParallel(collective);
    return trainer.run(cancel);
}

namespace {

/// A run's job for this process: under data parallel on CUDA, each rank on its own GPU.
TrainingJob jobForThisRank(const RunRecord& run, const Collective* collective) {
    auto job = jobOfRun(run);
    if (collective != nullptr && c10::Device(job.training.device).is_cuda()) {
        job.training.device = "cuda:" + std::to_string(WorldInfo::fromEnvironment().localRank);
    }
    return job;
}

/// A data-parallel run resumes on as many processes as it trained on: its steps hold world size
/// x batch examples, and each rank continues its own random and optimizer state.
void checkWorldSize(const RunRecord& run, const Collective* collective) {
    const int trainedOn = run.config.value("world_size", 1);
    const int now = collective != nullptr ? collective->size() : 1;
    if (trainedOn == now) {
        return;
    }
    throw InputError("run " + std::to_string(run.id) +
                     (trainedOn > 1 ? " trained data parallel on " + std::to_string(trainedOn) +
                                          " processes; resume it the same way (--nproc " +
                                          std::to_string(trainedOn) + ", or the same launch)"
                                    : " trained in one process; resume it without --nproc"));
}

}  // namespace

RunResult resumeAsDataParallelWorker(std::int64_t runId, const std::filesystem::path& database,
                                     Collective& collective, const std::atomic<bool>& cancel) {
    RunStore store(database, RunStore::Access::ReadOnly);
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    checkWorldSize(*run, &collective);
    const auto checkpoint = latestCheckpoint(store.runFolder(runId));
    if (checkpoint.empty()) {
        throw InputError("run " + std::to_string(runId) + " has no checkpoint to resume from");
    }
    const auto job = jobForThisRank(*run, &collective);
    auto prepared = prepareJob(job);
    checkTrainable(prepared.model, prepared.data, job.training);
    TrainerObserver silent;
    Trainer trainer(prepared.model, prepared.data, job.training, silent);
    trainer.joinDataParallel(collective);
    trainer.resumeFrom(checkpoint);
    return trainer.run(cancel);
}

SessionResult resumeTrainingRun(std::int64_t runId, const std::filesystem::path& database,
                                TrainerObserver* observer, const std::atomic<bool>& cancel,
                                Collective* collective) {
    RunStore store(database);
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    if (run->status == RunStatus::Completed) {
        throw InputError("run " + std::to_string(runId) +
                         " has completed; there is nothing to resume");
    }
    if (run->status == RunStatus::Running) {
        throw InputError("run " + std::to_string(runId) + " is still running in another process");
    }
    checkWorldSize(*run, collective);
    const auto checkpoint = latestCheckpoint(store.runFolder(runId));
    if (checkpoint.empty()) {
        throw InputError("run " + std::to_string(runId) +
                         " has no checkpoint to resume from (it stopped before its first one)");
    }
    const auto job = jobForThisRank(*run, collective);
    auto prepared = prepareJob(job);
    if (prepared.data.fingerprint != run->datasetFingerprint) {
        throw InputError(job.data.trainFile, "has changed since run " + std::to_string(runId) +
                                                 " started; resuming would train on other data");
    }
    checkTrainable(prepared.model, prepared.data, job.training);
    store.claimRunsFolder();
    // What a kill during a checkpoint write left behind (partial files, hundreds of MB) goes now.
    const auto freed = removeIncompleteCheckpoints(store.runFolder(runId));
    store.reopen(runId);
    if (freed > 0 && observer != nullptr) {
        observer->onEvent(
            {EventKind::Info,
             0,
             "removed " + std::to_string(freed >> 20) + " MiB an interrupted checkpoint write left",
             {{"freed_bytes", freed}}});
    }
    return trainRecorded(store, runId, prepared, job, checkpoint, observer, cancel, collective);
}

}  // namespace bert
