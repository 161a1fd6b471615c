#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <optional>

#include "data/HostReads.h"
#include "hf/ModelFolder.h"
#include "memory/MemoryMonitor.h"
#include "task/TaskObjective.h"
#include "task/TrainingData.h"
#include "train/FusedAdamW.h"
#include "train/MixedPrecision.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"
#include "train/TrainingState.h"

namespace bert {

class Collective;
class PrefixCache;

/// Raised when a step runs out of memory and recovery is off or already at micro-batch 1.
class OutOfMemoryFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Throws InputError when model, data and config cannot train together: the device is not
/// available, the model's labels are not the data's, a set is empty, more layers are frozen
/// than the model has. The Trainer's constructor checks the same; a caller that records runs
/// calls it first, so that no run is created for a run that cannot start.
void checkTrainable(const ModelBundle& model, const TrainingData& data,
                    const TrainingConfig& config);

/// Fine-tunes a BertForSequenceClassification on tokenized data with every memory technique
/// of TrainingConfig. Runs on the calling thread; reports through TrainerObserver (see its
/// contract); stops between micro-batches when `cancel` becomes true.
///
/// A fresh run seeds LibTorch's default generators (CPU and CUDA) with config.seed when it starts:
/// on the CPU with one thread, two runs of one configuration are bit for bit the same.
///
/// Process-wide state, owned while a Trainer lives: the memory cap of its device (a
/// ScopedMemoryCap, restored on destruction), on CUDA the TF32 flags (config.tf32, restored on
/// destruction) and, when config.threads > 0, LibTorch's intra-op thread count (restored on
/// destruction). Run one Trainer at a time per process; work on other
/// threads that must not count against the cap runs inside UncountedAllocations.
class Trainer {
public:
    /// model must have data.labels as its labels (checkTrainable). checkpointFolder receives
    /// checkpoints (checkpoint-<step>/ and best/, see TrainingState.h); empty: none are written.
    Trainer(ModelBundle& model, const TrainingData& data, TrainingConfig config,
            TrainerObserver& observer, std::filesystem::path checkpointFolder = {});
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    /// Trains as one rank of a data-parallel run (distributed/Collective.h). Call before
    /// resumeFrom() and run(), on every rank. Checks that every rank has the same settings and
    /// data (InputError naming the first rank that differs), then takes rank 0's weights. From
    /// then on a step's window holds batch x accumulation x ranks examples: each rank computes
    /// its contiguous share (length grouping keeps working inside it), the loss is normalised
    /// over the whole window, gradients of trainable parameters are summed across ranks in
    /// buckets once per step (after the last micro-batch), evaluation is sharded and its counts
    /// summed, and an out-of-memory on any rank halves the micro-batch on all of them (one
    /// all-reduce of a flag), so every rank keeps the same weights and the same decisions.
    /// Only the caller decides who writes checkpoints and the store (rank 0, by convention).
    void joinDataParallel(Collective& collective);

    /// Continue from a checkpoint written by this trainer: weights, optimizer, schedule, loss
    /// scaler, random state and position in the epoch. Throws InputError when it does not fit.
    /// Under data parallel, after joinDataParallel, on every rank: each takes its own random
    /// state and (sharded) its own share of the moments.
    void resumeFrom(const std::filesystem::path& checkpoint);

    /// Trains to the end (or cancel). Never throws: out-of-memory, LibTorch errors, bad steps and
    /// exceptions from the observer end the run as Failed with the reason in the result.
    /// Events are delivered to the observer as they happen; onFinished last.
    RunResult run(const std::atomic<bool>& cancel);

    /// Evaluation under NoGradGuard and eval(); an OOM halves the evaluation batch only.
    EvalMetrics evaluate();

    /// Peak bytes of one forward + backward on the longest training micro-batch (with the
    /// gradients earlier micro-batches leave when accumulating), plus the optimizer state the
    /// first step creates. Model, gradients and random state are unchanged. When the trial ran
    /// out of memory, the figure is how far it got, and lastTrialRanOutOfMemory() says so: the
    /// micro-batch does not fit, whatever the figure.
    std::int64_t trialStepPeak();
    /// Examples the last trial step ran forward and backward: one micro-batch.
    std::size_t lastTrialExamples() const { return lastTrialExamples_; }
    /// Whether the last trial step ran out of memory (then its micro-batch does not fit).
    bool lastTrialRanOutOfMemory() const { return lastTrialOutOfMemory_; }

    /// Runs forward and backward over the examples of window (indices into the training set)
    /// in micro-batches of the current size, leaving the summed gradients in the parameters;
    /// returns the mean loss. The optimizer does not step. Used by every step and the trial.
    double computeGradients(const std::vector<std::size_t>& window);
    /// Frees every gradient.
    void clearGradients();

    /// The forecast for this configuration (see MemoryForecast.h).
    MemoryBreakdown forecast() const;

    /// Current weights, gradient and optimizer state bytes (optimizer: after the first step).
    MemoryBreakdown residentMemory() const;

