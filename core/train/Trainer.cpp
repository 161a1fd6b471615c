#include "train/Trainer.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/utils/clip_grad.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>

#include "Error.h"
#include "checkpoint/SafeTensors.h"
#include "data/Batch.h"
#include "data/Sampler.h"
#include "io/AtomicFile.h"
#include "memory/MemoryForecast.h"
#include "train/Checkpointing.h"
#include "train/FusedAdamW.h"
#include "train/RandomState.h"

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

c10::ScalarType autocastType(Precision precision) {
    return precision == Precision::Fp16 ? at::kHalf : at::kBFloat16;
}

const char* kTrainerStateFile = "trainer_state.json";
const char* kTrainingTensorsFile = "training_state.safetensors";

}  // namespace

std::string toString(EventKind kind) {
    switch (kind) {
        case EventKind::OomRecovered: return "oom_recovered";
        case EventKind::EvalOomRecovered: return "eval_oom_recovered";
        case EventKind::StepSkipped: return "step_skipped";
        case EventKind::CheckpointSaved: return "checkpoint_saved";
        case EventKind::Cancelled: return "cancelled";
        case EventKind::Interrupted: return "interrupted";
        case EventKind::Error: return "error";
        case EventKind::Info: return "info";
    }
    return "info";
}

std::string toString(RunStatus status) {
    switch (status) {
        case RunStatus::Running: return "running";
        case RunStatus::Completed: return "completed";
        case RunStatus::Cancelled: return "cancelled";
        case RunStatus::Failed: return "failed";
        case RunStatus::Interrupted: return "interrupted";
    }
    return "failed";
}

RunStatus runStatusFromString(const std::string& text) {
    for (const auto status : {RunStatus::Running, RunStatus::Completed, RunStatus::Cancelled,
                              RunStatus::Failed, RunStatus::Interrupted}) {
        if (toString(status) == text) {
            return status;
        }
    }
    return RunStatus::Failed;
}

nlohmann::json MemoryBreakdown::toJson() const {
    return {{"weights", weights}, {"gradients", gradients}, {"optimizer_state", optimizerState},
            {"activations", activations}, {"peak_gradients", peakGradients < 0 ? gradients : peakGradients},
            {"total", total()}};
}

// ---- data ------------------------------------------------------------------------------------

TrainingData prepareTrainingData(const DataSpec& spec, const WordPieceTokenizer& tokenizer,
                                 const TrainingConfig& config) {
    const ExampleSet all = loadExamples(spec.trainFile, spec.columns);
    ExampleSet train;
    ExampleSet validation;
    if (spec.validationFile) {
        train = all;
        validation = loadExamples(*spec.validationFile, spec.columns);
    } else {
        auto split = stratifiedSplit(all, config.validationFraction, config.seed);
        train = std::move(split.train);
        validation = std::move(split.validation);
    }
    TrainingData data;
    data.labels = buildLabelMap(train);
    checkValidationLabels(data.labels, validation);
    data.train = tokenizeExamples(train, tokenizer, data.labels, config.maxLength);
    data.validation = tokenizeExamples(validation, tokenizer, data.labels, config.maxLength);
    data.fingerprint = all.fingerprint;
    data.skippedEmpty = all.skippedEmpty;
    data.invalidUtf8Replaced = all.invalidUtf8Replaced;
    return data;
}

double accuracyOf(const std::vector<std::vector<std::int64_t>>& confusion) {
    std::int64_t correct = 0;
    std::int64_t total = 0;
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            total += confusion[t][p];
            correct += t == p ? confusion[t][p] : 0;
        }
    }
    return total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
}

double macroF1Of(const std::vector<std::vector<std::int64_t>>& confusion) {
    const std::size_t n = confusion.size();
    if (n == 0) {
        return 0.0;
    }
    double sum = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
        std::int64_t truePositive = confusion[c][c];
        std::int64_t predicted = 0;
        std::int64_t actual = 0;
        for (std::size_t k = 0; k < n; ++k) {
            predicted += confusion[k][c];
            actual += confusion[c][k];
        }
        const double denominator = static_cast<double>(predicted + actual);
        sum += denominator > 0 ? 2.0 * static_cast<double>(truePositive) / denominator : 0.0;
    }
    return sum / static_cast<double>(n);
}

