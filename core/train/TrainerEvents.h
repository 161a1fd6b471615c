#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "memory/MemorySample.h"

namespace bert {

struct EvaluationExamples;  // task/ExampleResults.h

/// One optimizer step, as plain numbers (no tensors survive the step).
struct StepMetrics {
    std::size_t step = 0;       ///< 1-based optimizer step
    double epoch = 0.0;         ///< fractional epoch at the end of the step
    double loss = 0.0;          ///< mean loss per example over the step
    double learningRate = 0.0;  ///< learning rate the step used
    MemorySample memory;        ///< current after the step; peak during the step
    std::size_t examples = 0;   ///< examples the step trained on
    double samplesPerSecond = 0.0;
    double tokensPerSecond = 0.0;   ///< real (non-padding) tokens
    double paddingShare = 0.0;      ///< padding tokens / all tokens of the step's batches
    std::int64_t realTokens = 0;    ///< non-padding tokens of the step
    std::int64_t paddedTokens = 0;  ///< all tokens of the step's padded batches
    double lossScale = 0.0;         ///< fp16 loss scale; 0 without loss scaling
    double gradNorm = 0.0;          ///< total gradient norm before clipping
    std::size_t microBatch = 0;     ///< examples per micro-batch (after any OOM recovery)
    std::size_t accumulation = 0;   ///< micro-batches in the step
    bool skipped = false;           ///< optimizer step skipped (inf/NaN gradients under fp16)
    /// Data parallel: every rank's memory after the step (peak during it), by rank; empty in one
    /// process. memory is rank 0's, this process's.
    std::vector<MemorySample> rankMemory;
};

/// One evaluation on the validation set.
struct EvalMetrics {
    std::size_t step = 0;
    double epoch = 0.0;
    double loss = 0.0;
    double accuracy = 0.0;
    double macroF1 = 0.0;
    std::vector<std::vector<std::int64_t>> confusion;  ///< [true label][predicted label]
    /// Tasks other than single-label: the task's report (task/TaskObjective.h, TaskScores):
    /// its headline metric and every figure and table; null for single-label.
    nlohmann::json task;
    /// Single-label: whether the probabilities mean what they say and the temperature that
    /// makes them (task/Calibration.h, CalibrationReport's JSON); null otherwise.
    nlohmann::json calibration;
    /// What the model said of each validation example (task/ExampleResults.h), highest loss
    /// first; null where the evaluation kept none. Shared: the event is copied to every
    /// observer and the run's best, the rows are not. Not part of toJson.
    std::shared_ptr<const EvaluationExamples> examples;
};

/// An evaluation as JSON, the one form the event stream, the run store's result and a run
/// folder's result.json write: step, epoch, loss (null when not finite), accuracy, macro_f1,
/// confusion, and task and calibration where the evaluation has them.
nlohmann::json toJson(const EvalMetrics& metrics);

/// One finished epoch: how much of what was computed was padding.
struct EpochSummary {
    std::size_t epoch = 0;  ///< 1-based
    std::int64_t realTokens = 0;
    std::int64_t paddedTokens = 0;  ///< all tokens of the padded batches
    double seconds = 0.0;
    double paddingShare() const {
        return paddedTokens > 0
                   ? 1.0 - static_cast<double>(realTokens) / static_cast<double>(paddedTokens)
                   : 0.0;
    }
};

enum class EventKind {
    OomRecovered,  ///< a training step ran out of memory; micro-batch halved, accumulation doubled
    EvalOomRecovered,  ///< an evaluation batch ran out of memory; evaluation batch halved
    StepSkipped,      ///< non-finite gradients under fp16: optimizer step skipped, scale backed off
    CheckpointSaved,  ///< a line for the log; the store learns of checkpoints from onCheckpoint
    Cancelled,        ///< the user stopped the run
    Interrupted,      ///< the process died during the run (found at the next open of the store)
    Error,            ///< the run failed; message says why
    Info,             ///< anything else worth a line in the log (forecast, trial step, ...)
    EarlyStopped,     ///< the best metric did not improve for early_stopping_patience evaluations
};

/// The stored names ("oom_recovered", ...); unknown names read back as Info.
std::string toString(EventKind kind);
EventKind eventKindFromString(const std::string& text);

/// Why a training-state checkpoint was written (train/TrainingState.h).
enum class CheckpointKind {
    Epoch,   ///< at an epoch end
    Best,    ///< the best validation accuracy so far (kept in best/)
    Cancel,  ///< when the user cancelled
    Final,   ///< at the end of a run stopped by max steps inside an epoch
};

/// The stored names ("epoch", "best", "cancel", "final"); unknown names read back as Epoch.
std::string toString(CheckpointKind kind);
CheckpointKind checkpointKindFromString(const std::string& text);

/// A checkpoint that is now complete on disk.
struct CheckpointInfo {
    std::size_t step = 0;
    CheckpointKind kind = CheckpointKind::Epoch;
    std::filesystem::path folder;
    double metric = 0.0;  ///< validation accuracy at the checkpoint (0 for cancel)
};

struct TrainerEvent {
    EventKind kind = EventKind::Info;
    std::size_t step = 0;
    std::string message;
    nlohmann::json data = nlohmann::json::object();
};

/// Memory of a run by kind, in bytes. Forecast values come from the configuration alone;
/// measured values from the trial step and the first optimizer step.
struct MemoryBreakdown {
    std::int64_t weights = 0;
    std::int64_t gradients = 0;
    std::int64_t optimizerState = 0;
    std::int64_t activations = 0;
    /// Of the gradients, those alive at the moment of the peak (forecasts only; see
    /// MemoryForecast.h). Measured breakdowns leave it equal to gradients.
    std::int64_t peakGradients = -1;
    /// CUDA forecasts: what the caching allocator reserves at the peak beyond the tensors
    /// (rounding into blocks and segments, cuBLAS workspaces; memory/CudaFootprint.h). 0 on
    /// the CPU, whose allocator returns what it frees.
    std::int64_t allocatorOverhead = 0;
    /// CUDA forecasts: what the process takes from the device outside the allocator (the CUDA
    /// context, NCCL's buffers). 0 on the CPU.
    std::int64_t outsideAllocator = 0;
    /// The peak of allocated tensor memory: weights + optimizer state + activations + the
    /// gradients alive at the peak. What the trial step and a run's peak measure.
    std::int64_t total() const {
        return weights + optimizerState + activations +
               (peakGradients < 0 ? gradients : peakGradients);
    }
    /// What the caching allocator reserves at the peak: what a memory cap limits on CUDA
    /// (setMemoryFraction bounds reserved memory). total() on the CPU.
    std::int64_t reserved() const { return total() + allocatorOverhead; }
    /// All the process takes from the device at the peak: what must fit in its memory.
    std::int64_t processTotal() const { return reserved() + outsideAllocator; }
    nlohmann::json toJson() const;
};

/// What a run started with.
struct RunStart {
    std::string device;
    std::size_t trainExamples = 0;
    std::size_t validationExamples = 0;
    std::size_t totalSteps = 0;
    std::vector<std::string> labels;
    MemoryBreakdown forecast;
    std::int64_t trialPeakBytes = 0;  ///< measured peak of the trial step on the longest batch
    double trialSeconds = 0.0;        ///< what the trial step took (0: none ran)
    std::size_t resumedFromStep = 0;  ///< 0 for a fresh run
    std::int64_t memoryCapBytes = 0;  ///< the cap the run rehearses (0: none)
};

enum class RunStatus { Running, Completed, Cancelled, Failed, Interrupted };
/// The stored names ("running", ...); unknown names read back as Failed.
std::string toString(RunStatus status);
RunStatus runStatusFromString(const std::string& text);

struct RunResult {
    RunStatus status = RunStatus::Completed;
    std::string error;  ///< why it failed
    /// It failed because the run store or the disk did (a checkpoint that could not be written:
    /// full, read-only), not the run itself: the command line's exit code 4, not 3.
    bool storeFailure = false;
    std::size_t steps = 0;
    EvalMetrics finalEval;
    EvalMetrics bestEval;
    std::int64_t peakMemoryBytes = 0;
    MemoryBreakdown measured;  ///< weights, gradients, optimizer state, activations at the peak
    std::filesystem::path lastCheckpoint;
    std::filesystem::path bestCheckpoint;
    double seconds = 0.0;
};

/// The trainer's one event interface (PlotJuggler-style contract):
///  - every callback runs on the training thread, in order, and must return quickly: a UI
///    forwards them as queued signals, a run store queues them for its writer thread;
///  - the trainer holds no lock while calling;
///  - an exception thrown by a callback ends the run as Failed with that message.
class TrainerObserver {
public:
    virtual ~TrainerObserver() = default;
    virtual void onStarted(const RunStart& /*start*/) {}
    virtual void onStep(const StepMetrics& /*metrics*/) {}
    virtual void onEvaluation(const EvalMetrics& /*metrics*/) {}
    /// During an evaluation: batches done and batches in all, 0 of N when it begins, then after
    /// each batch (under data parallel, of this rank's share; N grows when an out-of-memory
    /// halves the evaluation batch). onEvaluation follows the last.
    virtual void onEvaluationProgress(std::size_t /*batchesDone*/, std::size_t /*batches*/) {}
    /// The per-example results of an evaluation that has just become the run's best (after its
    /// onEvaluation, before its best checkpoint is written): the examples of the weights the run
    /// serves, which the run store keeps in place of the previous best's.
    virtual void onBestExamples(std::shared_ptr<const EvaluationExamples> /*examples*/) {}
    virtual void onEpochEnd(const EpochSummary& /*summary*/) {}
    virtual void onEvent(const TrainerEvent& /*event*/) {}
    virtual void onFinished(const RunResult& /*result*/) {}
    /// Called before a checkpoint of `step` is written: whatever the observer keeps about steps
    /// up to it must be durable now, or a crash right after could leave a checkpoint that is
    /// ahead of the recorded metrics (resume would then never record the steps in between).
    virtual void beforeCheckpoint(std::size_t /*step*/) {}
    /// Called once the checkpoint is complete on disk.
    virtual void onCheckpoint(const CheckpointInfo& /*checkpoint*/) {}
};

/// Forwards every callback to several observers, in order.
class ObserverList final : public TrainerObserver {
public:
    void add(TrainerObserver* observer) { observers_.push_back(observer); }
    void onStarted(const RunStart& s) override {
        each([&](auto* o) { o->onStarted(s); });
    }
    void onStep(const StepMetrics& m) override {
        each([&](auto* o) { o->onStep(m); });
    }
    void onEvaluation(const EvalMetrics& m) override {
        each([&](auto* o) { o->onEvaluation(m); });
    }
    void onEvaluationProgress(std::size_t done, std::size_t batches) override {
        each([&](auto* o) { o->onEvaluationProgress(done, batches); });
    }
    void onBestExamples(std::shared_ptr<const EvaluationExamples> e) override {
        each([&](auto* o) { o->onBestExamples(e); });
    }
    void onEpochEnd(const EpochSummary& s) override {
        each([&](auto* o) { o->onEpochEnd(s); });
    }
    void onEvent(const TrainerEvent& e) override {
        each([&](auto* o) { o->onEvent(e); });
    }
    void onFinished(const RunResult& r) override {
        each([&](auto* o) { o->onFinished(r); });
    }
    void beforeCheckpoint(std::size_t step) override {
        each([&](auto* o) { o->beforeCheckpoint(step); });
    }
    void onCheckpoint(const CheckpointInfo& c) override {
        each([&](auto* o) { o->onCheckpoint(c); });
    }

private:
    template <typename Fn>
    void each(Fn&& fn) {
        for (auto* observer : observers_) {
            fn(observer);
        }
    }
    std::vector<TrainerObserver*> observers_;
};

}  // namespace bert
