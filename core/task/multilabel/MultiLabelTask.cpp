// Multi-label classification: any number of labels per text, a sigmoid per label and one
// threshold (fixed by the job, or tuned on validation) that predict, Try it and export share.
#include <algorithm>

#include "Error.h"
#include "data/LabelCheck.h"
#include "task/Task.h"
#include "task/TaskKinds.h"
#include "task/multilabel/LabelSets.h"
#include "task/multilabel/MultiLabelMetrics.h"

namespace bert {

namespace {

std::string joined(const TextPrediction& prediction, const std::vector<std::string>& labels) {
    std::string names;
    for (const auto l : prediction.chosen) {
        names += (names.empty() ? "" : ";") + labels[l];
    }
    return names;
}

class MultiLabelTask final : public Task {
public:
    TaskKind kind() const override { return TaskKind::MultiLabel; }
    std::string_view id() const override { return "multi-label"; }
    std::string_view problemType() const override { return "multi_label_classification"; }
    std::string_view description() const override {
        return "multi-label classification (any number of labels per text)";
    }
    std::string_view headlineMetric() const override { return "micro_f1"; }

    TrainingData prepareData(const DataRequest& request) const override {
        return prepareMultiLabelData(request);
    }
    WindowPooling windowPooling() const override { return WindowPooling::Max; }
    std::string rareLabelsWarning(const TrainingData& data, double share) const override {
        // Each label's positives, training and validation together.
        std::vector<std::pair<std::string, std::size_t>> positives;
        for (const auto& name : data.labels.names) {
            positives.emplace_back(name, 0);
        }
        std::size_t rows = 0;
        for (const auto* set : {&data.train, &data.validation}) {
            for (const auto& row : set->targets) {
                ++rows;
                for (std::size_t l = 0; l < row.size() && l < positives.size(); ++l) {
                    positives[l].second += row[l] > 0.5F ? 1 : 0;
                }
            }
        }
        return rareLabelWarning("labels", positives, rows, share);
    }

    void readRunSettings(TaskSettings& settings, const nlohmann::json& runConfig,
                         const nlohmann::json& report) const override {
        const auto fixed = runConfig.value("/job/data/threshold"_json_pointer, nlohmann::json());
        settings.threshold = fixed.is_number()
                                 ? fixed.get<double>()
                                 : report.value("tuned_threshold", report.value("threshold", 0.5));
    }
    void writeSettings(const TaskSettings& settings, nlohmann::json& block) const override {
        block["threshold"] = settings.threshold;
    }
    void readSettings(TaskSettings& settings, const nlohmann::json& block,
                      const std::filesystem::path& source) const override {
        if (!block.contains("threshold")) {
            return;
        }
        const auto& threshold = block["threshold"];
        if (!threshold.is_number() || !(threshold.get<double>() >= 0.0) ||
            threshold.get<double>() > 1.0) {
            throw InputError(source, "\"threshold\" must be a number between 0 and 1");
        }
        settings.threshold = threshold.get<double>();
    }
    std::string describeSettings(const TaskSettings& settings) const override {
        return "- Decision threshold: " + fixedNumber(settings.threshold) +
               " (a label is predicted at or above it; config.json's bert_studio_task)\n";
    }

    void decide(TextPrediction& prediction, const TaskSettings& settings) const override {
        const auto decided = decideLabels(prediction.scores, settings.threshold);
        prediction.chosen.clear();
        for (std::size_t l = 0; l < decided.size(); ++l) {
            if (decided[l] != 0) {
                prediction.chosen.push_back(l);
            }
        }
    }
    std::optional<std::size_t> answerOutput(const TextPrediction& prediction) const override {
        if (prediction.chosen.empty()) {
            return std::nullopt;
        }
        return *std::max_element(prediction.chosen.begin(), prediction.chosen.end(),
                                 [&](std::size_t a, std::size_t b) {
                                     return prediction.scores[a] < prediction.scores[b];
                                 });
    }
    nlohmann::json predictionJson(const TextPrediction& prediction,
                                  const PredictionContext& context) const override {
        LabelSet names;
        for (const auto l : prediction.chosen) {
            names.push_back(context.labels[l]);
        }
        return {{"labels", names},
                {"probabilities", probabilitiesByLabel(prediction.scores, context.labels)},
                {"threshold", context.settings.threshold}};
    }
    std::string predictionLine(const TextPrediction& prediction,
                               const PredictionContext& context) const override {
        const auto names = joined(prediction, context.labels);
        return names.empty() ? "(none)" : names;
    }
    std::string scoreAgainst(const std::vector<TextPrediction>& predictions,
                             const std::vector<std::string>& expected,
                             const PredictionContext& context) const override {
        if (expected.empty() || predictions.empty()) {
            return {};
        }
        const char separator = guessLabelSeparator(expected).value_or(';');
        std::size_t exact = 0;
        for (std::size_t i = 0; i < predictions.size(); ++i) {
            LabelSet names;
            for (const auto l : predictions[i].chosen) {
                names.push_back(context.labels[l]);
            }
            auto truth = splitLabels(expected[i], separator);
            std::sort(truth.begin(), truth.end());
            std::sort(names.begin(), names.end());
            exact += truth == names ? 1 : 0;
        }
        const auto n = predictions.size();
        return "; subset accuracy " +
               fixedNumber(static_cast<double>(exact) / static_cast<double>(n)) + " (" +
               std::to_string(exact) + "/" + std::to_string(n) + ")";
    }
    std::string_view predictionDescription() const override {
        return "every label whose probability (a sigmoid per label) is at or above the run's "
               "threshold, and each label's probability";
    }
    std::string pythonReading(bool onnx, const PredictionContext& context) const override {
        return sequenceLogitsPython(onnx, context.settings) +
               (onnx ? "probabilities = (1 / (1 + np.exp(-logits))).tolist()  # a sigmoid per "
                       "label\n"
                     : "probabilities = logits.sigmoid().tolist()  # a sigmoid per label\n") +
               R"PY(threshold = task["threshold"]  # the run's: every label at or above it
for text, p in zip(texts, probabilities):
    print(json.dumps({"text": text,
                      "labels": [labels[i] for i in range(len(p)) if p[i] >= threshold],
                      "probabilities": {labels[i]: p[i] for i in range(len(p))}},
                     ensure_ascii=False))
)PY";
    }

protected:
    std::string outputPredicted(const TextPrediction& prediction,
                                const PredictionContext& context) const override {
        return joined(prediction, context.labels);
    }
    std::string extraHeader(const std::vector<std::string>& labels) const override {
        return probabilityHeader(labels);
    }
    std::string extraColumns(const TextPrediction& prediction) const override {
        return probabilityColumns(prediction);
    }
};

}  // namespace

const Task& multiLabelTask() {
    static const MultiLabelTask task;
    return task;
}

}  // namespace bert
