#include "train/Metrics.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "task/Calibration.h"

namespace bert {

namespace {

// Labels this imbalanced (largest class over smallest, in the validation set) get a warning.
constexpr double kImbalanceRatio = 3.0;
// Accuracy this far above macro-F1 means the minority classes are mostly missed.
constexpr double kAccuracyF1Gap = 0.15;

std::string percentText(double share) {
    char text[16];
    std::snprintf(text, sizeof text, "%.0f%%", 100.0 * share);
    return text;
}

}  // namespace

std::vector<ModelWarning> modelWarnings(const ConfusionMatrix& confusion,
                                        const std::vector<std::string>& labels) {
    std::vector<ModelWarning> warnings;
    const auto rows = perClassOf(confusion);
    auto name = [&](std::size_t c) { return c < labels.size() ? labels[c] : std::to_string(c); };
    std::int64_t total = 0;
    std::int64_t largest = 0;
    std::int64_t smallest = -1;
    std::size_t largestClass = 0;
    std::size_t smallestClass = 0;
    for (std::size_t c = 0; c < rows.size(); ++c) {
        total += rows[c].support;
        if (rows[c].support > largest) {
            largest = rows[c].support;
            largestClass = c;
        }
        if (rows[c].support > 0 && (smallest < 0 || rows[c].support < smallest)) {
            smallest = rows[c].support;
            smallestClass = c;
        }
    }
    if (total == 0) {
        return warnings;
    }
    for (std::size_t c = 0; c < rows.size(); ++c) {
        if (rows[c].predicted == 0 && rows[c].support > 0) {
            ModelWarning warning;
            warning.kind = ModelWarning::Kind::NeverPredicted;
            warning.classA = name(c);
            warning.support = rows[c].support;
            warning.text = "\"" + name(c) + "\" is never predicted: its " +
                           std::to_string(rows[c].support) +
                           " validation examples are all given other labels. Try class "
                           "weighting (balanced), more epochs or a higher learning rate.";
            warnings.push_back(std::move(warning));
        }
    }
    if (smallest > 0 &&
        static_cast<double>(largest) >= kImbalanceRatio * static_cast<double>(smallest)) {
        ModelWarning warning;
        warning.kind = ModelWarning::Kind::Imbalanced;
        warning.classA = name(largestClass);
        warning.classB = name(smallestClass);
        warning.shareA = static_cast<double>(largest) / static_cast<double>(total);
        warning.shareB = static_cast<double>(smallest) / static_cast<double>(total);
        warning.text = "The labels are imbalanced: \"" + warning.classA + "\" is " +
                       percentText(warning.shareA) + " of the validation set, \"" + warning.classB +
                       "\" " + percentText(warning.shareB) +
                       ". Judge the model by macro-F1 and per-class recall, not accuracy.";
        warnings.push_back(std::move(warning));
    }
    const double accuracy = accuracyOf(confusion);
    const double f1 = macroF1Of(confusion);
    if (accuracy - f1 >= kAccuracyF1Gap) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "Accuracy %.2f is far above macro-F1 %.2f: the smaller classes are mostly "
                      "missed.",
                      accuracy, f1);
        ModelWarning warning;
        warning.kind = ModelWarning::Kind::AccuracyAboveF1;
        warning.shareA = accuracy;
        warning.shareB = f1;
        warning.text = text;
        warnings.push_back(std::move(warning));
    }
    return warnings;
}

const nlohmann::json* trainingSettingsOfRunConfig(const nlohmann::json& runConfig) {
    // Runs store {"job": {"training": {...}, ...}} (TrainingJob::toJson).
    if (runConfig.is_object() && runConfig.contains("job") && runConfig["job"].is_object() &&
        runConfig["job"].contains("training") && runConfig["job"]["training"].is_object()) {
        return &runConfig["job"]["training"];
    }
    return nullptr;
}

BestMetric bestMetricOfRunConfig(const nlohmann::json& runConfig) {
    const auto* training = trainingSettingsOfRunConfig(runConfig);
    if (training == nullptr) {
        return BestMetric::Accuracy;
    }
    try {
        return TrainingConfig::fromJson(*training).bestMetric;
    } catch (const std::exception&) {
        return BestMetric::Accuracy;  // a run from another version: judge it by accuracy
    }
}

EvaluationRank rankOf(const EvalMetrics& eval, BestMetric metric) {
    return {scoreOf(eval, metric), eval.loss, eval.step};
}

bool ranksAbove(const EvaluationRank& candidate, const EvaluationRank& best) {
    // A NaN (a diverged evaluation) loses to any number, and a NaN never wins.
    if (candidate.score != best.score) {
        return candidate.score > best.score ||
               (std::isnan(best.score) && !std::isnan(candidate.score));
    }
    if (candidate.loss != best.loss) {
        return candidate.loss < best.loss || (std::isnan(best.loss) && !std::isnan(candidate.loss));
    }
    return candidate.step > best.step;
}

