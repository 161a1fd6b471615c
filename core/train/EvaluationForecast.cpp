#include "train/EvaluationForecast.h"

#include <algorithm>

#include "data/Batch.h"
#include "model/FamilyTraits.h"

namespace bert {

std::int64_t forecastEvaluationPeak(const EncoderConfig& model, const TrainingConfig& training,
                                    const ExampleLengths& lengths, std::size_t ranks) {
    constexpr std::int64_t kFloatBytes = 4;
    constexpr std::int64_t kAdamMoments = 2;
    ranks = std::max(ranks, static_cast<std::size_t>(std::max(1, training.processes)));
    const auto counts = countParameters(model);
    const std::int64_t layers = model.numHiddenLayers;
    std::int64_t trainable =
        counts.head + counts.perLayer * (layers - static_cast<std::int64_t>(training.freezeLayers));
    if (!training.freezeEmbeddings) {
        trainable += counts.embeddings;
    }
    std::int64_t optimizerState = trainable * kAdamMoments * kFloatBytes;
    if (training.shardOptimizer && ranks > 1) {
        const auto shares = static_cast<std::int64_t>(ranks);
        optimizerState = (optimizerState + shares - 1) / shares;
    }

    // The batch of the longest examples: evaluation sorts by length and pads each batch to its
    // own longest, whatever the training padding (unpadded stays unpadded).
    const bool cuda = training.device.rfind("cuda", 0) == 0;
    const auto longest =
        longestBatchShape(lengths, training.evalBatchSize, training, /*fixedPadding=*/false);
    const std::int64_t tokens = longest.tokens;
    const std::int64_t attentionPairs = longest.attentionPairs;
    const std::int64_t h = model.hiddenSize;
    const bool autocast = training.precision != Precision::Fp32;
    const std::int64_t e = autocast ? 2 : kFloatBytes;
    const auto shape =
        familyOf(model.modelType)
            .activations(model, ActivationContext{.autocast = autocast, .cuda = cuda});
    // Nothing is kept for backward: one layer's tensors are alive at a time, in attention or
    // in the feed-forward, each beside the layer's input; the family's table counts them.
    // On the CPU, the scores and their softmax, fp32, per head and query-key pair: the math
    // path forms them under autocast (measured: bf16 at batch 64 was 21% above the count
    // without); in fp32 the fused kernel forms fewer, and the count is then an upper bound
    // (up to 40% over for small models, tests/core/EvaluationForecastTest.cpp), kept so that a
    // run the forecast says fits does not run out of memory evaluating.
    const std::int64_t scoreMaps =
        cuda ? 0 : 2 * model.numAttentionHeads * attentionPairs * kFloatBytes;
    // MPNet: the layer's additive mask with its relative position bias, per head and pair, on
    // CUDA (the CPU's count of score maps above already holds it: MPNet measured +24% over
    // without it, +40% with it, tests/core/EvaluationForecastTest.cpp).
    const std::int64_t biasMask =
        cuda ? model.numAttentionHeads * attentionPairs * shape.attentionBiasBytes : 0;
    // DeBERTa: the layer's scores against its relative position table, before the gathers.
    const std::int64_t attention =
        tokens * (shape.evaluationAttentionBytesPerToken + shape.relativeScoreBytesPerToken) +
        scoreMaps + biasMask;
    const std::int64_t feedForward =
        tokens * h * kFloatBytes + tokens * shape.evaluationFeedForwardBytesPerToken;
    // Autocast caches a low-precision copy of every linear weight.
    const std::int64_t castCache = autocast ? shape.linearWeights * e : 0;
    return counts.total(layers) * kFloatBytes + optimizerState + castCache +
           std::max(attention, feedForward);
}

std::int64_t forecastRunPeak(const EncoderConfig& model, const TrainingConfig& training,
                             const ExampleLengths& lengths, std::size_t ranks) {
    // Like with like (budgetedBytes): on CUDA the reserved peak against a cap, the process's
    // total against the device; evaluation's tensors carry the same terms beyond the tensors as
    // a step's. On the CPU both are the tensors' peak.
    const auto step = forecastMemory(model, training, lengths, ranks);
    const auto budgeted = budgetedBytes(step, training);
    return std::max(budgeted, forecastEvaluationPeak(model, training, lengths, ranks) + budgeted -
                                  step.total());
}

std::size_t fittingEvaluationBatch(const EncoderConfig& model, const TrainingConfig& training,
                                   const ExampleLengths& lengths, std::int64_t budgetBytes) {
    TrainingConfig candidate = training;
    for (std::size_t size = std::max<std::size_t>(1, training.evalBatchSize); size >= 1;
         size /= 2) {
        candidate.evalBatchSize = size;
        if (forecastEvaluationPeak(model, candidate, lengths) <= budgetBytes) {
            return size;
        }
        if (size == 1) {
            break;
        }
    }
    return 0;
}

}  // namespace bert
