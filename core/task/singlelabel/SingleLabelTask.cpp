// Single-label classification: one label per text or pair, a softmax over the classes.
#include <algorithm>
#include <cmath>

#include "Error.h"
#include "data/LabelCheck.h"
#include "task/Task.h"
#include "task/TaskKinds.h"

namespace bert {

namespace {

/// Each class with its examples, training and validation together.
std::vector<std::pair<std::string, std::size_t>> classCounts(const TrainingData& data) {
    std::vector<std::pair<std::string, std::size_t>> classes;
    for (const auto& name : data.labels.names) {
        classes.emplace_back(name, 0);
    }
    for (const auto* set : {&data.train, &data.validation}) {
        for (const auto label : set->labels) {
            ++classes[static_cast<std::size_t>(label)].second;
        }
    }
    return classes;
}

class SingleLabelTask final : public Task {
public:
    TaskKind kind() const override { return TaskKind::SingleLabel; }
    std::string_view id() const override { return "single-label"; }
    std::string_view problemType() const override { return "single_label_classification"; }
    std::string_view description() const override {
        return "single-label classification (one label per text)";
    }
    std::string_view headlineMetric() const override { return "accuracy"; }
    bool calibrates() const override { return true; }
    bool oneClassPerExample() const override { return true; }

    TrainingData prepareData(const DataRequest& request) const override {
        return prepareSingleLabelData(request);
    }
    bool skipsUnlabelledRows() const override { return true; }
    std::vector<std::string> dataWarnings(const TrainingData& data) const override {
        const auto classes = classCounts(data);
        return classes.empty() ? std::vector<std::string>{} : labelWarnings(classes);
    }
    std::string rareLabelsWarning(const TrainingData& data, double share) const override {
        return rareLabelWarning("classes", classCounts(data),
                                data.train.labels.size() + data.validation.labels.size(), share);
    }

    void writeSettings(const TaskSettings& settings, nlohmann::json& block) const override {
        if (settings.temperature) {
            block["temperature"] = *settings.temperature;
        }
    }
    void readSettings(TaskSettings& settings, const nlohmann::json& block,
                      const std::filesystem::path& source) const override {
        if (const auto t = block.find("temperature"); t != block.end()) {
            if (!t->is_number() || !(t->get<double>() > 0.0) || !std::isfinite(t->get<double>())) {
                throw InputError(source, std::string("\"") + kTaskSettingsKey +
                                             "\": \"temperature\" must be a positive number");
            }
            settings.temperature = t->get<double>();
        }
    }
    std::string describeSettings(const TaskSettings& settings) const override {
        if (!settings.temperature) {
            return {};
        }
        return "- Temperature: " + fixedNumber(*settings.temperature) +
               " (temperature scaling, fitted on the validation set: the logits are divided by "
               "it before the softmax, so that the probabilities match how often the model is "
               "right; the predicted label is the same)\n";
    }

    void decide(TextPrediction& prediction, const TaskSettings& /*settings*/) const override {
        const auto& p = prediction.scores;
        prediction.chosen = {
            static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin())};
    }
    std::optional<std::size_t> answerOutput(const TextPrediction& prediction) const override {
        return prediction.chosen.front();
    }
    nlohmann::json predictionJson(const TextPrediction& prediction,
                                  const PredictionContext& context) const override {
        return {{"label", context.labels[prediction.chosen.front()]},
                {"probabilities", probabilitiesByLabel(prediction.scores, context.labels)}};
    }
    std::string predictionLine(const TextPrediction& prediction,
                               const PredictionContext& context) const override {
        std::string line = context.labels[prediction.chosen.front()] + "\t";
        for (std::size_t l = 0; l < context.labels.size(); ++l) {
            line += (l ? "  " : "") + context.labels[l] + ' ' + fixedNumber(prediction.scores[l]);
        }
        return line;
    }
    std::string scoreAgainst(const std::vector<TextPrediction>& predictions,
                             const std::vector<std::string>& expected,
                             const PredictionContext& context) const override {
        if (expected.empty() || predictions.empty()) {
            return {};
        }
        std::size_t right = 0;
        for (std::size_t i = 0; i < predictions.size(); ++i) {
            right += context.labels[predictions[i].chosen.front()] == expected[i] ? 1 : 0;
        }
        const auto n = predictions.size();
        return "; accuracy " + fixedNumber(static_cast<double>(right) / static_cast<double>(n)) +
               " (" + std::to_string(right) + "/" + std::to_string(n) + ")";
    }
    std::string_view predictionDescription() const override {
        return "the most likely label and every label's probability (a softmax)";
    }
    std::string pythonReading(bool onnx, const PredictionContext& context) const override {
        // Temperature scaling, as predict applies it: after the model (its ONNX graph gives
        // the logits as transformers' model does).
        const auto& t = context.settings.temperature;
        return sequenceLogitsPython(onnx, context.settings) +
               (t ? "logits = logits / " + fixedNumber(*t, "%.17g") +
                        "  # temperature scaling (the README's Temperature)\n"
                  : std::string()) +
               (onnx ? "exp = np.exp(logits - logits.max(-1, keepdims=True))\n"
                       "probabilities = (exp / exp.sum(-1, keepdims=True)).tolist()\n"
                     : "probabilities = logits.softmax(-1).tolist()\n") +
               R"PY(for text, p in zip(texts, probabilities):
    print(json.dumps({"text": text, "label": labels[p.index(max(p))],
                      "probabilities": {labels[i]: p[i] for i in range(len(p))}},
                     ensure_ascii=False))
)PY";
    }

protected:
    std::string outputPredicted(const TextPrediction& prediction,
                                const PredictionContext& context) const override {
        return context.labels[prediction.chosen.front()];
    }
    std::string extraHeader(const std::vector<std::string>& labels) const override {
        return probabilityHeader(labels);
    }
    std::string extraColumns(const TextPrediction& prediction) const override {
        return probabilityColumns(prediction);
    }
};

}  // namespace

const Task& singleLabelTask() {
    static const SingleLabelTask task;
    return task;
}

}  // namespace bert