    std::size_t totalSteps() const { return totalSteps_; }
    std::size_t microBatch() const { return microBatch_; }
    torch::optim::AdamW& optimizer() { return *optimizer_; }
    const std::vector<at::Tensor>& trainableParameters() const { return trainable_; }

private:
    /// Restores LibTorch's intra-op thread count on destruction.
    class ThreadCountScope {
    public:
        explicit ThreadCountScope(int threads);
        ~ThreadCountScope();
        ThreadCountScope(const ThreadCountScope&) = delete;
        ThreadCountScope& operator=(const ThreadCountScope&) = delete;

    private:
        int previous_ = 0;
    };

    /// One optimizer step over window; its figures when the step is logged (every
    /// log_every_steps steps, the last of an epoch and of the run), else nothing: until then
    /// they stay on the device (figures_), and the host reads nothing (train/HostReads.h).
    /// When reads are deferred (staged_), the figures returned are the last logged step's,
    /// read while this one runs.
    std::optional<StepMetrics> runStep(const std::vector<std::size_t>& window,
                                       std::size_t epochWindows);
    /// Unscales (fp16), clips and steps the optimizer, and adds the step's figures to figures_,
    /// all on the device; lossSum is the step's summed loss (over every rank).
    void stepOptimizer(const at::Tensor& lossSum);
    /// Starts the read of the figures of the steps since the last logged one (one StagedRead,
    /// train/HostReads.h) and keeps what the host knows of them beside it (staged_).
    void stageLoggedSteps();
    /// Ends the staged read and makes it the logged step's metrics (the steps' mean loss, the
    /// last norm and scale). Their time runs to the end of this read.
    StepMetrics finishLoggedSteps();
    /// Both at once: the figures of the steps since the last logged one, now.
    StepMetrics readLoggedSteps();
    /// The logged steps not reported yet, oldest first: the staged one, then those since it.
    /// Called before anything that must follow them (an evaluation, an epoch's end, a stop).
    std::vector<StepMetrics> readUnreportedSteps();
    /// One micro-batch of examples in the configured layout: packed when unpadded, else padded
    /// (to max length under fixed padding in training, to the longest otherwise).
    TokenBatch makeBatch(const std::vector<const Encoding*>& examples, bool training) const;
    /// Logits of batch, which holds examples (indices into set); through cache when the
    /// frozen prefix is cached (TrainerPrefixCache.cpp): the prefix runs, without gradients,
    /// only for examples not cached yet, and the layers above it start from the cached rows.
    at::Tensor logitsOf(const TokenizedSet& set, PrefixCache* cache,
                        const std::vector<std::size_t>& examples, const TokenBatch& batch);
    /// Creates the frozen-prefix caches when config asks for them.
    void setUpPrefixCache();
    /// Says, at the start of the run, what the frozen-prefix cache will skip.
    void announcePrefixCache();
    /// Says what the frozen-prefix cache did, and frees it (memory and file).
    void closePrefixCache();
    /// train() on the model, except a cached frozen prefix, which stays in eval(): its output
    /// must not depend on dropout.
    void enterTrainingMode();
    /// Forward and backward over examples in micro-batches, each loss divided by stepUnits
    /// (the whole step's examples or labelled tokens, all ranks: TaskObjective::units);
    /// returns the sum of their losses.
    at::Tensor forwardBackward(const std::vector<std::size_t>& examples, double stepUnits,
                               double& realTokens, double& paddedTokens);
    /// This rank's contiguous share of a window (all of it without data parallel).
    std::vector<std::size_t> shareOf(const std::vector<std::size_t>& window) const;
    /// Sums every trainable parameter's gradient across ranks (a zero one where none was made),
    /// and lossSum with them, on the device.
    void reduceGradients(const at::Tensor& lossSum);
    /// Whether to stop now: the user's cancel, agreed by every rank under data parallel.
    bool stopRequested(const std::atomic<bool>& cancel);
    /// Examples of one optimizer step over all ranks: batch x accumulation x world size.
    std::size_t globalStepExamples() const;
    /// Optimizer steps of the whole run: epochs x steps per epoch, or max_steps if fewer.
    std::size_t plannedSteps() const;
    /// AdamW (FusedAdamW) over the trainable parameters that owned() accepts, with weight decay
    /// except for biases and LayerNorm.
    void makeOptimizer(const std::function<bool(const at::Tensor&)>& owned);
    void trainLoop(const std::atomic<bool>& cancel, RunResult& result, std::int64_t& runPeak,
                   MemoryBreakdown& measured);
    double learningRateAt(std::size_t step) const;
    /// Whether the step just done (position_.window windows into an epoch of epochWindows) is
    /// one of the evaluations inside the epoch (eval_every_steps, or evals_per_epoch spacing).
    bool evaluatesInsideEpoch(std::size_t epochWindows) const;
    std::size_t totalWindowsInEpoch() const;
    void applyLearningRate(double lr);
    void saveCheckpoint(CheckpointKind kind, double metric);
    /// Data parallel, on every rank at each checkpoint: every rank's random states for the
    /// checkpoint, and (sharded) the other ranks' moments lent to rank 0's optimizer state
    /// (their keys in borrowed, removed again after writing).
    std::vector<std::pair<std::string, at::Tensor>> gatherForCheckpoint(
        std::vector<void*>& borrowed);
    /// After loadCheckpoint under a sharded optimizer: drops the moments of the parameters other
    /// ranks own (nothing to drop otherwise).
    void dropOthersMoments();
    void emit(EventKind kind, const std::string& message,
              nlohmann::json data = nlohmann::json::object());

