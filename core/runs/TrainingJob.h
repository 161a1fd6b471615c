#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "hf/ModelFolder.h"
#include "runs/RunStore.h"
#include "train/Trainer.h"
#include "train/TrainingJobSpec.h"

namespace bert {

/// A job's data and model, ready to train: the model has the data's labels.
struct PreparedJob {
    TrainingData data;
    ModelBundle model;
};
/// Loads, splits and tokenizes the data and loads (or builds) the model. Throws InputError for
/// anything the user supplied that does not fit, before anything is stored.
PreparedJob prepareJob(const TrainingJob& job);

/// What the user should hear before a job trains, in English sentences: labels that look alike
/// or like free text (data/LabelCheck.h), weights the model folder lacked, which start from
/// random values, and fp16 chosen for a family it makes diverge (fp16Caution). runTrainingJob
/// says each to its observer before the job can be refused, and records it in the run, as an
/// Info event with {"warning": true}.
std::vector<std::string> jobWarnings(const PreparedJob& prepared, const TrainingConfig& training);

struct SessionResult {
    std::int64_t runId = 0;
    RunResult result;
};

/// Runs a job end to end: checks that it can start (prepareJob, checkTrainable), creates the run
/// in the store, trains with a RunRecorder writing every metric, and reports to `observer` as
/// well. Anything wrong before the run can start throws and stores nothing; once the run exists,
/// whatever ends it is recorded in it (a Failed result with the error) before an exception
/// reaches the caller, so no run is left "running" by a process that is still alive.
/// onRunCreated is called with the new run's id before training starts. With a collective, this
/// process is rank 0 of a data-parallel run (Trainer::joinDataParallel): it alone writes the
/// store and the checkpoints; the other ranks run trainAsDataParallelWorker.
SessionResult runTrainingJob(const TrainingJob& job, const std::filesystem::path& database,
                             TrainerObserver* observer, const std::atomic<bool>& cancel,
                             const std::function<void(std::int64_t)>& onRunCreated = {},
                             Collective* collective = nullptr);
/// A rank other than 0 of a data-parallel run: prepares the same job, trains its share in step
/// with the others, and writes nothing (rank 0 records the run). Throws as prepareJob does.
RunResult trainAsDataParallelWorker(const TrainingJob& job, Collective& collective,
                                    const std::atomic<bool>& cancel);
/// Continues a stopped run (cancelled, interrupted, failed) from its newest complete
/// checkpoint, with the same guarantees, training exactly the run it resumes. First it claims
/// the run (runs/RunLease.h): StoreError when another live process trains it. Throws InputError
/// when the run cannot resume: completed, no checkpoint (or its runs folder missing), its data
/// changed, or its model files changed since it started (the message says which, and offers
/// fromCheckpoint: the model, configuration and tokenizer are then the checkpoint's own).
/// A data-parallel run resumes on as many processes (InputError otherwise): rank 0 here with its
/// collective, the others in resumeAsDataParallelWorker.
SessionResult resumeTrainingRun(std::int64_t runId, const std::filesystem::path& database,
                                TrainerObserver* observer, const std::atomic<bool>& cancel,
                                Collective* collective = nullptr, bool fromCheckpoint = false);
/// A rank other than 0 resuming a data-parallel run: reads the store, writes nothing.
RunResult resumeAsDataParallelWorker(std::int64_t runId, const std::filesystem::path& database,
                                     Collective& collective, const std::atomic<bool>& cancel,
                                     bool fromCheckpoint = false);

/// The largest micro-batch that fits, found for a job (see findLargestBatch).
struct BatchFit {
    bool fits = false;                ///< false: not even a micro-batch of one fits
    TrainingConfig config;            ///< the job's settings with micro-batch and accumulation set
    std::int64_t budgetBytes = 0;     ///< the memory cap, or the device's memory
    std::int64_t forecastBytes = 0;   ///< the forecast peak of config
    std::int64_t trialPeakBytes = 0;  ///< the measured peak of its trial step
    int trials = 0;  ///< trial steps run (more than one when the forecast was optimistic)
};

/// The largest micro-batch the device (or the memory cap) allows for a job, with the
/// accumulation that keeps its effective batch: the forecast proposes the largest divisor of the
/// effective batch that fits, a trial step on the longest micro-batch confirms it, and a trial
/// that exceeds the budget moves on to the next smaller divisor. Nothing is stored; the model's
/// weights are unchanged. Throws InputError as prepareJob does; stops (fits false) on cancel.
BatchFit findLargestBatch(const TrainingJob& job, const std::atomic<bool>& cancel);

/// The job a stored run was made from.
TrainingJob jobOfRun(const RunRecord& run);

}  // namespace bert
