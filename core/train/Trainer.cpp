#include "train/Trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "data/Batch.h"
#include "data/HostReads.h"
#include "data/Sampler.h"
#include "distributed/Collective.h"
#include "memory/DeviceTraits.h"
#include "train/FusedAdamW.h"
#include "train/MemoryForecast.h"
#include "train/Metrics.h"
#include "train/PrefixCache.h"
#include "train/RandomState.h"
#include "train/Recompute.h"
#include "train/TestHooks.h"
#include "train/WeightDecay.h"

namespace bert {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

// ---- set-up ----------------------------------------------------------------------------------

void checkTrainable(const ModelBundle& model, const TrainingData& data,
                    const TrainingConfig& config) {
    config.validate();
    const c10::Device device(config.device);
    if (device.is_cuda() && cudaDeviceCount() <= std::max<int>(0, device.index())) {
        throw InputError("device " + config.device + " is not available (CUDA devices found: " +
                         std::to_string(cudaDeviceCount()) + ")");
    }
    if (model.config.labels != data.labels.names) {
        throw InputError(
            "the model's labels differ from the data's; load the model with the data's labels");
    }
    if (data.train.size() == 0 || data.validation.size() == 0) {
        throw InputError("training and validation data must both have examples");
    }
    const auto layers = static_cast<std::size_t>(model.model->layerCount());
    if (config.freezeLayers > layers) {
        throw InputError("cannot freeze " + std::to_string(config.freezeLayers) +
                         " layers of a model with " + std::to_string(layers));
    }
}

Trainer::ThreadCountScope::ThreadCountScope(int threads) : previous_(at::get_num_threads()) {
    at::set_num_threads(threads);
}

Trainer::ThreadCountScope::~ThreadCountScope() {
    at::set_num_threads(previous_);
}

Trainer::Trainer(ModelBundle& model, const TrainingData& data, TrainingConfig config,
                 TrainerObserver& observer, std::filesystem::path checkpointFolder)
    : bundle_(model),
      data_(data),
      config_((checkTrainable(model, data, config), std::move(config))),
      observer_(observer),
      checkpointFolder_(std::move(checkpointFolder)),
      device_(resolveDevice(c10::Device(config_.device))),  // "cuda": the current device
      monitor_(device_),
      cap_(device_, config_.memoryCapBytes),
      microBatch_(config_.batchSize),
      evalBatch_(config_.evalBatchSize) {
    if (config_.threads > 0) {
        threads_.emplace(config_.threads);
    }
    if (device_.is_cuda()) {
        tf32_.emplace(config_.tf32);
    }
    deferStepReads_ = device_.is_cuda() || test_hooks::deferStepReads();
    auto& net = *bundle_.model;
    net.to(device_);

    // Frozen parameters get no gradient and are not given to the optimizer: no state either.
    if (config_.freezeEmbeddings) {
        for (const auto& stage : net.embeddingModules()) {
            for (auto& parameter : stage->parameters()) {
                parameter.requires_grad_(false);
            }
        }
    }
    for (std::size_t i = 0; i < config_.freezeLayers; ++i) {
        for (auto& parameter : net.layer(static_cast<std::int64_t>(i)).parameters()) {
            parameter.requires_grad_(false);
        }
    }
    net.setLayerRunner(config_.gradientCheckpointing ? recomputingLayerRunner() : LayerRunner{});
    setUpPrefixCache();
    enterTrainingMode();

    for (const auto& parameter : net.parameters()) {
        if (parameter.requires_grad()) {
            trainable_.push_back(parameter);
        }
    }
    if (trainable_.empty()) {
        throw InputError("every parameter is frozen: nothing would train");
    }
    makeOptimizer([](const at::Tensor&) { return true; });

    if (config_.precision == Precision::Fp16) {
        scaler_ = std::make_unique<DynamicLossScaler>(device_);
    }
    ObjectiveOptions objective;
    objective.balanced = config_.classWeighting == ClassWeighting::Balanced;
    objective.focalGamma = config_.focalGamma;
    objective.threshold = data_.threshold;
    objective_ = makeTaskObjective(data_, objective, device_);
    // Class-balanced sampling: every class drawn equally often (data/Sampler.h).
    if (config_.balancedSampling) {
        sampleWeights_ = balancedWeights(data_.train.labels);
    }

    totalSteps_ = plannedSteps();
}

Trainer::~Trainer() = default;

void Trainer::makeOptimizer(const std::function<bool(const at::Tensor&)>& owned) {
    std::vector<at::Tensor> decay;
    std::vector<at::Tensor> noDecay;
    for (const auto& item : bundle_.model->named_parameters()) {
        if (item.value().requires_grad() && owned(item.value())) {
            (takesWeightDecay(item.key()) ? decay : noDecay).push_back(item.value());
        }
    }
    std::vector<torch::optim::OptimizerParamGroup> groups;
    auto options = [&](double weightDecay) {
        return std::make_unique<torch::optim::AdamWOptions>(
            torch::optim::AdamWOptions(config_.learningRate).weight_decay(weightDecay));
    };
    if (!decay.empty()) {
        groups.emplace_back(decay, options(config_.weightDecay));
    }
    if (!noDecay.empty()) {
        groups.emplace_back(noDecay, options(0.0));
    }
    optimizer_ =
        std::make_unique<FusedAdamW>(groups, torch::optim::AdamWOptions(config_.learningRate));
}

// ---- steps -----------------------------------------------------------------------------------

void Trainer::emit(EventKind kind, const std::string& message, nlohmann::json data) {
    observer_.onEvent(TrainerEvent{kind, position_.step, message, std::move(data)});
}

double Trainer::learningRateAt(std::size_t step) const {
    return scheduledLearningRate(config_, step, totalSteps_);
}

void Trainer::applyLearningRate(double lr) {
    for (auto& group : optimizer_->param_groups()) {
        static_cast<torch::optim::AdamWOptions&>(group.options()).lr(lr);
    }
}

void Trainer::clearGradients() {
    for (auto& parameter : trainable_) {
        parameter.mutable_grad() = at::Tensor();  // free, not zero: the memory goes back
    }
}

TokenBatch Trainer::makeBatch(const std::vector<const Encoding*>& examples, bool training) const {
    if (config_.padding == PaddingMode::Unpadded) {
        return packBatch(examples, device_, AttentionGrouping::forDevice(device_));
    }
    PaddingOptions padding;
    // Evaluation pads to the batch's longest whatever the training padding: its batches are
    // sorted by length, and its results do not depend on padding.
    padding.fixedLength = training && config_.padding == PaddingMode::Fixed ? config_.maxLength : 0;
    padding.multipleOf = config_.padToMultipleOf;
    return paddedTokenBatch(collate(examples, bundle_.tokenizer->padId(), padding, device_));
}

at::Tensor Trainer::forwardBackward(const std::vector<std::size_t>& window, double stepUnits,
                                    double& realTokens, double& paddedTokens) {
    // The exact loss of the step: the sum over all its examples (labelled tokens, for token
    // classification) divided by their number, so N micro-batches (on any number of ranks)
    // equal one batch of N x b, not a mean of means.
    // Summed on the device in double, as the host summed the micro-batches' .item<double>()
    // before: the same sums, bit for bit, and nothing read back per micro-batch.
    at::Tensor lossSum = at::zeros({}, at::TensorOptions().dtype(at::kDouble).device(device_));
    for (const auto& micro : splitWindow(window, microBatch_)) {
        test_hooks::injectOutOfMemory(collective_ != nullptr ? collective_->rank() : 0,
                                      micro.size(), position_.step + 1);
        std::vector<const Encoding*> batch;
        for (const auto index : micro) {
            batch.push_back(&data_.train.encodings[index]);
            realTokens += static_cast<double>(data_.train.lengths[index]);
        }
        const auto inputs = makeBatch(batch, /*training=*/true);
        // The rows the linears compute: every token of a padded batch, the real ones unpadded.
        paddedTokens += static_cast<double>(inputs.inputIds.numel());
        const auto target = objective_->targets(data_.train, micro, inputs, device_);
        at::Tensor loss;
        {
            const AutocastGuard autocast(device_.type(), config_.precision != Precision::Fp32,
                                         autocastDtype(config_.precision));
            const auto logits = logitsOf(data_.train, trainPrefix_.get(), micro, inputs);
            loss = objective_->lossSum(logits.to(at::kFloat), target);
        }
        const auto scaled = loss / stepUnits;
        (scaler_ ? scaler_->scale(scaled) : scaled).backward();
        lossSum.add_(loss.detach().to(at::kDouble));  // detached: the graph is not kept alive
    }
    return lossSum;
}

double Trainer::computeGradients(const std::vector<std::size_t>& window) {
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    const auto units = std::max(1.0, objective_->units(data_.train, window));
    return readValue(forwardBackward(window, units, realTokens, paddedTokens)) / units;
}

std::size_t Trainer::plannedSteps() const {
    const auto steps = totalWindowsInEpoch() * config_.epochs;
    if (config_.maxSteps == 0) {
        return steps;
    }
    return config_.epochs > 0 ? std::min(steps, config_.maxSteps) : config_.maxSteps;
}

std::optional<StepMetrics> Trainer::runStep(const std::vector<std::size_t>& window,
                                            std::size_t epochWindows) {
    const auto start = Clock::now();
    const double lr = learningRateAt(position_.step);
    applyLearningRate(lr);
    if (pending_.steps == 0) {
        monitor_.resetPeak();  // the peak of the steps up to the next logged one
        pending_.started = start;
    }
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    const auto share = shareOf(window);
    const auto units = std::max(1.0, objective_->units(data_.train, window));
    at::Tensor lossSum;
    for (;;) {
        realTokens = 0.0;
        paddedTokens = 0.0;
        std::string reason;
        try {
            lossSum = forwardBackward(share, units, realTokens, paddedTokens);
        } catch (const c10::Error& error) {
            if (!isOutOfMemory(error)) {
                throw;
            }
            reason = error.what_without_backtrace();
        }
        bool outOfMemory = !reason.empty();
        if (collective_ != nullptr) {
            // One all-reduce of host figures: did any rank run out of memory, and the step's
            // tokens (the loss stays on the device: it is summed with the gradients).
            const auto sums =
                collective_->sumNumbers({outOfMemory ? 1.0 : 0.0, realTokens, paddedTokens});
            if (!outOfMemory && sums[0] > 0.0) {
                reason = "another rank ran out of memory";
            }
            outOfMemory = sums[0] > 0.0;
            realTokens = sums[1];
            paddedTokens = sums[2];
        }
        if (!outOfMemory) {
            break;
        }
        {
            // Drop the partial step, give the memory back, redo the same examples in halves
            // (every rank together under data parallel: the effective batch stays).
            lossSum = at::Tensor();
            clearGradients();
            monitor_.releaseCache();
            if (!config_.recoverFromOom || microBatch_ == 1) {
                throw OutOfMemoryFailure(
                    "out of memory at micro-batch " + std::to_string(microBatch_) +
                    (config_.recoverFromOom ? " (cannot shrink further)" : " (recovery is off)") +
                    ": " + reason.substr(0, reason.find('\n')) +
                    ". Try gradient checkpointing, bf16/fp16, a shorter max length, freezing "
                    "layers, or a larger memory cap.");
            }
            const std::size_t previous = microBatch_;
            microBatch_ = std::max<std::size_t>(1, microBatch_ / 2);
            const std::size_t accumulation =
                (config_.stepExamples() + microBatch_ - 1) / microBatch_;  // per rank
            emit(EventKind::OomRecovered,
                 "out of memory at micro-batch " + std::to_string(previous) + "; continuing with " +
                     std::to_string(microBatch_) + " x " + std::to_string(accumulation) +
                     " accumulation (effective batch " + std::to_string(globalStepExamples()) +
                     " unchanged)",
                 {{"from_micro_batch", previous},
                  {"to_micro_batch", microBatch_},
                  {"accumulation", accumulation},
                  {"effective_batch", globalStepExamples()}});
            monitor_.resetPeak();
        }
    }

    if (collective_ != nullptr) {
        reduceGradients(lossSum);  // the loss summed over the ranks with the gradients
    }
    stepOptimizer(lossSum);
    clearGradients();
    ++position_.step;

    pending_.steps += 1;
    pending_.examples += window.size();
    pending_.lossUnits += units;
    pending_.realTokens += realTokens;
    pending_.paddedTokens += paddedTokens;
    pending_.learningRate = lr;
    pending_.epochWindows = epochWindows;
    pending_.accumulation = (share.size() + microBatch_ - 1) / microBatch_;  // on each rank
    const bool lastInEpoch = position_.window + 1 >= epochWindows;
    const bool logged = config_.logEverySteps <= 1 || position_.step % config_.logEverySteps == 0 ||
                        lastInEpoch || position_.step >= totalSteps_;
    // This step's work is queued: the read of the last logged step ends now, while it runs (a
    // step later, not a logged step later: its time is the device's, up to the read).
    std::optional<StepMetrics> previous;
    if (staged_) {
        previous = finishLoggedSteps();
    }
    if (!logged) {
        return previous;
    }
    stageLoggedSteps();
    if (!deferStepReads_) {
        return finishLoggedSteps();
    }
    return previous;
}

bool Trainer::evaluatesInsideEpoch(std::size_t epochWindows) const {
    const std::size_t done = position_.window;  // windows done in this epoch, this one included
    if (done >= epochWindows) {
        return false;  // the epoch end evaluates anyway
    }
    if (config_.evalEverySteps > 0) {
        return position_.step % config_.evalEverySteps == 0;
    }
    // evals_per_epoch evenly spaced points, the last of them the epoch end: evaluate when this
    // window crosses k x windows / evals_per_epoch.
    const std::size_t evals = config_.evalsPerEpoch;
    return evals > 1 && (done * evals) / epochWindows > ((done - 1) * evals) / epochWindows;
}

std::size_t Trainer::totalWindowsInEpoch() const {
    return (data_.train.size() + globalStepExamples() - 1) / globalStepExamples();
}

// ---- the run ---------------------------------------------------------------------------------

void Trainer::trainLoop(const std::atomic<bool>& cancel, RunResult& result, std::int64_t& runPeak,
                        MemoryBreakdown& measured) {
    RunStart start;
    start.device = deviceDescription(device_);
    start.trainExamples = data_.train.size();
    start.validationExamples = data_.validation.size();
    start.totalSteps = totalSteps_;
    start.labels = data_.labels.names;
    start.forecast = forecast();
    start.resumedFromStep = position_.step;
    start.memoryCapBytes = config_.memoryCapBytes.value_or(0);
    if (position_.step == 0 && config_.trialStep) {
        const auto trialStart = Clock::now();
        start.trialPeakBytes = trialStepPeak();
        start.trialSeconds = secondsSince(trialStart);
    }
    observer_.onStarted(start);
    if (const auto warning =
            emulatedPrecisionWarning(deviceTraits(config_.device), toString(config_.precision));
        !warning.empty()) {
        emit(EventKind::Info, warning, {{"precision", toString(config_.precision)}});
    }
    if (const auto advice =
            tf32Advice(deviceTraits(config_.device), toString(config_.precision), config_.tf32);
        !advice.empty()) {
        emit(EventKind::Info, advice,
             {{"precision", toString(config_.precision)}, {"tf32", false}});
    }
    announcePrefixCache();
    if (const auto hint = unscaledTargetHint(data_); !hint.empty()) {
        emit(EventKind::Info, hint,
             {{"warning", true},
              {"target_mean", data_.targetSpread.mean},
              {"target_std", data_.targetSpread.scale}});
    }
    if (start.trialPeakBytes > 0) {
        emit(EventKind::Info,
             "forecast peak " + std::to_string(start.forecast.total() >> 20) +
                 " MiB; trial step on the longest micro-batch (" +
                 std::to_string(lastTrialExamples_) + " examples) " +
                 (lastTrialOutOfMemory_
                      ? "ran out of memory at " + std::to_string(start.trialPeakBytes >> 20) +
                            " MiB: the first step will shrink the micro-batch"
                      : std::to_string(start.trialPeakBytes >> 20) + " MiB"),
             {{"forecast", start.forecast.toJson()},
              {"trial_peak", start.trialPeakBytes},
              {"trial_out_of_memory", lastTrialOutOfMemory_},
              {"trial_examples", lastTrialExamples_}});
    }

    const BatchOrder order = config_.groupByLength ? BatchOrder::LengthGrouped : BatchOrder::Random;
    const std::size_t epochs = config_.epochs > 0 ? config_.epochs : SIZE_MAX;
    EpochSummary epoch;
    // A logged step's figures: the observers', the epoch's and the run's.
    auto report = [&](const StepMetrics& metrics) {
        runPeak = std::max(runPeak, metrics.memory.peak);
        epoch.realTokens += metrics.realTokens;
        epoch.paddedTokens += metrics.paddedTokens;
        observer_.onStep(metrics);
        // A loss that stays NaN or infinite will not come back: stop, and say so (the count of
        // such steps in a row is kept on the device, read with the step).
        if (config_.maxNonFiniteSteps > 0 && nonFiniteRun_ >= config_.maxNonFiniteSteps) {
            throw std::runtime_error(
                "the loss diverged at step " + std::to_string(metrics.step) +
                ": it was not finite for " + std::to_string(nonFiniteRun_) +
                " steps in a row; lower the learning rate (or use bf16 instead of fp16) "
                "and train again");
        }
    };
    auto reportUnreported = [&] {
        for (const auto& metrics : readUnreportedSteps()) {
            report(metrics);
        }
    };
    // After each evaluation: keep the best checkpoint by best_metric, count evaluations without
    // improvement, and say whether early stopping ends the run.
    auto judge = [&](const EvalMetrics& eval) {
        const auto rank = rankOf(eval, config_.bestMetric);
        // Ties of the metric go to the lower validation loss, then to the later step
        // (train/Metrics.h, ranksAbove: what every screen naming the best evaluation uses).
        if (!bestScore_ || ranksAbove(rank, {*bestScore_, bestLoss_, bestStep_})) {
            // An equal evaluation, later, becomes the best but is no improvement: early
            // stopping still counts it.
            const bool improved =
                !bestScore_ || rank.score != *bestScore_ || rank.loss != bestLoss_;
            bestScore_ = rank.score;
            bestLoss_ = rank.loss;
            bestStep_ = rank.step;
            bestValue_ = metricOf(eval, config_.bestMetric);
            result.bestEval = eval;
            if (eval.examples) {
                observer_.onBestExamples(eval.examples);
            }
            saveCheckpoint(CheckpointKind::Best, metricOf(eval, config_.bestMetric));
            if (improved) {
                evaluationsWithoutImprovement_ = 0;
                return false;
            }
        }
        ++evaluationsWithoutImprovement_;
        if (config_.earlyStoppingPatience == 0 ||
            evaluationsWithoutImprovement_ < config_.earlyStoppingPatience) {
            return false;
        }
        emit(EventKind::EarlyStopped,
             "stopped early at step " + std::to_string(position_.step) + ": no better " +
                 toString(config_.bestMetric) + " for " +
                 std::to_string(evaluationsWithoutImprovement_) + " evaluations (best " +
                 // The best score survives a resume; the best evaluation's step is known when
                 // it was reached in this process.
                 std::to_string(bestValue_.value_or(
                     config_.bestMetric == BestMetric::Loss ? -*bestScore_ : *bestScore_)) +
                 (result.bestEval.step > 0 ? " at step " + std::to_string(result.bestEval.step)
                                           : "") +
                 ")",
             {{"step", position_.step},
              {"best_step", result.bestEval.step},
              {"metric", toString(config_.bestMetric)}});
        return true;
    };
    while (position_.epoch < epochs && position_.step < totalSteps_) {
        const auto windows =
            planEpoch(data_.train.lengths, globalStepExamples(), order, config_.seed,
                      position_.epoch, config_.shuffle, sampleWeights_);
        epoch = EpochSummary{};
        epoch.epoch = position_.epoch + 1;
        const auto epochStart = Clock::now();
        while (position_.window < windows.size()) {
            if (stopRequested(cancel)) {
                reportUnreported();  // the steps since the last logged one
                saveCheckpoint(CheckpointKind::Cancel, 0.0);
                emit(EventKind::Cancelled,
                     "stopped by the user at step " + std::to_string(position_.step));
                result.status = RunStatus::Cancelled;
                return;
            }
            const auto metrics = runStep(windows[position_.window], windows.size());
            ++position_.window;
            if (position_.step == 1) {
                measured = residentMemory();
            }
            if (metrics) {
                report(*metrics);
            }
            if (config_.cacheRelease == CacheRelease::EveryNSteps &&
                position_.step % config_.cacheReleaseSteps == 0) {
                monitor_.releaseCache();
            }
            // Not at an epoch's end or the run's last step: those evaluate anyway (once).
            if (position_.step < totalSteps_ && evaluatesInsideEpoch(windows.size())) {
                reportUnreported();  // the curve has a point where it is evaluated
                auto eval = evaluate();
                eval.epoch = static_cast<double>(position_.epoch) +
                             static_cast<double>(position_.window) /
                                 static_cast<double>(windows.size());  // as the step's epoch
                observer_.onEvaluation(eval);
                if (judge(eval)) {
                    result.finalEval = eval;
                    saveCheckpoint(CheckpointKind::Final, metricOf(eval, config_.bestMetric));
                    return;
                }
            }
            if (position_.step >= totalSteps_) {
                break;
            }
        }
        reportUnreported();  // the epoch's last step, when it was read one step late
        epoch.seconds = secondsSince(epochStart);
        observer_.onEpochEnd(epoch);
        auto eval = evaluate();
        eval.epoch = static_cast<double>(position_.epoch + 1);
        observer_.onEvaluation(eval);
        result.finalEval = eval;
        ++position_.epoch;
        position_.window = 0;
        const bool stop = judge(eval);
        saveCheckpoint(CheckpointKind::Epoch, metricOf(eval, config_.bestMetric));
        if (stop) {
            return;
        }
    }
    // No evaluation yet (single-label's has a confusion matrix, the other tasks' a report).
    if (result.finalEval.confusion.empty() && !result.finalEval.task.is_object()) {
        // Stopped by max_steps inside an epoch: evaluate and keep the model all the same.
        result.finalEval = evaluate();
        result.finalEval.epoch =
            static_cast<double>(position_.epoch) +
            static_cast<double>(position_.window) /
                static_cast<double>(std::max<std::size_t>(1, totalWindowsInEpoch()));
        observer_.onEvaluation(result.finalEval);
        judge(result.finalEval);
        saveCheckpoint(CheckpointKind::Final, metricOf(result.finalEval, config_.bestMetric));
    }
}

RunResult Trainer::run(const std::atomic<bool>& cancel) {
    RunResult result;
    const auto started = Clock::now();
    std::int64_t runPeak = 0;
    MemoryBreakdown measured;
    try {
        if (position_.step == 0) {
            // A fresh run draws its dropout masks (and anything else random) from its own seed,
            // so that two runs of one job are the same run; a resumed one restored its state.
            at::manual_seed(config_.seed);
        }
        trainLoop(cancel, result, runPeak, measured);
        closePrefixCache();
    } catch (const OutOfMemoryFailure& failure) {
        result.status = RunStatus::Failed;
        result.error = failure.what();
    } catch (const StoreError& error) {
        // A checkpoint the disk refused, or a store that failed under the run (issue 26: a full
        // disk once ended as a failed run, exit 3): the store's fault, exit 4.
        result.status = RunStatus::Failed;
        result.error = error.what();
        result.storeFailure = true;
    } catch (const c10::Error& error) {
        result.status = RunStatus::Failed;
        const std::string what = error.what_without_backtrace();
        result.error = (isOutOfMemory(error) ? "out of memory outside a training step: "
                                             : "LibTorch error: ") +
                       what.substr(0, what.find('\n'));
    } catch (const std::exception& error) {
        result.status = RunStatus::Failed;
        result.error = error.what();
    } catch (...) {
        result.status = RunStatus::Failed;
        result.error = "an unknown error stopped the run";
    }
    // From here on nothing may escape: the promise is a result, whatever the observer does.
    if (result.status == RunStatus::Failed) {
        clearGradients();
        try {
            emit(EventKind::Error, result.error);
        } catch (const std::exception& error) {
            result.error += std::string(" (and reporting it failed: ") + error.what() + ")";
        } catch (...) {
            result.error += " (and reporting it failed)";
        }
    }
    result.steps = position_.step;
    result.peakMemoryBytes = runPeak;
    measured.activations = std::max<std::int64_t>(
        0, runPeak - measured.weights - measured.gradients - measured.optimizerState);
    result.measured = measured;
    result.lastCheckpoint = lastCheckpoint_;
    result.bestCheckpoint = bestCheckpoint_;
    result.seconds = secondsSince(started);
    try {
        observer_.onFinished(result);
    } catch (...) {
        std::string why = "recording the end of the run failed";
        try {
            throw;
        } catch (const std::exception& error) {
            why += std::string(": ") + error.what();
        } catch (...) {
        }
        result.error += (result.error.empty() ? "" : "; ") + why;
        result.status = RunStatus::Failed;
    }
    return result;
}

}  // namespace bert
