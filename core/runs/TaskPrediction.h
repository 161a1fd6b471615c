#pragma once

// The model run over texts for a prediction per text (task/TextPrediction.h), decided by the
// run's task (task/Task.h): what `bert-studio-cli predict` prints and writes and what the
// studio's Try it shows, computed once here so that the two never disagree.

#include <cstddef>
#include <string>
#include <vector>

#include <c10/core/Device.h>

#include "model/SequenceClassifier.h"
#include "runs/RunTask.h"
#include "task/TextPrediction.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// Predicts texts with model as settings' task reads it: the run's (or folder's) threshold for
/// multi-label, its target scaling undone for regression, the tag scheme of the model's labels
/// (IOBES when one begins with E- or S-, else BIO) for token classification. In batches of
/// batchSize, texts cut at maxLength tokens, on device. pairs: each text's second text, for a
/// model trained on pairs (sequence tasks; a text's long-text strategy does not apply to pairs).
/// Throws what model/Inference.h's predictions throw (InputError for a head that does not fit the
/// task, EngineError from LibTorch).
std::vector<TextPrediction> predictTexts(const TaskSettings& settings, SequenceClassifier& model,
                                         const Tokenizer& tokenizer,
                                         const std::vector<std::string>& texts,
                                         std::size_t maxLength, std::size_t batchSize,
                                         c10::Device device,
                                         const std::vector<std::string>& pairs = {});

}  // namespace bert
