#pragma once

// What a run learns to predict (issue 29). The kind decides what a dataset row becomes, the
// head (one output row per sequence or per token), the loss, the metrics and what a prediction
// is; task/Task.h is the interface each kind implements. No LibTorch here: the data import,
// the job files and the studio's forms use it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "task/TaskList.h"

namespace bert {

/// One enumerator per line of task/TaskList.h: SingleLabel (one label per text or pair: softmax
/// and cross-entropy), MultiLabel (any number of labels per text: a sigmoid per label, BCE),
/// Regression (a number per text: one output, mean squared error), TokenClassification (a tag
/// per word, NER: a softmax per token, cross-entropy). What each is lives in its folder.
enum class TaskKind {
#define BERT_STUDIO_TASK_ENUMERATOR(Kind, id) Kind,
    BERT_STUDIO_TASKS(BERT_STUDIO_TASK_ENUMERATOR)
#undef BERT_STUDIO_TASK_ENUMERATOR
};

/// The command line's and the job file's name: "single-label", "multi-label", "regression",
/// "token-classification".
std::string toString(TaskKind kind);
/// The kind of a name toString gives; nullopt for anything else.
std::optional<TaskKind> taskKindFromString(std::string_view name);
/// Every kind, in the order the studio lists them.
std::vector<TaskKind> allTaskKinds();

/// transformers' config.json problem_type of a sequence task ("single_label_classification",
/// "multi_label_classification", "regression"); empty for token classification, which has none.
std::string problemTypeOf(TaskKind kind);
/// Whether the head gives logits for every token (token classification) or one row per
/// sequence.
bool isPerToken(TaskKind kind);

/// How a run's data is read for its task, beside which columns hold the text (ColumnSpec).
struct TaskSpec {
    TaskKind kind = TaskKind::SingleLabel;
    /// Multi-label, one label column: what separates the labels in a cell; empty: guessed from
    /// the cells (";" or "|").
    std::string labelSeparator;
    /// Multi-label: one 0/1 column per label instead of one label column; empty: the label
    /// column.
    std::vector<std::string> labelColumns;
    /// Regression: train on standardised targets (zero mean, unit variance over the training
    /// set), undone at prediction. On by default, on the command line as in the studio.
    bool standardizeTargets = true;
    /// Multi-label: the probability from which a label is predicted; none: tuned on validation
    /// (the evaluations report their figures at 0.5 beside the tuned threshold).
    std::optional<double> threshold;
};

}  // namespace bert
