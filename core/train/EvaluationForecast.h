#pragma once

#include <cstddef>
#include <cstdint>

#include "train/MemoryForecast.h"

// What evaluation adds to the memory forecast (issue 27): a run whose training steps fit can
// run out of memory in every evaluation. Kept apart from MemoryForecast.cpp, which forecasts a
// training step; suggestFit and largestFittingBatch judge budgets by forecastRunPeak.

namespace bert {

/// The process's peak while it evaluates (issue 27: a run the forecast said fits ran out of
/// memory in every evaluation). Evaluation runs forward only, without gradients, in batches of
/// training.evalBatchSize of the validation examples sorted by length, each padded to its own
/// longest (or unpadded, as training): the peak is the weights, the optimizer state (it stays
/// between steps), autocast's weight copies, and the largest set of one layer's tensors alive
/// at once in the batch of the longest examples: attention's input, query, key, value and
/// output (the fused kernels form no score maps without gradients and dropout), or the
/// feed-forward's intermediate activations, as the family's table counts them
/// (ActivationShape in model/FamilyTraits.h). Per process under data parallel.
std::int64_t forecastEvaluationPeak(const EncoderConfig& model, const TrainingConfig& training,
                                    const ExampleLengths& lengths, std::size_t ranks = 1);

/// The run's peak: the larger of a training step's (forecastMemory(...).total()) and an
/// evaluation's (forecastEvaluationPeak). What "fits" is judged by.
std::int64_t forecastRunPeak(const EncoderConfig& model, const TrainingConfig& training,
                             const ExampleLengths& lengths, std::size_t ranks = 1);

/// The evaluation batch to use under budgetBytes: training.evalBatchSize when its evaluation
/// fits, else the largest of its halvings that does; 0 when not even one example fits.
std::size_t fittingEvaluationBatch(const EncoderConfig& model, const TrainingConfig& training,
                                   const ExampleLengths& lengths, std::int64_t budgetBytes);

}  // namespace bert
