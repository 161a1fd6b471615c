#pragma once

// One text's prediction as its task reads the model's outputs: what `bert-studio-cli predict`
// prints and writes and what the studio's Try it shows (runs/TaskPrediction.h runs the model;
// each task decides and formats, task/Task.h).

#include <cstddef>
#include <optional>
#include <vector>

#include "data/TaggedReader.h"
#include "task/token/EntityText.h"

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

    /// A text longer than the max length that the run reads in windows (data/LongText.h): how
    /// many windows (1 for any other text), and the window whose own scores gave the answer
    /// its highest score (Task::answerOutput): its index, from 0, and the text tokens it holds,
    /// [firstToken, endToken) of the text's tokens without the template. None when the text is
    /// one window or the answer rests on no one output (regression, no label chosen).
    struct Window {
        std::size_t index = 0;
        std::size_t firstToken = 0;
        std::size_t endToken = 0;
    };
    std::size_t windows = 1;
    std::optional<Window> decidingWindow;
};

}  // namespace bert
