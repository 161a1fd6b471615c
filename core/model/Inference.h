#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <c10/core/Device.h>

#include "model/SequenceClassifier.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// Label probabilities (softmax of the logits) for each text, computed in eval mode without
/// gradients, in batches of batchSize; texts longer than maxLength tokens are truncated.
/// The model's training mode is restored afterwards. A LibTorch failure (out of memory
/// included) throws EngineError; a token head (no label per text) InputError.
std::vector<std::vector<float>> predictProbabilities(SequenceClassifier& model,
                                                     const Tokenizer& tokenizer,
                                                     const std::vector<std::string>& texts,
                                                     std::size_t maxLength, std::size_t batchSize,
                                                     c10::Device device);

}  // namespace bert
