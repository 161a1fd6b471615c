#include "train/TrainingConfig.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "Error.h"

namespace bert {

// toJson, fromJson, techniquesSummary and the enums' names are built from the option table:
// train/TrainingOptions.cpp. Here: the rules that span several options.

void TrainingConfig::validate() const {
    auto fail = [](const std::string& problem) {
        throw InputError("training settings: " + problem);
    };
    if (batchSize == 0 || accumulationSteps == 0 || evalBatchSize == 0) {
        fail("batch size, accumulation steps and evaluation batch size must be at least 1");
    }
    if (maxLength < 8) {
        fail("max length must be at least 8 tokens");
    }
    if (padToMultipleOf == 0) {
        fail("pad to multiple of must be at least 1");
    }
    if (epochs == 0 && maxSteps == 0) {
        fail("train for at least one epoch or one step");
    }
    if (!(learningRate > 0.0)) {
        fail("the learning rate must be positive");
    }
    if (weightDecay < 0.0 || maxGradNorm < 0.0) {
        fail("weight decay and max gradient norm cannot be negative");
    }
    if (!(warmupRatio >= 0.0 && warmupRatio < 1.0)) {
        fail("the warmup ratio must lie in [0, 1)");
    }
    if (!(validationFraction > 0.0 && validationFraction < 1.0)) {
        fail("the validation fraction must lie between 0 and 1");
    }
    if (cacheRelease == CacheRelease::EveryNSteps && cacheReleaseSteps == 0) {
        fail("cache release every N steps needs N of at least 1");
    }
    if (memoryCapBytes && *memoryCapBytes <= 0) {
        fail("the memory cap must be positive");
    }
    if (threads < 0) {
        fail("the number of threads cannot be negative");
    }
    if (cacheFrozenPrefix && !freezeEmbeddings) {
        fail(
            "the frozen-prefix cache needs frozen embeddings: while they train, what the layers "
            "above them compute changes every step, and a cached output would be stale; freeze "
            "the embeddings or turn the cache off");
    }
    const bool cuda =
        device == "cuda" || (device.rfind("cuda:", 0) == 0 && device.size() > 5 &&
                             device.find_first_not_of("0123456789", 5) == std::string::npos);
    if (device != "cpu" && !cuda) {
        fail("device \"" + device + "\" is neither cpu nor cuda:N");
    }
}

double scheduledLearningRate(const TrainingConfig& config, std::size_t step,
                             std::size_t totalSteps) {
    const auto warmup =
        static_cast<std::size_t>(std::ceil(config.warmupRatio * static_cast<double>(totalSteps)));
    const double s = static_cast<double>(step);
    if (step < warmup) {
        return config.learningRate * s / static_cast<double>(std::max<std::size_t>(1, warmup));
    }
    const double span =
        static_cast<double>(std::max<std::size_t>(1, totalSteps - std::min(totalSteps, warmup)));
    const double progress = (s - static_cast<double>(warmup)) / span;
    switch (config.lrSchedule) {
        case LrSchedule::Constant:
            return config.learningRate;
        case LrSchedule::Cosine:
            return config.learningRate *
                   std::max(0.0, 0.5 * (1.0 + std::cos(std::numbers::pi * progress)));
        case LrSchedule::Linear:
            break;
    }
    return config.learningRate * std::max(0.0, (static_cast<double>(totalSteps) - s) / span);
}

}  // namespace bert
