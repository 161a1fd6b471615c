#include "train/Metrics.h"

#include <cstdio>

namespace bert {

double accuracyOf(const ConfusionMatrix& confusion) {
    std::int64_t correct = 0;
    std::int64_t total = 0;
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            total += confusion[t][p];
            correct += t == p ? confusion[t][p] : 0;
        }
    }
    return total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
}

double macroF1Of(const ConfusionMatrix& confusion) {
    const std::size_t n = confusion.size();
    if (n == 0) {
        return 0.0;
    }
    double sum = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
        const std::int64_t truePositive = confusion[c][c];
        std::int64_t predicted = 0;
        std::int64_t actual = 0;
        for (std::size_t k = 0; k < n; ++k) {
            predicted += confusion[k][c];
            actual += confusion[c][k];
        }
        const double denominator = static_cast<double>(predicted + actual);
        sum += denominator > 0 ? 2.0 * static_cast<double>(truePositive) / denominator : 0.0;
    }
    return sum / static_cast<double>(n);
}

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

std::vector<ClassMetrics> perClassOf(const ConfusionMatrix& confusion) {
    const std::size_t n = confusion.size();
    std::vector<ClassMetrics> rows(n);
    for (std::size_t c = 0; c < n; ++c) {
        auto& row = rows[c];
        for (std::size_t k = 0; k < n; ++k) {
            row.predicted += confusion[k][c];
            row.support += confusion[c][k];
        }
        const auto truePositive = static_cast<double>(confusion[c][c]);
        row.precision = row.predicted > 0 ? truePositive / static_cast<double>(row.predicted) : 0.0;
        row.recall = row.support > 0 ? truePositive / static_cast<double>(row.support) : 0.0;
        const double denominator = static_cast<double>(row.predicted + row.support);
        row.f1 = denominator > 0 ? 2.0 * truePositive / denominator : 0.0;
    }
    return rows;
}

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

const EvalMetrics* bestEvaluation(const std::vector<EvalMetrics>& evaluations, BestMetric metric) {
    const EvalMetrics* best = nullptr;
    for (const auto& eval : evaluations) {
        if (best == nullptr || scoreOf(eval, metric) > scoreOf(*best, metric)) {
            best = &eval;
        }
    }
    return best;
}

double metricOf(const EvalMetrics& eval, BestMetric metric) {
    switch (metric) {
        case BestMetric::MacroF1:
            return eval.macroF1;
        case BestMetric::Loss:
            return eval.loss;
        case BestMetric::Accuracy:
            break;
    }
    return eval.accuracy;
}

double scoreOf(const EvalMetrics& eval, BestMetric metric) {
    return metric == BestMetric::Loss ? -eval.loss : metricOf(eval, metric);
}

nlohmann::json confusionToJson(const ConfusionMatrix& confusion) {
    if (confusion.size() <= kDenseConfusionClasses) {
        return confusion;
    }
    auto cells = nlohmann::json::array();
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            if (confusion[t][p] != 0) {
                cells.push_back({t, p, confusion[t][p]});
            }
        }
    }
    return {{"classes", confusion.size()}, {"cells", std::move(cells)}};
}

ConfusionMatrix confusionFromJson(const nlohmann::json& json) {
    if (json.is_array()) {
        ConfusionMatrix dense;
        for (const auto& row : json) {
            if (!row.is_array() || row.size() != json.size()) {
                return {};
            }
            dense.emplace_back();
            for (const auto& count : row) {
                dense.back().push_back(count.is_number_integer() ? count.get<std::int64_t>() : 0);
            }
        }
        return dense;
    }
    if (!json.is_object() || !json.contains("classes") || !json["classes"].is_number_unsigned() ||
        !json.contains("cells") || !json["cells"].is_array()) {
        return {};
    }
    const auto classes = json["classes"].get<std::size_t>();
    if (classes > kReadableConfusionClasses) {
        return {};
    }
    ConfusionMatrix dense(classes, std::vector<std::int64_t>(classes, 0));
    for (const auto& cell : json["cells"]) {
        if (cell.is_array() && cell.size() == 3 && cell[0].is_number_unsigned() &&
            cell[1].is_number_unsigned() && cell[2].is_number_integer() &&
            cell[0].get<std::size_t>() < classes && cell[1].get<std::size_t>() < classes) {
            dense[cell[0].get<std::size_t>()][cell[1].get<std::size_t>()] =
                cell[2].get<std::int64_t>();
        }
    }
    return dense;
}

}  // namespace bert