    ModelBundle& bundle_;
    const TrainingData& data_;
    TrainingConfig config_;
    /// Balanced sampling's weight of each training example; empty: each once an epoch.
    std::vector<double> sampleWeights_;
    TrainerObserver& observer_;
    std::filesystem::path checkpointFolder_;
    c10::Device device_;
    MemoryMonitor monitor_;
    ScopedMemoryCap cap_;
    std::optional<ThreadCountScope> threads_;
    std::optional<Tf32Scope> tf32_;  ///< on CUDA: TF32 as config.tf32 asks, restored after
    std::vector<at::Tensor> trainable_;
    std::unique_ptr<FusedAdamW> optimizer_;
    std::unique_ptr<DynamicLossScaler> scaler_;
    std::size_t totalSteps_ = 0;
    std::size_t microBatch_;
    std::size_t lastTrialExamples_ = 0;  ///< examples of the last trial step
    bool lastTrialOutOfMemory_ = false;  ///< the last trial step ran out of memory
    std::size_t evalBatch_;
    TrainingPosition position_;
    std::optional<double> bestScore_;  ///< best_metric so far, higher is better
    std::optional<double> bestValue_;  ///< the same as the metric reads (a loss, an RMSE)
    /// The best evaluation's validation loss and step, which break ties of bestScore_
    /// (infinity: unknown, from a checkpoint written before they were kept).
    double bestLoss_ = std::numeric_limits<double>::infinity();
    std::size_t bestStep_ = 0;
    std::size_t evaluationsWithoutImprovement_ = 0;
    std::unique_ptr<TaskObjective> objective_;  ///< the task's targets, loss and evaluation
    std::filesystem::path lastCheckpoint_;
    std::filesystem::path bestCheckpoint_;
    std::unique_ptr<PrefixCache> trainPrefix_;       ///< frozen-prefix cache of the training set
    std::unique_ptr<PrefixCache> validationPrefix_;  ///< and of the validation set
    std::size_t prefixComputed_ = 0;                 ///< examples whose prefix ran
    std::size_t prefixReused_ = 0;                   ///< examples that skipped it
    Collective* collective_ = nullptr;               ///< set by joinDataParallel; null: one process
    std::vector<int> owners_;  ///< sharded optimizer: the rank updating each trainable_[i]

    /// What the steps since the last logged one left on the device (0-dim tensors).
    struct DeviceFigures {
        at::Tensor lossSum;        ///< double: the sum of their examples' losses
        at::Tensor skippedSteps;   ///< steps whose optimizer step was skipped
        at::Tensor nonFiniteRun;   ///< steps in a row, up to the last, with a non-finite loss
        at::Tensor gradNorm;       ///< the last step's gradient norm
        at::Tensor lastSkipped;    ///< 1 when the last step was skipped
        at::Tensor scalerSkipped;  ///< fp16: 1 when the scaler found inf/NaN in the last step
        at::Tensor scaleUsed;      ///< fp16: the last step's loss scale, before its update
    };
    DeviceFigures figures_;
    /// What the host knows of the steps since the last logged one.
    struct PendingSteps {
        std::size_t steps = 0;
        std::size_t examples = 0;
        double lossUnits = 0.0;  ///< what their loss sum is a mean over (task/TaskObjective.h)
        double realTokens = 0.0;
        double paddedTokens = 0.0;
        /// When the first of these steps began. Their time runs from here to the end of the read
        /// that reports them: on a GPU that read is where the host waits for the queued work, so
        /// a clock stopped before it would count queueing, not computing.
        std::chrono::steady_clock::time_point started{};
        double learningRate = 0.0;
        std::size_t epochWindows = 1;
        std::size_t accumulation = 0;
    };
    PendingSteps pending_;
    /// A logged step whose figures are on their way to the host. On CUDA a logged step is
    /// reported one step late: its read is started when it ends and finished when the next
    /// step has been queued, so that the device is never left idle waiting for the host (with
    /// log_every_steps 1, the default, a read per step used to drain the GPU every step).
    struct StagedSteps {
        StagedRead values;
        PendingSteps steps;   ///< what the host knew of them
        StepMetrics metrics;  ///< the figures the host has: position, memory, tokens
    };
    std::optional<StagedSteps> staged_;
    /// Report logged steps one step late (CUDA; BERT_STUDIO_TEST_DEFER_STEP_READS on the CPU).
    bool deferStepReads_ = false;
    std::size_t nonFiniteRun_ = 0;  ///< as read at the last logged step
};

}  // namespace bert
