#pragma once

// The LibTorch side of a task (issue 29): what the trainer asks of a task, so that it holds no
// switch per task. Each kind implements it in its folder (task/<kind>/); makeTaskObjective picks
// one from the run's data. The head itself belongs to the model (model/SequenceClassifier.h:
// per sequence or per token, from the model's config).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <nlohmann/json.hpp>

#include "data/TokenBatch.h"
#include "task/ExampleResults.h"
#include "task/TrainingData.h"

namespace bert {

/// What one evaluation found, beside its loss.
struct TaskScores {
    /// Single-label: accuracy; multi-label: subset accuracy (every label right); token
    /// classification: token accuracy; regression: 0 (it has none).
    double accuracy = 0.0;
    /// Single-label: macro-F1 over the classes; multi-label: over the labels; token
    /// classification: over the entity types; regression: 0.
    double macroF1 = 0.0;
    /// Single-label: [true class][predicted class]; empty for the other tasks.
    std::vector<std::vector<std::int64_t>> confusion;
    /// The task's headline and every figure and table of its report, as stored with the
    /// evaluation: {"task": "multi-label", "main": "micro_f1", "higher_is_better": true,
    /// "figures": {"micro_f1": ..., ...}, ...tables}. Empty for single-label (its figures are
    /// the three above).
    nlohmann::json report;
    /// The loss per unit scored, from an evaluation that scores other units than the examples
    /// it was fed (a long text's windows scored as their document: task/DocumentPooling.h);
    /// it replaces the mean over the examples. None: the examples' mean stands.
    std::optional<double> loss;
    /// Whether the probabilities mean what they say (task/Calibration.h, CalibrationReport's
    /// JSON): single-label; null for the other tasks.
    nlohmann::json calibration;
    /// Every scored example's result (task/ExampleResults.h), in any order, without its source
    /// (the trainer adds it); empty where the evaluation kept too little to say (single-label
    /// over kCalibrationValues logits).
    std::vector<ExampleResult> examples;
};

/// One evaluation's running sums for a task: fed batch by batch, read from the device once.
class TaskEvaluation {
public:
    virtual ~TaskEvaluation() = default;
    /// One batch: its logits in fp32 and its targets (TaskObjective::targets of its examples),
    /// which are the positions [first, first + examples) of the evaluation's order.
    virtual void add(const at::Tensor& logits, const at::Tensor& targets, std::size_t first) = 0;
    /// Everything gathered, as a 1-D double tensor on the device that the trainer reads in one
    /// go with the loss: numbers that add up over data parallel ranks (each rank's share in its
    /// own place, zeros elsewhere).
    virtual at::Tensor figures() = 0;
    /// The scores from figures()'s values, summed over every rank.
    virtual TaskScores finish(const std::vector<double>& figures) const = 0;
};

class TaskObjective {
public:
    virtual ~TaskObjective() = default;
    virtual TaskKind kind() const = 0;
    /// The targets of set's examples (batch holds them, in this order) on device, shaped as the
    /// model's logits of batch are: [B] or [B, labels] per sequence; per token [B, S] padded or
    /// [T] packed, kIgnoredLabel where no tag is learnt.
    virtual at::Tensor targets(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                               const TokenBatch& batch, c10::Device device) const = 0;
    /// The micro-batch's summed loss (float logits): a step divides the sum of its micro-batches
    /// by units() of the whole step, so accumulation and data parallel give the loss of one
    /// batch.
    virtual at::Tensor lossSum(const at::Tensor& logits, const at::Tensor& targets) const = 0;
    /// What a batch's loss is a mean over: its examples; labelled tokens for token
    /// classification (transformers' mean over the tokens not ignored).
    virtual double units(const TokenizedSet& set, const std::vector<std::size_t>& examples) const;
    /// A fresh evaluation of set, whose examples are evaluated in order.
    virtual std::unique_ptr<TaskEvaluation> startEvaluation(const TokenizedSet& set,
                                                            const std::vector<std::size_t>& order,
                                                            c10::Device device) const = 0;
};

/// Options that change a task's loss.
struct ObjectiveOptions {
    /// Single-label: classes weighted N / (classes x n_c) (scikit-learn's "balanced");
    /// multi-label: positives of each label weighted negatives / positives (BCE's pos_weight).
    bool balanced = false;
    /// Focal loss's gamma (Lin et al. 2017), 0: the plain loss. Each unit's loss (an example's,
    /// a label's, a tag's) times (1 - p)^gamma, p the probability given to its truth (a label's
    /// p_t = p where it is present, 1 - p where not, as torchvision's sigmoid_focal_loss); with
    /// balanced weights it is the paper's alpha-balanced form. Regression has none.
    double focalGamma = 0.0;
    /// Multi-label: the probability from which a label is predicted; none: the threshold tuned
    /// on each evaluation's validation set, which predict, Try it and export then use (so the
    /// stored figures are those of the threshold that is served).
    std::optional<double> threshold;
};

/// The objective of data's task, on device.
std::unique_ptr<TaskObjective> makeTaskObjective(const TrainingData& data,
                                                 const ObjectiveOptions& options,
                                                 c10::Device device);

}  // namespace bert