// ---- trainer ---------------------------------------------------------------------------------

Trainer::Trainer(ModelBundle& model, const TrainingData& data, TrainingConfig config,
                 TrainerObserver& observer, std::filesystem::path checkpointFolder)
    : bundle_(model),
      data_(data),
      config_(std::move(config)),
      observer_(observer),
      checkpointFolder_(std::move(checkpointFolder)),
      device_(config_.device),
      monitor_(device_),
      microBatch_(config_.batchSize),
      evalBatch_(config_.evalBatchSize) {
    config_.validate();
    if (device_.is_cuda() && cudaDeviceCount() <= device_.index()) {
        throw InputError("device " + config_.device + " is not available (CUDA devices found: " +
                         std::to_string(cudaDeviceCount()) + ")");
    }
    if (bundle_.config.labels != data_.labels.names) {
        throw InputError("the model's labels differ from the data's; load the model with the data's labels");
    }
    if (data_.train.size() == 0 || data_.validation.size() == 0) {
        throw InputError("training and validation data must both have examples");
    }
    if (config_.threads > 0) {
        at::set_num_threads(config_.threads);
    }
    auto& net = *bundle_.model;
    net.to(device_);
    net.train();

    // Frozen parameters get no gradient and are not given to the optimizer: no state either.
    const auto layers = static_cast<std::size_t>(bundle_.config.numHiddenLayers);
    if (config_.freezeLayers > layers) {
        throw InputError("cannot freeze " + std::to_string(config_.freezeLayers) +
                         " layers of a model with " + std::to_string(layers));
    }
    if (config_.freezeEmbeddings) {
        for (auto& parameter : net.bert->embeddings->parameters()) {
            parameter.requires_grad_(false);
        }
    }
    for (std::size_t i = 0; i < config_.freezeLayers; ++i) {
        for (auto& parameter : net.bert->encoder->layer[i]->parameters()) {
            parameter.requires_grad_(false);
        }
    }
    if (config_.gradientCheckpointing) {
        net.setLayerRunner(checkpointedLayerRunner());
    } else {
        net.setLayerRunner({});
    }

    std::vector<at::Tensor> decay;
    std::vector<at::Tensor> noDecay;
    for (const auto& item : net.named_parameters()) {
        if (!item.value().requires_grad()) {
            continue;
        }
        trainable_.push_back(item.value());
        (isNoDecay(item.key()) ? noDecay : decay).push_back(item.value());
    }
    if (trainable_.empty()) {
        throw InputError("every parameter is frozen: nothing would train");
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
    optimizer_ = std::make_unique<FusedAdamW>(groups, torch::optim::AdamWOptions(config_.learningRate));

    if (config_.precision == Precision::Fp16) {
        scaler_ = std::make_unique<DynamicLossScaler>(device_);
    }
    monitor_.setCap(config_.memoryCapBytes);

    totalSteps_ = totalWindowsInEpoch() * config_.epochs;
    if (config_.maxSteps > 0) {
        totalSteps_ = config_.epochs > 0 ? std::min(totalSteps_, config_.maxSteps) : config_.maxSteps;
    }
}

Trainer::~Trainer() {
    monitor_.setCap(std::nullopt);
}

void Trainer::emit(EventKind kind, const std::string& message, nlohmann::json data) {
    observer_.onEvent(TrainerEvent{kind, position_.step, message, std::move(data)});
}

double Trainer::learningRateAt(std::size_t step) const {
    // transformers' get_linear_schedule_with_warmup, evaluated at the 0-based step.
    const auto warmup = static_cast<std::size_t>(std::ceil(config_.warmupRatio * static_cast<double>(totalSteps_)));
    const double s = static_cast<double>(step);
    if (step < warmup) {
        return config_.learningRate * s / static_cast<double>(std::max<std::size_t>(1, warmup));
    }
    const double remaining = static_cast<double>(totalSteps_) - s;
    const double span = static_cast<double>(std::max<std::size_t>(1, totalSteps_ - warmup));
    return config_.learningRate * std::max(0.0, remaining / span);
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

double Trainer::forwardBackward(const std::vector<std::size_t>& window, double& realTokens,
                                double& paddedTokens) {
    PaddingOptions padding;
    padding.fixedLength = config_.padding == PaddingMode::Fixed ? config_.maxLength : 0;
    padding.multipleOf = config_.padToMultipleOf;
    // The exact loss of the step: the sum over all its examples divided by their number, so N
    // micro-batches equal one batch of N x b (not a mean of per-micro-batch means).
    const double examples = static_cast<double>(window.size());
    double lossSum = 0.0;
    for (const auto& micro : splitWindow(window, microBatch_)) {
        std::vector<const Encoding*> batch;
        std::vector<std::int64_t> labels;
        for (const auto index : micro) {
            batch.push_back(&data_.train.encodings[index]);
            labels.push_back(data_.train.labels[index]);
            realTokens += static_cast<double>(data_.train.lengths[index]);
        }
        const auto inputs = collate(batch, bundle_.tokenizer.padId(), padding, device_);
        paddedTokens += static_cast<double>(inputs.inputIds.numel());
        const auto target = at::tensor(labels, at::kLong).to(device_);
        at::Tensor loss;
        {
            const AutocastGuard autocast(device_.type(), config_.precision != Precision::Fp32,
                                         autocastType(config_.precision));
            const auto logits = bundle_.model->forward(inputs);
            loss = at::cross_entropy_loss(logits.to(at::kFloat), target, {}, at::Reduction::Sum);
        }
        const auto scaled = loss / examples;
        (scaler_ ? scaler_->scale(scaled) : scaled).backward();
        lossSum += loss.item<double>();  // a plain number: the graph is not kept alive
    }
    return lossSum / examples;
}

double Trainer::computeGradients(const std::vector<std::size_t>& window) {
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    return forwardBackward(window, realTokens, paddedTokens);
}

StepMetrics Trainer::runStep(const std::vector<std::size_t>& window, std::size_t epochWindows) {
    StepMetrics metrics;
    const auto start = Clock::now();
    const double lr = learningRateAt(position_.step);
    applyLearningRate(lr);
    monitor_.resetPeak();
    double realTokens = 0.0;
    double paddedTokens = 0.0;
    for (;;) {
        try {
            realTokens = 0.0;
            paddedTokens = 0.0;
            metrics.loss = forwardBackward(window, realTokens, paddedTokens);
            break;
        } catch (const c10::Error& error) {
            if (!isOutOfMemory(error)) {
                throw;
            }
            // Drop the partial step, give the memory back, redo the same examples in halves.
            clearGradients();
            monitor_.releaseCache();
            const std::string reason = error.what_without_backtrace();
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
            const std::size_t accumulation = (config_.stepExamples() + microBatch_ - 1) / microBatch_;
            emit(EventKind::OomRecovered,
                 "out of memory at micro-batch " + std::to_string(previous) + "; continuing with " +
                     std::to_string(microBatch_) + " x " + std::to_string(accumulation) +
                     " accumulation (effective batch " + std::to_string(config_.stepExamples()) +
                     " unchanged)",
                 {{"from_micro_batch", previous}, {"to_micro_batch", microBatch_},
                  {"accumulation", accumulation}, {"effective_batch", config_.stepExamples()}});
            monitor_.resetPeak();
        }
    }

    bool skip = false;
    if (scaler_) {
        skip = scaler_->unscale(trainable_);  // unscale before clipping
    }
    if (!skip && config_.maxGradNorm > 0.0) {
        metrics.gradNorm = torch::nn::utils::clip_grad_norm_(trainable_, config_.maxGradNorm);
        if (!std::isfinite(metrics.gradNorm)) {
            skip = true;
        }
    }
    if (!skip) {
        optimizer_->step();
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
    metrics.examples = window.size();
    metrics.samplesPerSecond = static_cast<double>(window.size()) / seconds;
    metrics.tokensPerSecond = realTokens / seconds;
    metrics.paddingShare = paddedTokens > 0 ? 1.0 - realTokens / paddedTokens : 0.0;
    metrics.realTokens = static_cast<std::int64_t>(realTokens);
    metrics.paddedTokens = static_cast<std::int64_t>(paddedTokens);
    metrics.microBatch = microBatch_;
    metrics.accumulation = (window.size() + microBatch_ - 1) / microBatch_;
    metrics.skipped = skip;
    return metrics;
}

EvalMetrics Trainer::evaluate() {
    auto& net = *bundle_.model;
    net.eval();
    const torch::NoGradGuard noGrad;
    const std::size_t labels = data_.labels.size();
    std::vector<std::vector<std::int64_t>> confusion(labels, std::vector<std::int64_t>(labels, 0));
    double lossSum = 0.0;
    // Sorted by length so each batch pads little; evaluation order does not change the metrics.
    std::vector<std::size_t> order(data_.validation.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return data_.validation.lengths[a] < data_.validation.lengths[b];
    });
    std::size_t start = 0;
    while (start < order.size()) {
        const std::size_t end = std::min(order.size(), start + evalBatch_);
        try {
            std::vector<const Encoding*> batch;
            std::vector<std::int64_t> targets;
            for (std::size_t k = start; k < end; ++k) {
                batch.push_back(&data_.validation.encodings[order[k]]);
                targets.push_back(data_.validation.labels[order[k]]);
            }
            PaddingOptions padding;
            padding.multipleOf = config_.padToMultipleOf;
            const auto inputs = collate(batch, bundle_.tokenizer.padId(), padding, device_);
            at::Tensor logits;
            {
                const AutocastGuard autocast(device_.type(), config_.precision != Precision::Fp32,
                                             autocastType(config_.precision));
                logits = net.forward(inputs).to(at::kFloat);
            }
            const auto target = at::tensor(targets, at::kLong).to(device_);
            lossSum += at::cross_entropy_loss(logits, target, {}, at::Reduction::Sum).item<double>();
            const auto predicted = logits.argmax(-1).to(at::kCPU);
            const auto* p = predicted.data_ptr<std::int64_t>();
            for (std::size_t k = 0; k < targets.size(); ++k) {
                ++confusion[static_cast<std::size_t>(targets[k])][static_cast<std::size_t>(p[k])];
            }
            start = end;
        } catch (const c10::Error& error) {
            if (!isOutOfMemory(error) || evalBatch_ == 1) {
                net.train();
                throw;
            }
            monitor_.releaseCache();
            const std::size_t previous = evalBatch_;
            evalBatch_ = std::max<std::size_t>(1, evalBatch_ / 2);
            emit(EventKind::EvalOomRecovered,
                 "out of memory in evaluation at batch " + std::to_string(previous) +
                     "; evaluating in batches of " + std::to_string(evalBatch_) +
                     " (training is not affected)",
                 {{"from_batch", previous}, {"to_batch", evalBatch_}});
        }
    }
    net.train();
    if (config_.cacheRelease == CacheRelease::AfterEval) {
        monitor_.releaseCache();
    }
    EvalMetrics metrics;
    metrics.step = position_.step;
    metrics.loss = lossSum / static_cast<double>(std::max<std::size_t>(1, order.size()));
    metrics.accuracy = accuracyOf(confusion);
    metrics.macroF1 = macroF1Of(confusion);
    metrics.confusion = std::move(confusion);
    return metrics;
}

std::int64_t Trainer::trialStepPeak() {
    // The longest micro-batch decides the peak: its examples, in the first position.
    std::vector<std::size_t> order(data_.train.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return data_.train.lengths[a] > data_.train.lengths[b];
    });
    // With accumulation, two micro-batches: the first one's gradients are alive during the second.
    const std::size_t microBatches = (config_.accumulationSteps > 1 && microBatch_ < config_.stepExamples()) ? 2 : 1;
    order.resize(std::min(order.size(), microBatch_ * microBatches));
    const auto rng = getRngState(device_);
    monitor_.resetPeak();
    std::int64_t peak = 0;
    try {
        computeGradients(order);
        peak = monitor_.sample().peak;
    } catch (const c10::Error& error) {
        if (!isOutOfMemory(error)) {
            clearGradients();
            setRngState(device_, rng);
            throw;
        }
        peak = monitor_.cap().value_or(monitor_.sample().peak) + 1;  // it does not fit
    }
    clearGradients();
    setRngState(device_, rng);
    // The first optimizer step adds AdamW's two moments per trainable parameter; they stay.
    std::int64_t optimizerState = 0;
    if (optimizer_->state().empty()) {
        for (const auto& parameter : trainable_) {
            optimizerState += 2 * static_cast<std::int64_t>(parameter.nbytes());
        }
    }
    return peak + optimizerState;
}

std::size_t Trainer::totalWindowsInEpoch() const {
    return (data_.train.size() + config_.stepExamples() - 1) / config_.stepExamples();
}

MemoryBreakdown Trainer::forecast() const {
    std::size_t longest = 0;
    for (const auto length : data_.train.lengths) {
        longest = std::max(longest, length);
    }
    return forecastMemory(bundle_.config, config_, longest);
}

MemoryBreakdown Trainer::residentMemory() const {
    MemoryBreakdown memory;
    for (const auto& parameter : bundle_.model->parameters()) {
        memory.weights += static_cast<std::int64_t>(parameter.nbytes());
    }
    for (const auto& parameter : trainable_) {
        memory.gradients += static_cast<std::int64_t>(parameter.nbytes());
    }
    for (const auto& [key, state] : optimizer_->state()) {
        const auto& adam = static_cast<const torch::optim::AdamWParamState&>(*state);
        for (const auto* tensor : {&adam.exp_avg(), &adam.exp_avg_sq(), &adam.max_exp_avg_sq()}) {
            if (tensor->defined()) {
                memory.optimizerState += static_cast<std::int64_t>(tensor->nbytes());
            }
        }
    }
    return memory;
}

std::filesystem::path Trainer::saveCheckpoint(const std::string& kind, double metric) {
    if (checkpointFolder_.empty() || !config_.saveCheckpoints) {
        return {};
    }
    const auto folder = checkpointFolder_ / (kind == "best" ? std::string("best")
                                                            : "checkpoint-" + std::to_string(position_.step));
    observer_.beforeCheckpoint(position_.step);
    exportModelFolder(folder, *bundle_.model, bundle_.tokenizer);

    // Optimizer moments by parameter name, and the CPU random state.
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    nlohmann::json steps = nlohmann::json::object();
    for (const auto& item : bundle_.model->named_parameters()) {
        const auto it = optimizer_->state().find(item.value().unsafeGetTensorImpl());
        if (it == optimizer_->state().end()) {
            continue;
        }
        const auto& adam = static_cast<const torch::optim::AdamWParamState&>(*it->second);
        tensors.emplace_back(item.key() + ".exp_avg", adam.exp_avg());
        tensors.emplace_back(item.key() + ".exp_avg_sq", adam.exp_avg_sq());
        steps[item.key()] = adam.step();
    }
    tensors.emplace_back("rng.cpu", getRngState(c10::Device(c10::kCPU)));
    if (device_.is_cuda()) {
        tensors.emplace_back("rng.device", getRngState(device_));
    }
    writeSafeTensors(folder / kTrainingTensorsFile, tensors);
    const nlohmann::json state = {
        {"kind", kind},
        {"epoch", position_.epoch},
        {"window", position_.window},
        {"step", position_.step},
        {"micro_batch", microBatch_},
        {"eval_batch", evalBatch_},
        {"best_accuracy", bestAccuracy_},
        {"adam_steps", steps},
        {"loss_scale", scaler_ ? scaler_->scaleValue() : 0.0},
        {"growth_tracker", scaler_ ? scaler_->growthTracker() : 0},
        {"config", config_.toJson()},
        {"metric", metric},
    };
    writeFileAtomically(folder / kTrainerStateFile, state.dump(2) + "\n");
    if (kind != "best") {
        // Keep only the newest regular checkpoint (and best/): checkpoints are large.
        if (!lastCheckpoint_.empty() && lastCheckpoint_ != folder) {
            std::error_code ignored;
            std::filesystem::remove_all(lastCheckpoint_, ignored);
        }
        lastCheckpoint_ = folder;
    } else {
        bestCheckpoint_ = folder;
    }
    emit(EventKind::CheckpointSaved, kind + " checkpoint saved to " + folder.string(),
         {{"path", folder.string()}, {"kind", kind}, {"metric", metric}, {"step", position_.step}});
    return folder;
}

void Trainer::resumeFrom(const std::filesystem::path& checkpoint) {
    const auto stateFile = checkpoint / kTrainerStateFile;
    std::ifstream in(stateFile);
    if (!in) {
        throw InputError(stateFile, "is missing: this folder is not a BERT Studio checkpoint");
    }
    const auto state = nlohmann::json::parse(in, nullptr, false);
    if (state.is_discarded()) {
        throw InputError(stateFile, "is not valid JSON");
    }
    const auto weights = readSafeTensors(checkpoint / "model.safetensors");
    const auto training = readSafeTensors(checkpoint / kTrainingTensorsFile);
    const torch::NoGradGuard noGrad;
    for (auto& item : bundle_.model->named_parameters()) {
        const auto saved = weights.find(item.key());
        if (!saved.defined() || saved.sizes() != item.value().sizes()) {
            throw InputError(checkpoint / "model.safetensors",
                             "does not match this model (tensor \"" + item.key() + "\")");
        }
        item.value().copy_(saved);
        const auto expAvg = training.find(item.key() + ".exp_avg");
        if (expAvg.defined() && item.value().requires_grad()) {
            auto adam = std::make_unique<torch::optim::AdamWParamState>();
            adam->step(state["adam_steps"].value(item.key(), std::int64_t{0}));
            adam->exp_avg(expAvg.to(device_));
            adam->exp_avg_sq(training.find(item.key() + ".exp_avg_sq").to(device_));
            optimizer_->state()[item.value().unsafeGetTensorImpl()] = std::move(adam);
        }
    }
    if (const auto rng = training.find("rng.cpu"); rng.defined()) {
        setRngState(c10::Device(c10::kCPU), rng);
    }
    if (const auto rng = training.find("rng.device"); rng.defined() && device_.is_cuda()) {
        setRngState(device_, rng);
    }
    position_.epoch = state.value("epoch", std::size_t{0});
    position_.window = state.value("window", std::size_t{0});
    position_.step = state.value("step", std::size_t{0});
    microBatch_ = state.value("micro_batch", microBatch_);
    evalBatch_ = state.value("eval_batch", evalBatch_);
    bestAccuracy_ = state.value("best_accuracy", -1.0);
    if (scaler_) {
        scaler_->restore(state.value("loss_scale", DynamicLossScaler::kInitialScale),
                         state.value("growth_tracker", std::int64_t{0}));
    }
    lastCheckpoint_ = checkpoint;
}

RunResult Trainer::run(const std::atomic<bool>& cancel) {
    RunResult result;
    const auto started = Clock::now();
    std::int64_t runPeak = 0;
    MemoryBreakdown measured;
    try {
        RunStart start;
        start.device = deviceDescription(device_);
        start.trainExamples = data_.train.size();
        start.validationExamples = data_.validation.size();
        start.totalSteps = totalSteps_;
        start.labels = data_.labels.names;
        start.forecast = forecast();
        start.resumedFromStep = position_.step;
        if (position_.step == 0) {
            start.trialPeakBytes = trialStepPeak();
        }
        observer_.onStarted(start);
        if (start.trialPeakBytes > 0) {
            emit(EventKind::Info, "forecast peak " + std::to_string(start.forecast.total() >> 20) +
                                      " MiB; trial step on the longest batch " +
                                      std::to_string(start.trialPeakBytes >> 20) + " MiB",
                 {{"forecast", start.forecast.toJson()}, {"trial_peak", start.trialPeakBytes}});
        }

        const BatchOrder order = config_.groupByLength ? BatchOrder::LengthGrouped : BatchOrder::Random;
        bool stop = false;
        const std::size_t epochs = config_.epochs > 0 ? config_.epochs : SIZE_MAX;
        while (!stop && position_.epoch < epochs && position_.step < totalSteps_) {
            const auto windows = planEpoch(data_.train.lengths, config_.stepExamples(), order,
                                           config_.seed, position_.epoch);
            EpochSummary epoch;
            epoch.epoch = position_.epoch + 1;
            const auto epochStart = Clock::now();
            while (position_.window < windows.size()) {
                if (cancel.load()) {
                    saveCheckpoint("cancel", 0.0);
                    emit(EventKind::Cancelled, "stopped by the user at step " + std::to_string(position_.step));
                    result.status = RunStatus::Cancelled;
                    stop = true;
                    break;
                }
                const auto& window = windows[position_.window];
                auto metrics = runStep(window, windows.size());
                ++position_.window;
                runPeak = std::max(runPeak, metrics.memory.peak);
                if (position_.step == 1) {
                    measured = residentMemory();
                }
                epoch.realTokens += metrics.realTokens;
                epoch.paddedTokens += metrics.paddedTokens;
                observer_.onStep(metrics);
                if (config_.cacheRelease == CacheRelease::EveryNSteps &&
                    position_.step % config_.cacheReleaseSteps == 0) {
                    monitor_.releaseCache();
                }
                if (config_.evalEverySteps > 0 && position_.step % config_.evalEverySteps == 0 &&
                    position_.window < windows.size()) {
                    auto eval = evaluate();
                    eval.epoch = metrics.epoch;
                    observer_.onEvaluation(eval);
                }
                if (position_.step >= totalSteps_) {
                    break;
                }
            }
            if (stop) {
                break;
            }
            epoch.seconds = secondsSince(epochStart);
            observer_.onEpochEnd(epoch);
            auto eval = evaluate();
            eval.epoch = static_cast<double>(position_.epoch + 1);
            observer_.onEvaluation(eval);
            result.finalEval = eval;
            ++position_.epoch;
            position_.window = 0;
            if (eval.accuracy > bestAccuracy_) {
                bestAccuracy_ = eval.accuracy;
                result.bestEval = eval;
                saveCheckpoint("best", eval.accuracy);
            }
            saveCheckpoint("epoch", eval.accuracy);
        }
        if (result.status != RunStatus::Cancelled && result.finalEval.confusion.empty()) {
            // Stopped by max_steps inside an epoch: evaluate and keep the model all the same.
            result.finalEval = evaluate();
            result.finalEval.epoch = static_cast<double>(position_.epoch) +
                                     static_cast<double>(position_.window) /
                                         static_cast<double>(std::max<std::size_t>(1, totalWindowsInEpoch()));
            observer_.onEvaluation(result.finalEval);
            if (result.finalEval.accuracy > bestAccuracy_) {
                bestAccuracy_ = result.finalEval.accuracy;
                result.bestEval = result.finalEval;
                saveCheckpoint("best", result.finalEval.accuracy);
            }
            saveCheckpoint("final", result.finalEval.accuracy);
        }
    } catch (const OutOfMemoryFailure& failure) {
        result.status = RunStatus::Failed;
        result.error = failure.what();
    } catch (const InputError& error) {
        result.status = RunStatus::Failed;
        result.error = error.what();
    } catch (const c10::Error& error) {
        result.status = RunStatus::Failed;
        const std::string what = error.what_without_backtrace();
        result.error = (isOutOfMemory(error) ? "out of memory outside a training step: "
                                             : "LibTorch error: ") +
                       what.substr(0, what.find('\n'));
    } catch (const std::exception& error) {
        result.status = RunStatus::Failed;
        result.error = error.what();
    }
    if (result.status == RunStatus::Failed) {
        clearGradients();
        emit(EventKind::Error, result.error);
    }
    result.steps = position_.step;
    result.peakMemoryBytes = runPeak;
    measured.activations = std::max<std::int64_t>(
        0, runPeak - measured.weights - measured.gradients - measured.optimizerState);
    result.measured = measured;
    result.lastCheckpoint = lastCheckpoint_;
    result.bestCheckpoint = bestCheckpoint_;
    result.seconds = secondsSince(started);
    observer_.onFinished(result);
    return result;
}

}  // namespace bert