const EvalMetrics* bestEvaluation(const std::vector<EvalMetrics>& evaluations, BestMetric metric) {
    const EvalMetrics* best = nullptr;
    for (const auto& eval : evaluations) {
        if (best == nullptr || ranksAbove(rankOf(eval, metric), rankOf(*best, metric))) {
            best = &eval;
        }
    }
    return best;
}

namespace {

/// The task's headline figure (task/TaskObjective.h's report), or nullopt for single-label.
std::optional<double> headlineOf(const EvalMetrics& eval) {
    const auto& task = eval.task;
    if (!task.is_object() || !task.contains("main") || !task["main"].is_string() ||
        !task.contains("figures") || !task["figures"].is_object()) {
        return std::nullopt;
    }
    const auto it = task["figures"].find(task["main"].get<std::string>());
    if (it == task["figures"].end() || !it->is_number()) {
        return std::nullopt;
    }
    return it->get<double>();
}

bool headlineHigherIsBetter(const EvalMetrics& eval) {
    return eval.task.is_object() ? eval.task.value("higher_is_better", true) : true;
}

/// Whether metric, for eval's task, means the task's headline: always for task-metric; for a
/// regression (which has neither accuracy nor macro-F1), accuracy and macro-F1 too.
bool meansHeadline(const EvalMetrics& eval, BestMetric metric) {
    if (metric == BestMetric::Task) {
        return true;
    }
    return metric != BestMetric::Loss && headlineOf(eval) && !headlineHigherIsBetter(eval);
}

}  // namespace

std::string figureName(const std::string& key) {
    static const std::pair<const char*, const char*> kNames[] = {{"rmse", "RMSE"},
                                                                 {"mae", "MAE"},
                                                                 {"r2", "R²"},
                                                                 {"pearson", "Pearson"},
                                                                 {"spearman", "Spearman"}};
    for (const auto& [from, to] : kNames) {
        if (key == from) {
            return to;
        }
    }
    std::string name = key;
    if (const auto f1 = name.rfind("_f1"); f1 != std::string::npos && f1 + 3 == name.size()) {
        name.replace(f1, 3, "-F1");
    }
    for (auto& c : name) {
        c = c == '_' ? ' ' : c;
    }
    return name;
}

std::string evaluationSummary(const EvalMetrics& eval) {
    char number[32];
    auto figure = [&](const std::string& name, double value) {
        std::snprintf(number, sizeof number, " %.4f", value);
        return name + number;
    };
    const auto& task = eval.task;
    if (!task.is_object() || !task.contains("figures") || !task["figures"].is_object()) {
        auto line = figure("accuracy", eval.accuracy) + ", " + figure("macro-F1", eval.macroF1);
        // Whether its probabilities mean what they say, and what temperature scaling makes of
        // them (task/Calibration.h).
        if (const auto calibration = CalibrationReport::fromJson(eval.calibration)) {
            line += ", " + figure("ECE", calibration->before.ece);
            if (calibration->temperature) {
                std::snprintf(number, sizeof number, "%.2f", *calibration->temperature);
                line += " (" + figure("", calibration->after.ece).substr(1) + " at temperature " +
                        number + ")";
            }
        }
        return line;
    }
    const auto main = task.value("main", std::string());
    std::string line;
    if (const auto it = task["figures"].find(main);
        it != task["figures"].end() && it->is_number()) {
        line = figure(figureName(main), it->get<double>());
    }
    const auto undefined = task.value("undefined", nlohmann::json::object());
    for (const auto& [key, value] : task["figures"].items()) {
        if (key != main && value.is_number_float()) {
            line += (line.empty() ? "" : ", ") + figure(figureName(key), value.get<double>());
        } else if (key != main && value.is_null()) {
            // Said, with why, rather than left out (Pearson of a constant target).
            const auto why = undefined.value(key, std::string());
            line += (line.empty() ? "" : ", ") + figureName(key) + " undefined" +
                    (why.empty() ? std::string() : " (" + why + ")");
        }
    }
    // Multi-label figures hold at one decision threshold: say which (and whether it was tuned).
    if (const auto threshold = task.find("threshold");
        threshold != task.end() && threshold->is_number()) {
        line += "; at threshold" + figure("", threshold->get<double>());
        if (const auto source = task.find("threshold_source");
            source != task.end() && source->is_string()) {
            line += " (" + source->get<std::string>() + ")";
        }
    }
    return line;
}

double metricOf(const EvalMetrics& eval, BestMetric metric) {
    if (meansHeadline(eval, metric)) {
        return headlineOf(eval).value_or(eval.accuracy);
    }
    switch (metric) {
        case BestMetric::MacroF1:
            return eval.macroF1;
        case BestMetric::Loss:
            return eval.loss;
        case BestMetric::Accuracy:
        case BestMetric::Task:
            break;
    }
    return eval.accuracy;
}

double scoreOf(const EvalMetrics& eval, BestMetric metric) {
    if (metric == BestMetric::Loss) {
        return -eval.loss;
    }
    const double value = metricOf(eval, metric);
    return meansHeadline(eval, metric) && !headlineHigherIsBetter(eval) ? -value : value;
}

}  // namespace bert
