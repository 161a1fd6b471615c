#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memory/DeviceTraits.h"
#include "model/EncoderConfig.h"
#include "model/FamilyTraits.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"

namespace bert {

/// The training examples' token counts, as the forecast needs them: the peak comes with the
/// micro-batch of the longest examples, and unpadded batches hold only their real tokens.
class ExampleLengths {
public:
    /// Every example `longest` tokens long: what the forecast assumes without the data (or
    /// for padded batches, whose size depends on the longest alone). Implicit, so that a
    /// length is an ExampleLengths.
    ExampleLengths(std::size_t longest = 0);  // NOLINT(google-explicit-constructor)
    /// The lengths of a training set, in any order.
    static ExampleLengths of(std::vector<std::size_t> lengths);

    std::size_t longest() const;
    /// The count longest examples' lengths, each cut at maxLength, longest first: the
    /// micro-batch of the forecast's peak.
    std::vector<std::size_t> longestBatch(std::size_t count, std::size_t maxLength) const;

private:
    std::vector<std::size_t> descending_;  ///< empty: every example uniform_ tokens long
    std::size_t uniform_ = 0;
};

/// Parameter counts of the model's family's classifier (model/FamilyTraits.h).
ParameterCounts countParameters(const EncoderConfig& model);

/// Predicts training memory from the configuration before anything is allocated:
///  - weights: 4 bytes per parameter (fp32 master weights, also under mixed precision);
///  - gradients: 4 bytes per trainable parameter (frozen parts have none);
///  - optimizer state: AdamW's two moments, 8 bytes per trainable parameter;
///  - activations of the longest micro-batch (batchSize x padded length of the longest example,
///    or maxLength under fixed padding; unpadded, the real tokens of the batchSize longest
///    examples, with attention maps per group of packBatch): the tensors autograd keeps per
///    layer for backward,
///    counted one by one in MemoryForecast.cpp for LibTorch's CPU kernels (attention on the math
///    path, float dropout noise) and CUDA's (memory-efficient attention, bool dropout masks);
///    under gradient checkpointing each layer keeps only its input, plus one layer recomputed in
///    backward; frozen layers on a frozen input keep nothing; autocast adds its weight cache.
/// The peak (MemoryBreakdown::total) is weights + optimizer state + activations + the gradients
/// alive at that moment: all of them with accumulation, all but the embeddings' under
/// checkpointing, only the head's otherwise (the peak is then the start of backward).
/// On CUDA the breakdown adds what the tensors' peak does not hold (memory/CudaFootprint.h):
/// the allocator's overhead (reserved()) and what lies outside it (processTotal()).
/// Under data parallel the figures are per process (ranks of them, or training.processes when
/// more, each with batchSize examples per micro-batch); with shardOptimizer each keeps 1/ranks
/// of the optimizer state.
/// The longest batch of batchSize examples as the trainer lays it out: its tokens (every row
/// the linears compute) and attention query-key pairs per head. Unpadded batches attend in the
/// device's groups; padded ones to their own longest, or to max length with fixedPadding.
struct LongestBatchShape {
    std::int64_t tokens = 0;
    std::int64_t attentionPairs = 0;
};
LongestBatchShape longestBatchShape(const ExampleLengths& lengths, std::size_t batchSize,
                                    const TrainingConfig& training, bool fixedPadding);

MemoryBreakdown forecastMemory(const EncoderConfig& model, const TrainingConfig& training,
                               const ExampleLengths& lengths, std::size_t ranks = 1);

/// The forecast figure a budget for training limits: with a memory cap, which on CUDA acts on
/// what the caching allocator reserves, the reserved peak; without one, against the device's
/// memory, all the process takes from the device. On the CPU both are the tensors' peak.
std::int64_t budgetedBytes(const MemoryBreakdown& forecast, const TrainingConfig& training);

/// What would make a run fit a memory budget, and what it costs on the device.
struct FitAdvice {
    bool fits = false;
    /// "turn on gradient checkpointing (about 1.25x slower): forecast 290 MiB, about 1.3x
    /// slower in all"; empty when nothing fits.
    std::string description;
    TrainingConfig config;  ///< the configuration with the changes applied
    std::vector<std::string>
        changes;  ///< each change, with its own cost ("... (about 1.25x slower)")
    std::int64_t forecastBytes = 0;  ///< the forecast peak of config
    double timeFactor = 1.0;         ///< step time after / before, on the device (cost model below)
};

/// The change that makes a run fit budgetBytes while losing the least time on this device.
/// Every combination of unpadded batches, gradient checkpointing, bf16 or fp16 (where the device
/// runs them fast, or for bf16 on a CPU at its real cost), frozen embeddings, the fewest frozen
/// lowest layers that fit (up to all but the top one), a shorter max length and a smaller
/// micro-batch with more accumulation (the effective batch kept, every micro-batch
/// largestFittingBatch tries) is forecast; the fitting one with the smallest expected slowdown wins
/// (changes that alter what the model learns, freezing and truncation, count as slower than they
/// are), and then every change that saves no memory is dropped, so nothing costs time without
/// saving memory. Whatever else it changes, a plan whose evaluation does not fit halves the
/// evaluation batch until it does (a little slower evaluation; training unchanged). Budgets are
/// judged by forecastRunPeak. fits is false when even all of them together do not fit.
FitAdvice suggestFit(const EncoderConfig& model, const TrainingConfig& training,
                     const ExampleLengths& lengths, std::int64_t budgetBytes,
                     const DeviceTraits& device);

/// The largest micro-batch whose forecast fits budgetBytes, with the accumulation that keeps
/// the effective batch (micro-batch x accumulation) the user chose: candidates are the divisors
/// of the effective batch. The evaluation batch is lowered as suggestFit lowers it when the
/// evaluation would not fit, and each candidate is judged by forecastRunPeak as suggestFit's
/// are, so that a batch found here is one of suggestFit's candidates. Returns nothing when not
/// even a micro-batch of one fits.
std::optional<TrainingConfig> largestFittingBatch(const EncoderConfig& model,
                                                  const TrainingConfig& training,
                                                  const ExampleLengths& lengths,
                                                  std::int64_t budgetBytes);

/// Where the embeddings are most of the model (a large vocabulary: mmBERT's 256k pieces, XLM-R's
/// and mDeBERTa's 250k) and not frozen: what freezing them frees, the AdamW state and the
/// gradients of forecastMemory, named as a note ("the embeddings hold 197M of the model's 308M
/// parameters (64%): freezing them (--freeze-embeddings) frees their AdamW state (1500 MiB)
/// and gradients (750 MiB); may cost a little accuracy"). Empty otherwise: when they are frozen,
/// under half of the parameters, or their AdamW state under 512 MiB.
std::string largeEmbeddingNote(const EncoderConfig& model, const TrainingConfig& training);

/// The divisors of the effective batch, largest first: the micro-batches that keep it exactly.
std::vector<std::size_t> microBatchesKeeping(const TrainingConfig& training);

}  // namespace bert
