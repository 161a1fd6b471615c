#pragma once

// One prediction per text as its task reads the model's outputs (issue 29): what
// `bert-studio-cli predict` prints and writes and what the studio's Try it shows, computed once
// here so that the two never disagree.

#include <cstddef>
#include <string>
#include <vector>

#include <c10/core/Device.h>

#include "data/TaggedReader.h"
#include "model/SequenceClassifier.h"
#include "runs/RunTask.h"
#include "task/token/EntityText.h"
#include "tokenizer/Tokenizer.h"

namespace bert {

/// A text's prediction; which fields are filled depends on the task.
struct TextPrediction {
    /// Single- and multi-label: a probability per label (softmax, or a sigmoid per label), in
    /// the model's label order. Regression: the model's one output as trained (standardised when
    /// the run standardised its target).
    std::vector<double> scores;
    /// Single-label: the most likely label's index. Multi-label: the indices of the labels whose
    /// probability is at or above the threshold, in label order.
    std::vector<std::size_t> chosen;
    double value = 0.0;  ///< regression: the number in the target's units (scaling undone)
    /// Token classification: the text's words (task/token/TextWords.h) with their predicted tags
    /// ("O" for a word past the max length).
    TaggedSentence words;
    /// Token classification: the entities of those tags, placed in the text as typed.
    std::vector<TextEntity> entities;
};

/// Predicts texts with model as settings' task reads it: the run's (or folder's) threshold for
/// multi-label, its target scaling undone for regression, the tag scheme of the model's labels
/// (IOBES when one begins with E- or S-, else BIO) for token classification. In batches of
/// batchSize, texts cut at maxLength tokens, on device. Throws what model/Inference.h's
/// predictions throw (InputError for a head that does not fit the task, EngineError from
/// LibTorch).
std::vector<TextPrediction> predictTexts(const TaskSettings& settings, SequenceClassifier& model,
                                         const Tokenizer& tokenizer,
                                         const std::vector<std::string>& texts,
                                         std::size_t maxLength, std::size_t batchSize,
                                         c10::Device device);

}  // namespace bert
