#include "runs/TrainingJob.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "Error.h"
#include "data/LabelCheck.h"
#include "data/UnknownTokens.h"
#include "distributed/Collective.h"
#include "memory/MemoryMonitor.h"
#include "model/FamilyTraits.h"
#include "runs/RunLease.h"
#include "runs/RunRecorder.h"
#include "task/Task.h"
#include "train/JobInputs.h"
#include "train/MemoryForecast.h"

namespace bert {

PreparedJob prepareJob(const TrainingJob& job) {
    if (job.modelFolder.empty()) {
        throw InputError("no model folder given (and no bundled default model found)");
    }
    // The CPU accounting counts only tensors allocated after it is installed: install it before
    // the model exists, or a run's peak leaves out the model's weights (it did: 87 MiB on MiniLM).
    const MemoryMonitor cpuAccounting{c10::Device(c10::kCPU)};
    // Pre-split words are tokenized as transformers' token-classification recipe loads the
    // tokenizer (RoBERTa's with add_prefix_space), and the run keeps that tokenizer.
    const auto& task = taskOf(job.data.task.kind);
    if (job.training.focalGamma > 0.0 && !task.lossOverClasses()) {
        char gamma[32];
        std::snprintf(gamma, sizeof gamma, "%g", job.training.focalGamma);
        throw InputError(std::string("--focal-gamma ") + gamma +
                         ": focal loss reshapes a loss over classes, and " +
                         std::string(task.id()) +
                         " has none (its loss is a squared error); leave it at 0");
    }
    if (job.training.balancedSampling && !task.oneClassPerExample()) {
        throw InputError("--balanced-sampling draws single-label classes equally often, not " +
                         std::string(task.id()) +
                         " examples; turn it off (class weighting and focal loss apply to " +
                         std::string(task.id()) + ")");
    }
    if (job.training.temperatureScaling && !task.calibrates()) {
        throw InputError(
            "--temperature-scaling calibrates single-label classification (one "
            "softmax per text), not " +
            std::string(task.id()) + "; turn it off");
    }
    auto tokenizer =
        task.perToken() ? loadTokenizerForWords(job.modelFolder) : loadTokenizer(job.modelFolder);
    auto data = prepareTrainingData(job.data, *tokenizer, job.training.maxLength,
                                    job.training.validationFraction, job.training.seed,
                                    job.training.longTextSpec());
    // The task's head: per token or per sequence, and the problem_type export writes.
    const auto head = task.perToken() ? HeadKind::Token : HeadKind::Sequence;
    const auto problemType = parseProblemType(std::string(task.problemType()));
    if (!job.preset.empty()) {
        auto model = makePresetModel(job.preset, std::move(tokenizer), data.labels.names,
                                     job.training.seed, head, problemType);
        return {std::move(data), std::move(model)};
    }
    LoadOptions options;
    options.labels = data.labels.names;
    options.head = head;
    options.problemType = problemType;
    options.seed = job.training.seed;
    options.tokenizer = std::move(tokenizer);
    auto model = loadModelFolder(job.modelFolder, options);
    // A pair's second text has token type 1: a model with one token type cannot read it (issue
    // 26: "LibTorch error: index out of range", exit 3, in the middle of the first step).
    std::int32_t largestType = 0;
    for (const auto* set : {&data.train, &data.validation}) {
        for (const auto& encoding : set->encodings) {
            for (const auto type : encoding.tokenTypeIds) {
                largestType = std::max(largestType, type);
            }
        }
    }
    // (A family without token types, DistilBERT or ModernBERT, reads pairs without them.)
    if (model.config.hasTokenTypes() && largestType >= model.config.typeVocabSize) {
        throw InputError(job.modelFolder / "config.json",
                         "has type_vocab_size " + std::to_string(model.config.typeVocabSize) +
                             ": this model has no token type for a second text, so it cannot "
                             "read pairs (--pair-column \"" +
                             job.data.columns.textPair +
                             "\"); train on one text column, or with a model that reads pairs");
    }
    if (static_cast<std::int64_t>(job.training.maxLength) > model.config.maxSequenceLength()) {
        throw InputError(
            job.modelFolder / "config.json",
            "allows sequences of at most " + std::to_string(model.config.maxSequenceLength()) +
                " tokens; max length " + std::to_string(job.training.maxLength) + " is longer");
    }
    return {std::move(data), std::move(model)};
}

std::vector<std::string> jobWarnings(const PreparedJob& prepared, const TrainingConfig& training) {
    // The task's own: imbalanced classes, a target far from unit scale.
    const auto& task = taskOf(prepared.data.task);
    auto warnings = task.dataWarnings(prepared.data);
    // A class under the rare share of the examples (5% unless chosen), unless the run already
    // weighs it up.
    if (training.classWeighting == ClassWeighting::Off && training.focalGamma == 0.0 &&
        !training.balancedSampling) {
        if (auto rare = task.rareLabelsWarning(prepared.data, training.rareLabelShare / 100.0);
            !rare.empty()) {
            warnings.push_back(std::move(rare));
        }
    }
    // The user's choice stands, but not unsaid: fp16 diverges for some families (DeBERTa).
    if (training.precision == Precision::Fp16) {
        if (auto caution = fp16Caution(prepared.model.config); !caution.empty()) {
            warnings.push_back(std::move(caution));
        }
    }
    // Whether the model can read the text: the dataset tab says so; training, on the command
    // line too, says it as well, naming the tokenizer's own unknown token.
    if (prepared.model.tokenizer != nullptr && prepared.model.tokenizer->unkId()) {
        UnknownTokenShare unknown;
        for (const auto& encoding : prepared.data.train.encodings) {
            unknown.add(encoding, *prepared.model.tokenizer);
        }
        if (auto warning = unknownTokenWarning(unknown); !warning.empty()) {
            warnings.push_back(std::move(warning));
        }
    }
    // Weights the file did not have start from random values; transformers warns, listing
    // them (issue 26: we said nothing). A fresh classifier head is expected when fine-tuning.
    const auto& report = prepared.model.report;
    std::vector<std::string> missing;
    for (const auto& name : report.missingKeys) {
        if (name.rfind("classifier.", 0) != 0) {
            missing.push_back(name);
        }
    }
    if (!missing.empty()) {
        constexpr std::size_t kShown = 8;
        std::string list;
        for (std::size_t i = 0; i < std::min(kShown, missing.size()); ++i) {
            list += (i == 0 ? "" : ", ") + missing[i];
        }
        if (missing.size() > kShown) {
            list += " and " + std::to_string(missing.size() - kShown) + " more";
        }
        warnings.push_back(std::to_string(missing.size()) + " weights of the model were not in " +
                           report.weightsFile.string() + " and start from random values: " + list +
                           "; is it the right weights file?");
    }
    return warnings;
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
        // An out-of-memory trial means "does not fit", whatever figure it reached. The trial
        // measures tensors; like the forecast, it is compared with the budget together with
        // what the allocator and the process add on CUDA (nothing on the CPU).
        const auto forecast = trainer.forecast();
        const auto overhead = budgetedBytes(forecast, candidate) - forecast.total();
        if (!trainer.lastTrialRanOutOfMemory() && peak + overhead <= fit.budgetBytes) {
            fit.fits = true;
            fit.config = candidate;
            fit.forecastBytes = budgetedBytes(forecast, candidate);
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
    // Runs stored while standardising was off by default wrote the key only when it was on.
    auto job = run.config["job"];
    if (job.contains("data") && job["data"].is_object() &&
        !job["data"].contains("standardize_targets")) {
        job["data"]["standardize_targets"] = false;
    }
    return TrainingJob::fromJson(job);
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
        // What stopped the run first (a checkpoint the full disk refused) is said as well,
        // unless it was this very failure of the store.
        const auto cause = result.error.substr(0, result.error.find(" (and reporting it failed"));
        const bool sameFailure = cause.find("can no longer be recorded") != std::string::npos;
        throw StoreError("the run's metrics could not be stored: " + error +
                         (result.status == RunStatus::Failed && !cause.empty() && !sameFailure
                              ? "; the run stopped because " + cause
                              : std::string()));
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

SessionResult runTrainingJob(const TrainingJob& requested, const std::filesystem::path& database,
                             TrainerObserver* observer, const std::atomic<bool>& cancel,
                             const std::function<void(std::int64_t)>& onRunCreated,
                             Collective* collective) {
    // A run stores absolute paths: resume, export and predict work from any directory.
    const auto job = withAbsolutePaths(requested);
    if (job.training.processes > 1 && collective == nullptr) {
        // One process must not quietly train what was asked of several (a different batch).
        throw InputError("this job asks for " + std::to_string(job.training.processes) +
                         " data-parallel processes: start it with bert-studio-cli train --nproc " +
                         std::to_string(job.training.processes) + " (or torchrun)");
    }
    auto prepared = prepareJob(job);
    // Said before anything can refuse the job: a label column of free text may be why it does.
    const auto warnings = jobWarnings(prepared, job.training);
    if (observer != nullptr) {
        for (const auto& warning : warnings) {
            observer->onEvent({EventKind::Info, 0, warning, {{"warning", true}}});
        }
    }
    checkTrainable(prepared.model, prepared.data, job.training);
    RunStore store(database);
    NewRun run;
    run.name = job.displayName();
    run.config = {{"job", job.toJson()}};
    if (collective != nullptr) {
        run.config["world_size"] = collective->size();
    }
    run.datasetPath = job.data.trainFile.string();
    run.datasetFingerprint = prepared.data.fingerprint;
    run.baseModel = job.preset.empty() ? job.modelFolder.string() : "preset:" + job.preset;
    // What it is made of, so that a resume trains exactly this run (issue 26).
    run.inputs = fingerprintJobInputs(job);
    run.labels = prepared.data.labels.names;
    run.techniques = job.training.techniquesSummary();
    if (collective != nullptr) {
        run.techniques += ", data parallel x" + std::to_string(collective->size());
    }
    store.claimRunsFolder();  // before the run exists: a folder of another database stops it here
    const auto runId = store.createRun(run);
    // createRun wrote this process's lease with the run; from here it is renewed until the end.
    const RunLease lease(store.file(), runId, "trained");
    if (job.name.empty()) {
        // Runs of one model and dataset differ by their techniques and their number.
        store.rename(runId, autoRunName(job, runId));
    }
    if (onRunCreated) {
        onRunCreated(runId);
    }
    const auto readingNotes = prepared.data.readingNotes();
    if (!readingNotes.empty() || !warnings.empty()) {
        ObserverList notes;
        if (observer != nullptr) {
            notes.add(observer);
        }
        RunRecorder recorder(store.file(), runId);
        notes.add(&recorder);
        // One line each, "file: what was done", for the studio to translate (EngineText).
        const auto& data = prepared.data;
        for (const auto& note : readingNotes) {
            notes.onEvent({EventKind::Info,
                           0,
                           job.data.trainFile.string() + ": " + note,
                           {{"note", true},
                            {"skipped_empty", data.skippedEmpty},
                            {"first_skipped_line", data.firstSkippedLine},
                            {"invalid_utf8", data.invalidUtf8Replaced},
                            {"encoding", data.encoding},
                            {"control_characters", data.removedControls.count}}});
        }
        for (const auto& warning : warnings) {
            recorder.onEvent({EventKind::Info, 0, warning, {{"warning", true}}});  // said above
        }
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
        job.training.device =
            WorldInfo::fromEnvironment().deviceForRank(job.training.device, cudaDeviceCount());
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

namespace {

/// Where a resume finds its checkpoint, or an InputError that says why there is none.
std::filesystem::path checkpointToResume(RunStore& store, const RunRecord& run) {
    const auto folder = store.runFolder(run.id);
    const auto checkpoint = latestCheckpoint(folder);
    if (!checkpoint.empty()) {
        return checkpoint;
    }
    const auto recorded = store.checkpoints(run.id);
    if (!recorded.empty()) {
        // Issue 26: a database moved without its runs folder said the run "stopped before its
        // first checkpoint".
        throw InputError(folder, "is missing or holds none of run " + std::to_string(run.id) +
                                     "'s " + std::to_string(recorded.size()) +
                                     " recorded checkpoints (the last: " + recorded.back().path +
                                     "); was the database moved without its runs folder?");
    }
    throw InputError("run " + std::to_string(run.id) +
                     " has no checkpoint to resume from (it stopped before its first one)");
}

/// The job a resume trains: the run's own, from its checkpoint's model folder when asked (a
/// checkpoint holds the weights, configuration and tokenizer the run trained with). Refuses
/// (InputError) when the model or the data the run was made of changed since, saying what.
TrainingJob jobToResume(const RunRecord& run, const Collective* collective,
                        const std::filesystem::path& checkpoint, bool fromCheckpoint) {
    auto job = jobForThisRank(run, collective);
    const auto changes = compareJobInputs(run.inputs, job);
    auto list = [](const std::vector<std::string>& lines) {
        std::string text;
        for (const auto& line : lines) {
            text += (text.empty() ? "" : "; ") + line;
        }
        return text;
    };
    const auto id = std::to_string(run.id);
    if (!changes.data.empty()) {
        throw InputError("the data of run " + id + " changed since it started (" +
                         list(changes.data) + "); resuming would train on other data");
    }
    if (fromCheckpoint) {
        job.modelFolder = checkpoint;
        job.preset.clear();
        return job;
    }
    if (!changes.model.empty()) {
        throw InputError("the model run " + id + " started from changed since (" +
                         list(changes.model) +
                         "); resuming would train another model. Its own "
                         "checkpoint " +
                         checkpoint.string() +
                         " holds the weights, "
                         "configuration and tokenizer it trained with: continue from there with "
                         "bert-studio-cli resume " +
                         id + " --from-checkpoint");
    }
    return job;
}

}  // namespace

RunResult resumeAsDataParallelWorker(std::int64_t runId, const std::filesystem::path& database,
                                     Collective& collective, const std::atomic<bool>& cancel,
                                     bool fromCheckpoint) {
    RunStore store(database, RunStore::Access::ReadOnly);
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(database, "has no run " + std::to_string(runId));
    }
    checkWorldSize(*run, &collective);
    const auto checkpoint = checkpointToResume(store, *run);
    const auto job = jobToResume(*run, &collective, checkpoint, fromCheckpoint);
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
                                Collective* collective, bool fromCheckpoint) {
    RunStore store(database);
    if (!store.run(runId)) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    // Before anything else: one process trains a run (of two resumes started together, the
    // second ends here with exit code 4, naming the first).
    const RunLease lease(store.file(), runId, "resumed");
    const auto run = store.run(runId);
    if (run->status == RunStatus::Completed) {
        throw InputError("run " + std::to_string(runId) +
                         " has completed; there is nothing to resume");
    }
    checkWorldSize(*run, collective);
    // What a kill during a checkpoint write left behind (staging folders, hundreds of MB) goes
    // now, and a checkpoint a kill left moved aside comes back, before the newest is chosen (in
    // a runs folder that is this database's; a missing one is not made here).
    std::uintmax_t freed = 0;
    if (std::filesystem::exists(store.runFolder(runId))) {
        store.claimRunsFolder();
        freed = removeIncompleteCheckpoints(store.runFolder(runId));
    }
    const auto checkpoint = checkpointToResume(store, *run);
    const auto job = jobToResume(*run, collective, checkpoint, fromCheckpoint);
    auto prepared = prepareJob(job);
    if (prepared.data.fingerprint != run->datasetFingerprint) {
        throw InputError(job.data.trainFile, "has changed since run " + std::to_string(runId) +
                                                 " started; resuming would train on other data");
    }
    checkTrainable(prepared.model, prepared.data, job.training);
    store.claimRunsFolder();
    store.reopen(runId);
    if (freed > 0 && observer != nullptr) {
        observer->onEvent(
            {EventKind::Info,
             0,
             "removed " + std::to_string(freed >> 20) + " MiB an interrupted checkpoint write left",
             {{"freed_bytes", freed}}});
    }
    if (fromCheckpoint && observer != nullptr) {
        observer->onEvent({EventKind::Info,
                           0,
                           "continuing from the model, configuration and tokenizer of " +
                               checkpoint.string() + " (--from-checkpoint)",
                           {{"from_checkpoint", checkpoint.string()}}});
    }
    return trainRecorded(store, runId, prepared, job, checkpoint, observer, cancel, collective);
}

}  // namespace bert
