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
#include "data/Sampler.h"
#include "distributed/Collective.h"
#include "memory/DeviceTraits.h"
#include "memory/MemoryForecast.h"
#include "train/FusedAdamW.h"
#include "train/Metrics.h"
#include "train/PrefixCache.h"
#include "train/RandomState.h"
#include "train/Recompute.h"

namespace bert {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

bool isNoDecay(const std::string& name) {
    return name.find("LayerNorm") != std::string::npos ||
           (name.size() >= 4 && name.compare(name.size() - 4, 4, "bias") == 0);
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
      device_(config_.device),
      monitor_(device_),
      cap_(device_, config_.memoryCapBytes),
      microBatch_(config_.batchSize),
      evalBatch_(config_.evalBatchSize) {
    if (config_.threads > 0) {
        threads_.emplace(config_.threads);
    }
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
    if (config_.classWeighting == ClassWeighting::Balanced) {
        // scikit-learn's "balanced": N / (classes x n_c). A class absent from the training set
        // gets weight 0 (it has no examples to weigh).
        const auto classes = data_.labels.size();
        std::vector<double> counts(classes, 0.0);
        for (const auto label : data_.train.labels) {
            counts[static_cast<std::size_t>(label)] += 1.0;
        }
        std::vector<float> weights(classes, 0.0F);
        for (std::size_t c = 0; c < classes; ++c) {
            if (counts[c] > 0.0) {
                weights[c] = static_cast<float>(static_cast<double>(data_.train.size()) /
                                                (static_cast<double>(classes) * counts[c]));
            }
        }
        classWeights_ = at::tensor(weights, at::kFloat).to(device_);
    }

    totalSteps_ = plannedSteps();
}

Trainer::~Trainer() = default;

void Trainer::makeOptimizer(const std::function<bool(const at::Tensor&)>& owned) {
    std::vector<at::Tensor> decay;
    std::vector<at::Tensor> noDecay;
    for (const auto& item : bundle_.model->named_parameters()) {
        if (item.value().requires_grad() && owned(item.value())) {
            (isNoDecay(item.key()) ? noDecay : decay).push_back(item.value());
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

double Trainer::forwardBackward(const std::vector<std::size_t>& window, double stepExamples,
                                double& realTokens, double& paddedTokens) {
    // The exact loss of the step: the sum over all its examples divided by their number, so N
    // micro-batches (on any number of ranks) equal one batch of N x b, not a mean of means.
    const double examples = stepExamples;
    double lossSum = 0.0;
    for (const auto& micro : splitWindow(window, microBatch_)) {
        std::vector<const Encoding*> batch;
        std::vector<std::int64_t> labels;
        for (const auto index : micro) {
            batch.push_back(&data_.train.encodings[index]);
            labels.push_back(data_.train.labels[index]);
            realTokens += static_cast<double>(data_.train.lengths[index]);
        }
        const auto inputs = makeBatch(batch, /*training=*/true);
        // The rows the linears compute: every token of a padded batch, the real ones unpadded.
        paddedTokens += static_cast<double>(inputs.inputIds.numel());
        const auto target = at::tensor(labels, at::kLong).to(device_);
        at::Tensor loss;
        {
            const AutocastGuard autocast(device_.type(), config_.precision != Precision::Fp32,
                                         autocastDtype(config_.precision));
            const auto logits = logitsOf(data_.train, trainPrefix_.get(), micro, inputs);
            // Weighted, the sum is over w[label] x loss: divided by the step's example count
            // (not the sum of weights) it stays exact under accumulation, and balanced weights
            // average 1 over the training set.
            loss = at::cross_entropy_loss(logits.to(at::kFloat), target, classWeights_,
                                          at::Reduction::Sum);
        }
        const auto scaled = loss / examples;
        (scaler_ ? scaler_->scale(scaled) : scaled).backward();
        lossSum += loss.item<double>();  // a plain number: the graph is not kept alive
    }
    return lossSum;
}

double Trainer::computeGradients(const std::vector<std::size_t>& window) {
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    const auto examples = static_cast<double>(std::max<std::size_t>(1, window.size()));
    return forwardBackward(window, examples, realTokens, paddedTokens) / examples;
}

std::size_t Trainer::plannedSteps() const {
    const auto steps = totalWindowsInEpoch() * config_.epochs;
    if (config_.maxSteps == 0) {
        return steps;
    }
    return config_.epochs > 0 ? std::min(steps, config_.maxSteps) : config_.maxSteps;
}

StepMetrics Trainer::runStep(const std::vector<std::size_t>& window, std::size_t epochWindows) {
    StepMetrics metrics;
    const auto start = Clock::now();
    const double lr = learningRateAt(position_.step);
    applyLearningRate(lr);
    monitor_.resetPeak();
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    const auto share = shareOf(window);
    const auto examples = static_cast<double>(window.size());
    for (;;) {
        realTokens = 0.0;
        paddedTokens = 0.0;
        double lossSum = 0.0;
        std::string reason;
        try {
            lossSum = forwardBackward(share, examples, realTokens, paddedTokens);
        } catch (const c10::Error& error) {
            if (!isOutOfMemory(error)) {
                throw;
            }
            reason = error.what_without_backtrace();
        }
        bool outOfMemory = !reason.empty();
        if (collective_ != nullptr) {
            // One all-reduce: did any rank run out of memory, and the step's figures.
            const auto sums = collective_->sumNumbers(
                {outOfMemory ? 1.0 : 0.0, lossSum, realTokens, paddedTokens});
            if (!outOfMemory && sums[0] > 0.0) {
                reason = "another rank ran out of memory";
            }
            outOfMemory = sums[0] > 0.0;
            lossSum = sums[1];
            realTokens = sums[2];
            paddedTokens = sums[3];
        }
        if (!outOfMemory) {
            metrics.loss = lossSum / examples;
            break;
        }
        {
            // Drop the partial step, give the memory back, redo the same examples in halves
            // (every rank together under data parallel: the effective batch stays).
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
        reduceGradients();
    }
    bool skip = false;
    if (scaler_) {
        skip = scaler_->unscale(trainable_);  // unscale before clipping
    }
    if (!skip && config_.maxGradNorm > 0.0) {
        // Clipping as clip_grad_norm_ does (factor max / (norm + 1e-6), at most 1), with the
        // factor applied inside the optimizer's kernel instead of a pass scaling every gradient
        // (bench_optimizer, MiniLM: clip then step 24.2 ms, folded 23.2 ms; the norm is 9.6).
        metrics.gradNorm = gradientNorm(trainable_);
        if (!std::isfinite(metrics.gradNorm)) {
            skip = true;
        } else if (const double factor = config_.maxGradNorm / (metrics.gradNorm + 1e-6);
                   factor < 1.0) {
            optimizer_->divideNextGradientsBy(1.0 / factor);
        }
    }
    if (!skip) {
        optimizer_->step();
        if (!owners_.empty()) {
            // Each rank updated its share of the weights; every rank takes the others' shares.
            const torch::NoGradGuard noGrad;
            for (int rank = 0; rank < collective_->size(); ++rank) {
                std::vector<at::Tensor> updated;
                for (std::size_t i = 0; i < trainable_.size(); ++i) {
                    if (owners_[i] == rank) {
                        updated.push_back(trainable_[i].detach());
                    }
                }
                collective_->broadcastFrom(rank, updated);
            }
        }
    } else {
        emit(EventKind::StepSkipped,
             "non-finite gradients: optimizer step skipped" +
                 std::string(scaler_ ? ", loss scale backed off" : ""),
             {{"loss_scale", scaler_ ? scaler_->scaleValue() : 0.0}});
    }
    if (scaler_) {
        scaler_->update();
        metrics.lossScale = scaler_->scaleValue();
    }
    clearGradients();
    ++position_.step;

    const double seconds = std::max(1e-9, secondsSince(start));
    metrics.step = position_.step;
    metrics.epoch = static_cast<double>(position_.epoch) +
                    static_cast<double>(position_.window + 1) / static_cast<double>(epochWindows);
    metrics.learningRate = lr;
    metrics.memory = monitor_.sample();
    if (collective_ != nullptr) {
        const auto ranks = collective_->allGather(std::vector<std::int64_t>{
            metrics.memory.current, metrics.memory.peak, metrics.memory.reserved});
        for (const auto& rank : ranks) {
            metrics.rankMemory.push_back({rank[0], rank[1], rank[2]});
        }
    }
    metrics.examples = window.size();
    metrics.samplesPerSecond = static_cast<double>(window.size()) / seconds;
    metrics.tokensPerSecond = realTokens / seconds;
    metrics.paddingShare = paddedTokens > 0 ? 1.0 - realTokens / paddedTokens : 0.0;
    metrics.realTokens = static_cast<std::int64_t>(realTokens);
    metrics.paddedTokens = static_cast<std::int64_t>(paddedTokens);
    metrics.microBatch = microBatch_;
    metrics.accumulation = (share.size() + microBatch_ - 1) / microBatch_;  // on each rank
    metrics.skipped = skip;
    return metrics;
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
    announcePrefixCache();
    if (start.trialPeakBytes > 0) {
        emit(EventKind::Info,
             "forecast peak " + std::to_string(start.forecast.total() >> 20) +
                 " MiB; trial step on the longest micro-batch (" +
                 std::to_string(lastTrialExamples_) + " examples) " +
                 std::to_string(start.trialPeakBytes >> 20) + " MiB",
             {{"forecast", start.forecast.toJson()},
              {"trial_peak", start.trialPeakBytes},
              {"trial_examples", lastTrialExamples_}});
    }

    const BatchOrder order = config_.groupByLength ? BatchOrder::LengthGrouped : BatchOrder::Random;
    const std::size_t epochs = config_.epochs > 0 ? config_.epochs : SIZE_MAX;
    std::size_t nonFiniteSteps = 0;  // consecutive steps whose loss was NaN or infinite
    // After each evaluation: keep the best checkpoint by best_metric, count evaluations without
    // improvement, and say whether early stopping ends the run.
    auto judge = [&](const EvalMetrics& eval) {
        const double score = scoreOf(eval, config_.bestMetric);
        if (!bestScore_ || score > *bestScore_) {
            bestScore_ = score;
            evaluationsWithoutImprovement_ = 0;
            result.bestEval = eval;
            saveCheckpoint(CheckpointKind::Best, metricOf(eval, config_.bestMetric));
            return false;
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
                 std::to_string(config_.bestMetric == BestMetric::Loss ? -*bestScore_
                                                                       : *bestScore_) +
                 (result.bestEval.step > 0 ? " at step " + std::to_string(result.bestEval.step)
                                           : "") +
                 ")",
             {{"step", position_.step},
              {"best_step", result.bestEval.step},
              {"metric", toString(config_.bestMetric)}});
        return true;
    };
    while (position_.epoch < epochs && position_.step < totalSteps_) {
        const auto windows = planEpoch(data_.train.lengths, globalStepExamples(), order,
                                       config_.seed, position_.epoch, config_.shuffle);
        EpochSummary epoch;
        epoch.epoch = position_.epoch + 1;
        const auto epochStart = Clock::now();
        while (position_.window < windows.size()) {
            if (stopRequested(cancel)) {
                saveCheckpoint(CheckpointKind::Cancel, 0.0);
                emit(EventKind::Cancelled,
                     "stopped by the user at step " + std::to_string(position_.step));
                result.status = RunStatus::Cancelled;
                return;
            }
            const auto metrics = runStep(windows[position_.window], windows.size());
            ++position_.window;
            runPeak = std::max(runPeak, metrics.memory.peak);
            if (position_.step == 1) {
                measured = residentMemory();
            }
            epoch.realTokens += metrics.realTokens;
            epoch.paddedTokens += metrics.paddedTokens;
            observer_.onStep(metrics);
            // A loss that stays NaN or infinite will not come back: stop, and say so.
            nonFiniteSteps = std::isfinite(metrics.loss) ? 0 : nonFiniteSteps + 1;
            if (config_.maxNonFiniteSteps > 0 && nonFiniteSteps >= config_.maxNonFiniteSteps) {
                throw std::runtime_error(
                    "the loss diverged at step " + std::to_string(position_.step) +
                    ": it was not finite for " + std::to_string(nonFiniteSteps) +
                    " steps in a row; lower the learning rate (or use bf16 instead of fp16) and "
                    "train again");
            }
            if (config_.cacheRelease == CacheRelease::EveryNSteps &&
                position_.step % config_.cacheReleaseSteps == 0) {
                monitor_.releaseCache();
            }
            // Not at an epoch's end or the run's last step: those evaluate anyway (once).
            if (position_.step < totalSteps_ && evaluatesInsideEpoch(windows.size())) {
                auto eval = evaluate();
                eval.epoch = metrics.epoch;
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
    if (result.finalEval.confusion.empty()) {
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
