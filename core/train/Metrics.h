#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "task/singlelabel/ConfusionMetrics.h"
#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"

namespace bert {

/// Something a practitioner must be told about a model's validation results.
struct ModelWarning {
    enum class Kind {
        NeverPredicted,   ///< classA has support examples and is never predicted
        Imbalanced,       ///< classA is shareA of the validation set, classB (the smallest) shareB
        AccuracyAboveF1,  ///< accuracy (shareA) far above macro-F1 (shareB)
    };
    Kind kind = Kind::NeverPredicted;
    std::string classA;
    std::string classB;
    double shareA = 0.0;
    double shareB = 0.0;
    std::int64_t support = 0;
    std::string
        text;  ///< the English sentence (the command line prints it; the studio translates by kind)
};

/// A class that is never predicted, labels so imbalanced that accuracy flatters the model
/// (largest class at least 3x the smallest), accuracy at least 0.15 above macro-F1. Empty when
/// nothing is wrong.
std::vector<ModelWarning> modelWarnings(const ConfusionMatrix& confusion,
                                        const std::vector<std::string>& labels);

/// A figure's key as people write it: micro_f1 → micro-F1, rmse → RMSE, r2 → R².
std::string figureName(const std::string& key);

/// An evaluation's figures in one line for people: "accuracy 0.9123, macro-F1 0.8812" for
/// single-label; the task's headline first, then its other figures, for the other tasks
/// ("micro-F1 0.8101, macro-F1 ...", "RMSE 0.4210, MAE ...").
std::string evaluationSummary(const EvalMetrics& eval);

/// The training settings of a stored run's config ({"job": {"training": ...}}), or null.
const nlohmann::json* trainingSettingsOfRunConfig(const nlohmann::json& runConfig);

/// The best_metric a stored run was trained with; accuracy for runs recorded before the option
/// existed or whose settings cannot be read.
BestMetric bestMetricOfRunConfig(const nlohmann::json& runConfig);

/// What choosing the best evaluation compares, in this order: the best_metric's score (higher is
/// better), then the validation loss (lower is better), then the step (later is better). An
/// accuracy or an entity F1 often ties between evaluations; the tie then goes to the model that
/// fits the validation set better, and last to the later one.
struct EvaluationRank {
    double score = 0.0;  ///< scoreOf: higher is better
    double loss = 0.0;   ///< validation loss; infinity where unknown (loses every tie)
    std::size_t step = 0;
};
EvaluationRank rankOf(const EvalMetrics& eval, BestMetric metric);
/// Whether candidate is better than best: the one comparison the trainer's best/ checkpoint
/// and every screen that names a run's best evaluation use.
bool ranksAbove(const EvaluationRank& candidate, const EvaluationRank& best);

/// The best of a run's evaluations by metric (ties broken by ranksAbove, as the trainer keeps
/// its best checkpoint), or null when there are none.
const EvalMetrics* bestEvaluation(const std::vector<EvalMetrics>& evaluations, BestMetric metric);

/// The value of a metric in an evaluation.
double metricOf(const EvalMetrics& eval, BestMetric metric);
/// The same, oriented so that higher is better (the loss negated).
double scoreOf(const EvalMetrics& eval, BestMetric metric);

}  // namespace bert
