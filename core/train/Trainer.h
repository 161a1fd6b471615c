#pragma once

#include <torch/optim/adamw.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>

#include "checkpoint/ModelFolder.h"
#include "data/Dataset.h"
#include "memory/MemoryMonitor.h"
#include "train/MixedPrecision.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"

namespace bert {

/// Where a run's data comes from.
struct DataSpec {
    std::filesystem::path trainFile;
    std::optional<std::filesystem::path> validationFile;  ///< else a stratified split
    ColumnSpec columns;
};

/// A run's data, loaded, split, labelled and tokenized once.
struct TrainingData {
    LabelMap labels;
    TokenizedSet train;
    TokenizedSet validation;
    std::string fingerprint;
    std::size_t skippedEmpty = 0;
    std::size_t invalidUtf8Replaced = 0;
};

TrainingData prepareTrainingData(const DataSpec& spec, const WordPieceTokenizer& tokenizer,
                                 const TrainingConfig& config);

/// Accuracy and macro-F1 of a confusion matrix [true][predicted].
double accuracyOf(const std::vector<std::vector<std::int64_t>>& confusion);
double macroF1Of(const std::vector<std::vector<std::int64_t>>& confusion);

/// Raised when a step runs out of memory and recovery is off or already at micro-batch 1.
class OutOfMemoryFailure : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Fine-tunes a BertForSequenceClassification on tokenized data with every memory technique
/// of TrainingConfig. Runs on the calling thread; reports through TrainerObserver (see its
/// contract); stops between micro-batches when `cancel` becomes true.
class Trainer {
public:
    /// model must have data.labels as its labels. checkpointFolder receives checkpoints
    /// (checkpoint-<step>/ and best/, each a transformers folder plus training state).
    Trainer(ModelBundle& model, const TrainingData& data, TrainingConfig config,
            TrainerObserver& observer, std::filesystem::path checkpointFolder = {});
    ~Trainer();

    /// Continue from a checkpoint written by this trainer: weights, optimizer, schedule, loss
    /// scaler, random state and position in the epoch. Throws InputError when it does not fit.
    void resumeFrom(const std::filesystem::path& checkpoint);

    /// Trains to the end (or cancel); never throws for out-of-memory or bad steps: the result
    /// says Failed and why. Events are delivered to the observer as they happen.
    RunResult run(const std::atomic<bool>& cancel);

    /// Evaluation under NoGradGuard and eval(); an OOM halves the evaluation batch only.
    EvalMetrics evaluate();

    /// Peak bytes of one forward + backward on the longest training micro-batch, plus the
    /// optimizer state the first step creates. Model, gradients and random state are unchanged.
    std::int64_t trialStepPeak();

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
    struct Position {
        std::size_t epoch = 0;   ///< 0-based epoch in progress
        std::size_t window = 0;  ///< next window of that epoch
        std::size_t step = 0;    ///< optimizer steps done
    };

    StepMetrics runStep(const std::vector<std::size_t>& window, std::size_t epochWindows);
    double forwardBackward(const std::vector<std::size_t>& window, double& realTokens,
                           double& paddedTokens);
    double learningRateAt(std::size_t step) const;
    std::size_t totalWindowsInEpoch() const;
    void applyLearningRate(double lr);
    std::filesystem::path saveCheckpoint(const std::string& kind, double metric);
    void emit(EventKind kind, const std::string& message, nlohmann::json data = nlohmann::json::object());

    ModelBundle& bundle_;
    const TrainingData& data_;
    TrainingConfig config_;
    TrainerObserver& observer_;
    std::filesystem::path checkpointFolder_;
    c10::Device device_;
    MemoryMonitor monitor_;
    std::vector<at::Tensor> trainable_;
    std::unique_ptr<torch::optim::AdamW> optimizer_;
    std::unique_ptr<DynamicLossScaler> scaler_;
    std::size_t totalSteps_ = 0;
    std::size_t microBatch_;
    std::size_t evalBatch_;
    Position position_;
    double bestAccuracy_ = -1.0;
    std::filesystem::path lastCheckpoint_;
    std::filesystem::path bestCheckpoint_;
};

}  // namespace bert
