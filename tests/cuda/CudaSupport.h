#pragma once

// What the CUDA tests share (tests/cuda/*.cpp).

#include <cstddef>
#include <cstdint>

#include "../core/TrainerProbes.h"
#include "memory/MemoryMonitor.h"
#include "train/Trainer.h"

namespace bert::test {

/// The trial step's peak of config at micro-batch `batch`, on a fresh bundle from makeBundle;
/// the allocator's cache is released afterwards so the next measurement starts empty. Tests
/// that need an out-of-memory put a cap between two of these.
template <typename MakeBundle>
std::int64_t cudaTrialPeak(const TrainingData& data, TrainingConfig config, std::size_t batch,
                           MakeBundle&& makeBundle) {
    Recorder recorder;
    auto bundle = makeBundle();
    config.batchSize = batch;
    Trainer trainer(bundle, data, config, recorder);
    const auto peak = trainer.trialStepPeak();
    MemoryMonitor(c10::Device(config.device)).releaseCache();
    return peak;
}

}  // namespace bert::test
