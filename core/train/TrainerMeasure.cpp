#include <algorithm>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "data/Batch.h"
#include "data/HostReads.h"
#include "distributed/Collective.h"
#include "task/DocumentPooling.h"
#include "train/MemoryForecast.h"
#include "train/Metrics.h"
#include "train/RandomState.h"
#include "train/TestHooks.h"
#include "train/Trainer.h"

// The Trainer's measurements: evaluation on the validation set, the trial step, and the memory
// it forecasts and holds. The set-up, the steps, checkpoints and the loop are in Trainer.cpp.

namespace bert {

EvalMetrics Trainer::evaluate() {
    auto& net = *bundle_.model;
    net.eval();
    const torch::NoGradGuard noGrad;
    // Sorted by length so each batch pads little; evaluation order does not change the metrics.
    // Windows of long texts stay in their documents' order instead: each document's windows
    // next to each other, pooled into it (task/DocumentPooling.h).
    const auto& documentOf = data_.validation.documents;
    const bool windows = !documentOf.empty();
    std::vector<std::size_t> order(data_.validation.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    if (!windows) {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return data_.validation.lengths[a] < data_.validation.lengths[b];
        });
    }
    // The loss and the task's figures add up on the device, read once at the end (not per
    // batch): data/HostReads.h. Under data parallel each rank evaluates its contiguous share of
    // the order; the figures are summed below.
    const auto onDevice = at::TensorOptions().dtype(at::kDouble).device(device_);
    auto lossOnDevice = at::zeros({1}, onDevice);
    std::unique_ptr<TaskEvaluation> evaluation;
    if (windows) {
        const auto& documents = data_.validationDocuments;
        std::vector<std::size_t> documentOrder(documents.size());
        for (std::size_t d = 0; d < documentOrder.size(); ++d) {
            documentOrder[d] = d;
        }
        evaluation =
            poolWindows(objective_->startEvaluation(documents, documentOrder, device_), documentOf,
                        effectivePooling(data_.longText.pooling, data_.task), device_, *objective_);
    } else {
        evaluation = objective_->startEvaluation(data_.validation, order, device_);
    }
    std::size_t start = 0;
    std::size_t stop = order.size();
    if (collective_ != nullptr) {
        const auto ranks = static_cast<std::size_t>(collective_->size());
        const auto rank = static_cast<std::size_t>(collective_->rank());
        start = order.size() * rank / ranks;
        stop = order.size() * (rank + 1) / ranks;
        // Whole documents on each rank: a share starts at the first window of a document.
        auto atDocument = [&](std::size_t position) {
            while (windows && position > 0 && position < order.size() &&
                   documentOf[position] == documentOf[position - 1]) {
                ++position;
            }
            return position;
        };
        start = atDocument(start);
        stop = atDocument(stop);
    }
    std::size_t batchesDone = 0;
    auto reportProgress = [&] {
        observer_.onEvaluationProgress(batchesDone,
                                       batchesDone + (stop - start + evalBatch_ - 1) / evalBatch_);
    };
    reportProgress();
    while (start < stop) {
        const std::size_t end = std::min(stop, start + evalBatch_);
        try {
            const std::vector<std::size_t> examples(
                order.begin() + static_cast<std::ptrdiff_t>(start),
                order.begin() + static_cast<std::ptrdiff_t>(end));
            std::vector<const Encoding*> batch;
            for (const auto example : examples) {
                batch.push_back(&data_.validation.encodings[example]);
            }
            const auto inputs = makeBatch(batch, /*training=*/false);
            at::Tensor logits;
            {
                const AutocastGuard autocast(device_.type(), config_.precision != Precision::Fp32,
                                             autocastDtype(config_.precision));
                logits = logitsOf(data_.validation, validationPrefix_.get(), examples, inputs)
                             .to(at::kFloat);
            }
            const auto target = objective_->targets(data_.validation, examples, inputs, device_);
            const auto loss = objective_->lossSum(logits, target).to(at::kDouble);
            test_hooks::injectEvaluationOutOfMemory(examples.size());
            evaluation->add(logits, target, start);
            // Last, after every allocation of the batch: a batch that runs out of memory is
            // evaluated again in halves, and its loss must not count twice.
            lossOnDevice.add_(loss);
            start = end;
            ++batchesDone;
            reportProgress();
        } catch (const c10::Error& error) {
            if (!isOutOfMemory(error) || evalBatch_ == 1) {
                enterTrainingMode();
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
    enterTrainingMode();
    // One read: the loss, then the task's figures.
    auto figures = readValues(at::cat({lossOnDevice, evaluation->figures()}));
    if (config_.cacheRelease == CacheRelease::AfterEval) {
        monitor_.releaseCache();
    }
    if (collective_ != nullptr) {
        figures = collective_->sumNumbers(std::move(figures));  // the whole validation set's
    }
    const double lossSum = figures.front();
    figures.erase(figures.begin());
    auto scores = evaluation->finish(figures);
    EvalMetrics metrics;
    metrics.step = position_.step;
    // Windows of long texts: the documents' loss (their pooled logits'), as every other figure.
    metrics.loss =
        scores.loss.value_or(lossSum / std::max(1.0, objective_->units(data_.validation, order)));
    metrics.accuracy = scores.accuracy;
    metrics.macroF1 = scores.macroF1;
    metrics.confusion = std::move(scores.confusion);
    metrics.task = std::move(scores.report);
    metrics.calibration = std::move(scores.calibration);
    if (!scores.examples.empty()) {
        // Each document's source when windows were scored as their documents.
        auto examples =
            keepWorst(std::move(scores.examples),
                      windows ? data_.validationDocuments.sources : data_.validation.sources);
        examples.step = position_.step;
        metrics.examples = std::make_shared<const EvaluationExamples>(std::move(examples));
    }
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
    // One micro-batch, whatever the accumulation: the step's peak comes inside a micro-batch.
    // With accumulation the earlier micro-batches' gradients are alive during a later one's
    // backward, so they are made here (zeros, as big as what backward would leave) instead of
    // computed: the peak of the step at 1/accumulation of its cost (once 2 micro-batches).
    order.resize(std::min(order.size(), microBatch_));
    const bool accumulating = config_.accumulationSteps > 1 && microBatch_ < config_.stepExamples();
    const auto rng = getRngState(device_);
    std::int64_t peak = 0;
    lastTrialOutOfMemory_ = false;
    try {
        if (accumulating) {
            const torch::NoGradGuard noGrad;
            for (auto& parameter : trainable_) {
                parameter.mutable_grad() = at::zeros_like(parameter);
            }
        }
        monitor_.resetPeak();
        lastTrialExamples_ = order.size();
        computeGradients(order);
        peak = monitor_.sample().peak;
    } catch (const c10::Error& error) {
        if (!isOutOfMemory(error)) {
            clearGradients();
            setRngState(device_, rng);
            throw;
        }
        // It does not fit, whatever it reached: without a cap the figure is the allocated peak
        // at the failure, below the device's total, and a caller comparing figures alone took
        // it for a fit (issue 24, point 4).
        lastTrialOutOfMemory_ = true;
        peak = monitor_.sample().peak;
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

MemoryBreakdown Trainer::forecast() const {
    return forecastMemory(
        bundle_.config, config_, ExampleLengths::of(data_.train.lengths),
        collective_ != nullptr ? static_cast<std::size_t>(collective_->size()) : 1);
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

}  // namespace bert
