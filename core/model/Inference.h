#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "model/SequenceClassifier.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// Each text's scores as the model's problem_type reads its outputs: label probabilities
/// (softmax) for single-label, a probability per label (sigmoid) for multi-label, the number
/// itself (as trained: standardised if the run standardised) for regression. Computed in eval
/// mode without gradients, in batches of batchSize; texts longer than maxLength tokens are
/// truncated.
/// With pairs (one second text per text; an empty one is no pair), each text and its second text
/// through the pair template, truncated longest first as transformers does.
/// The model's training mode is restored afterwards. A LibTorch failure (out of memory
/// included) throws EngineError; a token head (no label per text) InputError.
std::vector<std::vector<float>> predictProbabilities(
    SequenceClassifier& model, const Tokenizer& tokenizer, const std::vector<std::string>& texts,
    std::size_t maxLength, std::size_t batchSize, c10::Device device,
    const std::vector<std::string>& pairs = {}, double temperature = 1.0);

/// The model's logits for encodings, [encodings, outputs] in fp32 on the CPU, in eval mode
/// without gradients, batchSize at a time (long texts' windows: runs/TaskPrediction.cpp).
/// Throws as predictProbabilities does.
at::Tensor predictLogits(SequenceClassifier& model, const Tokenizer& tokenizer,
                         const std::vector<Encoding>& encodings, std::size_t batchSize,
                         c10::Device device);
/// What logits [rows, outputs] are for config's problem_type: softmax, sigmoid, or themselves;
/// a classifier's logits divided by temperature first (temperature scaling).
at::Tensor outputsOfLogits(const EncoderConfig& config, const at::Tensor& logits,
                           double temperature = 1.0);

/// Each sentence's tag id per word from a token head: its first sub-word's prediction, as
/// transformers' token-classification recipe reads it (tokenizer/WordEncoding.h); kIgnoredLabel
/// for a word past maxLength. InputError for a model with a sequence head.
std::vector<std::vector<std::int64_t>> predictWordLabels(
    SequenceClassifier& model, const Tokenizer& tokenizer,
    const std::vector<std::vector<std::string>>& sentences, std::size_t maxLength,
    std::size_t batchSize, c10::Device device);

}  // namespace bert
