// The optimizer step and the figures it leaves on the device (issue 24, point 3): unscaling,
// clipping and the skip decided on the device, read back in one go when a step is logged
// (train/HostReads.h). Split from Trainer.cpp, which holds the loop around it.
#include <algorithm>
#include <chrono>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "data/HostReads.h"
#include "distributed/Collective.h"
#include "train/FusedAdamW.h"
#include "train/MixedPrecision.h"
#include "train/Trainer.h"

namespace bert {

void Trainer::stepOptimizer(const at::Tensor& lossSum) {
    // Everything here stays on the device; readLoggedSteps reads it when a step is logged.
    const auto onDevice = at::TensorOptions().dtype(at::kFloat).device(device_);
    at::Tensor scalerFound;  // fp16: the unscaled gradients held inf or NaN
    at::Tensor skip;         // 0 or 1: the optimizer skips this step on the device
    if (scaler_) {
        figures_.scaleUsed = scaler_->scaleTensor().reshape({}).clone();
        scalerFound = scaler_->unscale(trainable_);  // unscale before clipping
        skip = scalerFound;
    }
    at::Tensor gradNorm = at::zeros({}, onDevice);
    if (config_.maxGradNorm > 0.0) {
        // Clipping as clip_grad_norm_ does (torch/nn/utils/clip_grad.py: the norm and
        // clip_coef = max_norm / (norm + 1e-6), clamped to 1, stay tensors on the device), with
        // the factor applied inside the optimizer's kernel (its grad_scale) instead of a pass
        // scaling every gradient (bench_optimizer, MiniLM: clip then step 24.2 ms, folded
        // 23.2 ms; the norm is 9.6). The divisor is computed in double as the host computed
        // it before (1 / (max / (norm + 1e-6))), so the steps are the same bit for bit.
        const auto norm = gradientNorm(trainable_).to(device_);
        const auto factor = config_.maxGradNorm / (norm.to(at::kDouble) + 1e-6);
        optimizer_->divideNextGradientsBy(
            at::where(factor < 1.0, factor.reciprocal(), at::ones_like(factor)).to(at::kFloat));
        // A norm that is not finite skips the step, as found_inf does under fp16.
        const auto nonFinite = at::logical_not(at::isfinite(norm)).to(at::kFloat);
        skip = skip.defined() ? at::maximum(skip, nonFinite) : nonFinite;
        // The norm is not computed (reported 0) on a step the loss scaler skips.
        gradNorm =
            scalerFound.defined() ? at::where(scalerFound > 0, at::zeros_like(norm), norm) : norm;
    }
    if (skip.defined()) {
        optimizer_->skipNextStepIf(skip);
    }
    optimizer_->step();
    if (!owners_.empty()) {
        // Each rank updated its share of the weights; every rank takes the others' shares (a
        // skipped step broadcasts weights that did not change).
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
    if (scaler_) {
        scaler_->update();
    }
    // The figures of the steps since the last logged one, on the device.
    const auto stepSkipped = skip.defined() ? skip : at::zeros({}, onDevice);
    const auto finite = at::isfinite(lossSum).to(at::kFloat);
    if (!figures_.lossSum.defined()) {
        figures_.lossSum = at::zeros({}, onDevice.dtype(at::kDouble));
        figures_.skippedSteps = at::zeros({}, onDevice);
        figures_.nonFiniteRun = at::zeros({}, onDevice);
    }
    figures_.lossSum.add_(lossSum);
    figures_.skippedSteps.add_(stepSkipped);
    figures_.nonFiniteRun.add_(1.0).mul_(1.0 - finite);  // steps in a row with a non-finite loss
    figures_.gradNorm = gradNorm;
    figures_.lastSkipped = stepSkipped;
    figures_.scalerSkipped = scalerFound;
}

void Trainer::stageLoggedSteps() {
    // One read for every figure of the steps since the last logged one (train/HostReads.h),
    // started here and finished by finishLoggedSteps (at once, or when the next step is queued).
    const auto zero = at::zeros({}, figures_.lossSum.options());
    const auto asDouble = [&](const at::Tensor& t) {
        return t.defined() ? t.to(at::kDouble).reshape({}) : zero;
    };
    StagedSteps staged;
    staged.values =
        StagedRead(at::stack({figures_.lossSum, asDouble(figures_.gradNorm),
                              asDouble(figures_.skippedSteps), asDouble(figures_.lastSkipped),
                              asDouble(figures_.nonFiniteRun), asDouble(figures_.scaleUsed),
                              scaler_ ? asDouble(scaler_->scaleTensor().reshape({})) : zero}));
    // Queued after the copy on the same stream: the copy reads the sums first.
    figures_.lossSum.zero_();
    figures_.skippedSteps.zero_();

    // What the host knows now: the position, the memory (the peak of these steps, before the
    // next step resets it) and the tokens.
    auto& metrics = staged.metrics;
    metrics.step = position_.step;
    metrics.epoch = static_cast<double>(position_.epoch) +
                    static_cast<double>(position_.window + 1) /
                        static_cast<double>(std::max<std::size_t>(1, pending_.epochWindows));
    metrics.learningRate = pending_.learningRate;
    metrics.memory = monitor_.sample();
    if (collective_ != nullptr) {
        const auto ranks = collective_->allGather(std::vector<std::int64_t>{
            metrics.memory.current, metrics.memory.peak, metrics.memory.reserved});
        for (const auto& rank : ranks) {
            metrics.rankMemory.push_back({rank[0], rank[1], rank[2]});
        }
    }
    metrics.examples = pending_.examples;
    metrics.paddingShare =
        pending_.paddedTokens > 0 ? 1.0 - pending_.realTokens / pending_.paddedTokens : 0.0;
    metrics.realTokens = static_cast<std::int64_t>(pending_.realTokens);
    metrics.paddedTokens = static_cast<std::int64_t>(pending_.paddedTokens);
    metrics.microBatch = microBatch_;
    metrics.accumulation = pending_.accumulation;
    staged.steps = pending_;
    pending_ = {};
    staged_ = std::move(staged);
}

StepMetrics Trainer::finishLoggedSteps() {
    auto staged = std::move(*staged_);
    staged_.reset();
    const auto values = staged.values.finish();
    const auto readAt = std::chrono::steady_clock::now();
    const double intervalLoss = values[0];
    const double gradNorm = values[1];
    const auto skippedSteps = static_cast<std::size_t>(values[2]);
    const bool lastSkipped = values[3] > 0.0;
    nonFiniteRun_ = static_cast<std::size_t>(values[4]);
    const double scaleUsed = values[5];
    const auto& steps = staged.steps;

    if (skippedSteps > 0) {
        emit(EventKind::StepSkipped,
             (steps.steps == 1
                  ? std::string("non-finite gradients: optimizer step skipped")
                  : std::to_string(skippedSteps) + " of the last " + std::to_string(steps.steps) +
                        " steps had non-finite gradients: their optimizer steps were skipped") +
                 std::string(scaler_ ? ", loss scale backed off" : ""),
             {{"loss_scale", scaler_ ? scaleUsed : 0.0}, {"skipped_steps", skippedSteps}});
    }
    StepMetrics metrics = std::move(staged.metrics);
    metrics.loss = intervalLoss / std::max(1.0, steps.lossUnits);
    metrics.gradNorm = gradNorm;
    metrics.lossScale = scaler_ ? values[6] : 0.0;
    metrics.skipped = steps.steps == 1 ? lastSkipped : skippedSteps > 0;
    // From the first step's start to the end of this read: on a GPU the read is where the host
    // meets the device, so the time is the device's. Evaluations and checkpoints happen between
    // a read and the next step, so they are not counted.
    const double seconds =
        std::max(1e-9, std::chrono::duration<double>(readAt - steps.started).count());
    metrics.samplesPerSecond = static_cast<double>(steps.examples) / seconds;
    metrics.tokensPerSecond = steps.realTokens / seconds;
    if (pending_.steps > 0) {
        // Read one step late: the next steps were queued before this read ended, and the device
        // began them only when these were done. Their time runs from read to read.
        pending_.started = std::max(pending_.started, readAt);
    }
    return metrics;
}

StepMetrics Trainer::readLoggedSteps() {
    stageLoggedSteps();
    return finishLoggedSteps();
}

std::vector<StepMetrics> Trainer::readUnreportedSteps() {
    std::vector<StepMetrics> steps;
    if (staged_) {
        steps.push_back(finishLoggedSteps());
    }
    if (pending_.steps > 0) {
        steps.push_back(readLoggedSteps());
    }
    return steps;
}

}  // namespace bert
