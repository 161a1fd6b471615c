#pragma once

// What the trainer tests (CPU and CUDA) share: an observer that keeps every report, and the
// gradients of a model to compare.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "hf/ModelFolder.h"
#include "train/Trainer.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"

namespace bert::test {

// The tiny task's settings: micro-batch 8, 64 tokens, no warmup, no checkpoints, on the CPU
// (a CUDA test sets device).
inline TrainingConfig smallConfig() {
    TrainingConfig config;
    config.batchSize = 8;
    config.evalBatchSize = 16;
    config.maxLength = 64;
    config.learningRate = 1e-3;
    config.warmupRatio = 0.0;
    config.saveCheckpoints = false;
    return config;
}

// Collects what the trainer reports.
struct Recorder : TrainerObserver {
    std::vector<StepMetrics> steps;
    std::vector<EvalMetrics> evaluations;
    std::vector<TrainerEvent> events;
    std::vector<EpochSummary> epochs;
    RunStart start;
    void onStarted(const RunStart& s) override { start = s; }
    void onStep(const StepMetrics& m) override { steps.push_back(m); }
    void onEvaluation(const EvalMetrics& m) override { evaluations.push_back(m); }
    void onEpochEnd(const EpochSummary& e) override { epochs.push_back(e); }
    void onEvent(const TrainerEvent& e) override { events.push_back(e); }
    std::size_t count(EventKind kind) const {
        return static_cast<std::size_t>(std::count_if(
            events.begin(), events.end(), [&](const auto& e) { return e.kind == kind; }));
    }
};

/// The trial step's measured peak of a fresh model (makeBundle()) at micro-batch batch: what the
/// memory-cap tests measure at two batches to place a cap between them.
template <typename MakeBundle>
std::int64_t trialPeakAtBatch(MakeBundle&& makeBundle, const TrainingData& data,
                              TrainingConfig config, std::size_t batch) {
    Recorder recorder;
    auto bundle = makeBundle();
    config.batchSize = batch;
    Trainer trainer(bundle, data, config, recorder);
    return trainer.trialStepPeak();
}

inline std::map<std::string, at::Tensor> gradients(const ModelBundle& bundle) {
    std::map<std::string, at::Tensor> grads;
    for (const auto& item : bundle.model->named_parameters()) {
        if (item.value().grad().defined()) {
            grads[item.key()] = item.value().grad().to(at::kCPU).clone();
        }
    }
    return grads;
}

inline double maxGradientDifference(const std::map<std::string, at::Tensor>& a,
                                    const std::map<std::string, at::Tensor>& b) {
    EXPECT_EQ(a.size(), b.size());
    double worst = 0.0;
    for (const auto& [name, grad] : a) {
        const auto it = b.find(name);
        if (it == b.end()) {
            ADD_FAILURE() << "no gradient for " << name;
            continue;
        }
        worst = std::max(worst, (grad - it->second).abs().max().item<double>());
    }
    return worst;
}

}  // namespace bert::test
