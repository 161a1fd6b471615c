#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "model/BertConfig.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"

namespace bert {

/// Parameter counts of a BERT classifier, from its configuration alone.
struct ParameterCounts {
    std::int64_t embeddings = 0;
    std::int64_t perLayer = 0;
    std::int64_t head = 0;  ///< pooler + classifier
    std::int64_t total(std::int64_t layers) const { return embeddings + perLayer * layers + head; }
};
ParameterCounts countParameters(const BertConfig& model);

/// Predicts training memory from the configuration before anything is allocated:
///  - weights: 4 bytes per parameter (fp32 master weights, also under mixed precision);
///  - gradients: 4 bytes per trainable parameter (frozen parts have none);
///  - optimizer state: AdamW's two moments, 8 bytes per trainable parameter;
///  - activations of the longest micro-batch (batchSize x padded length of the longest example,
///    or maxLength under fixed padding): the tensors autograd keeps per layer for backward,
///    counted one by one in MemoryForecast.cpp for LibTorch's CPU kernels (attention on the math
///    path, float dropout noise) and CUDA's (memory-efficient attention, bool dropout masks);
///    under gradient checkpointing each layer keeps only its input, plus one layer recomputed in
///    backward; frozen layers on a frozen input keep nothing; autocast adds its weight cache.
/// The peak (MemoryBreakdown::total) is weights + optimizer state + activations + the gradients
/// alive at that moment: all of them with accumulation, all but the embeddings' under
/// checkpointing, only the head's otherwise (the peak is then the start of backward).
MemoryBreakdown forecastMemory(const BertConfig& model, const TrainingConfig& training,
                               std::size_t longestExample);

/// What would make a run fit a memory budget.
struct FitAdvice {
    bool fits = false;
    std::string description;  ///< "turn on gradient checkpointing (forecast 3.1 GiB)"
    TrainingConfig config;    ///< the configuration with the change applied
};

/// The cheapest change (in speed and accuracy) whose forecast fits budgetBytes: dynamic
/// padding, gradient checkpointing, bf16, a smaller micro-batch with more accumulation (the
/// effective batch kept), frozen embeddings, a shorter max length; then all of these together.
/// fits is false when even that does not fit.
FitAdvice suggestFit(const BertConfig& model, const TrainingConfig& training, std::size_t longestExample,
                     std::int64_t budgetBytes);

}  // namespace bert
