// Regression: a number per text, one output learnt on the target standardised (by default) and
// given back in the target's own units.
#include <cmath>
#include <cstdlib>

#include "Error.h"
#include "task/Task.h"
#include "task/TaskKinds.h"

namespace bert {

namespace {

/// Nine significant digits: the run's RMSE is recomputed from these (a number rounded to 4
/// decimals cannot give it back).
std::string valueText(double value) {
    return fixedNumber(value, "%.9g");
}

class RegressionTask final : public Task {
public:
    TaskKind kind() const override { return TaskKind::Regression; }
    std::string_view id() const override { return "regression"; }
    std::string_view problemType() const override { return "regression"; }
    bool lossOverClasses() const override { return false; }
    std::string_view description() const override { return "regression (a number per text)"; }
    std::string_view headlineMetric() const override { return "rmse"; }

    TrainingData prepareData(const DataRequest& request) const override {
        return prepareRegressionData(request);
    }
    std::vector<std::string> dataWarnings(const TrainingData& data) const override {
        if (data.labels.names.empty()) {
            return {};
        }
        auto spread = targetSpreadWarning(data.train.values, data.scaling,
                                          !data.scaling.isIdentity(), data.labels.names.front());
        return spread.empty() ? std::vector<std::string>{}
                              : std::vector<std::string>{std::move(spread)};
    }
    void writeJobData(const TaskSpec& spec, nlohmann::json& data) const override {
        data["standardize_targets"] = spec.standardizeTargets;
    }

    void readRunSettings(TaskSettings& settings, const nlohmann::json& /*runConfig*/,
                         const nlohmann::json& report) const override {
        if (report.contains("scaling")) {
            settings.scaling = TargetScaler::fromJson(report["scaling"]);
        }
    }
    void writeSettings(const TaskSettings& settings, nlohmann::json& block) const override {
        block["target_scaling"] = settings.scaling.toJson();
    }
    void readSettings(TaskSettings& settings, const nlohmann::json& block,
                      const std::filesystem::path& source) const override {
        if (!block.contains("target_scaling")) {
            return;
        }
        try {
            settings.scaling = TargetScaler::fromJson(block["target_scaling"]);
        } catch (const InputError& error) {
            throw InputError(source, error.problem());
        }
    }
    std::string describeSettings(const TaskSettings& settings) const override {
        const auto& scaling = settings.scaling;
        return scaling.isIdentity()
                   ? std::string("- Target: learnt as it is (not standardised)\n")
                   : "- Target standardised for training: mean " +
                         fixedNumber(scaling.mean, "%.6g") + ", scale " +
                         fixedNumber(scaling.scale, "%.6g") +
                         " (config.json's bert_studio_task); the model's output is multiplied "
                         "by the scale and the mean added back\n";
    }

    void decide(TextPrediction& prediction, const TaskSettings& settings) const override {
        prediction.value = settings.scaling.inverse(prediction.scores.front());
    }
    nlohmann::json predictionJson(const TextPrediction& prediction,
                                  const PredictionContext& /*context*/) const override {
        return {{"value", prediction.value}};
    }
    std::string predictionLine(const TextPrediction& prediction,
                               const PredictionContext& /*context*/) const override {
        return valueText(prediction.value);
    }
    std::string scoreAgainst(const std::vector<TextPrediction>& predictions,
                             const std::vector<std::string>& expected,
                             const PredictionContext& /*context*/) const override {
        if (expected.empty() || predictions.empty()) {
            return {};
        }
        double squares = 0.0;
        for (std::size_t i = 0; i < predictions.size(); ++i) {
            const double error = predictions[i].value - std::strtod(expected[i].c_str(), nullptr);
            squares += error * error;
        }
        return "; RMSE " +
               fixedNumber(std::sqrt(squares / static_cast<double>(predictions.size())));
    }
    std::string_view predictionDescription() const override {
        return "the number, in the target's own units";
    }
    std::string pythonReading(bool onnx, const PredictionContext& context) const override {
        return sequenceLogitsPython(onnx, context.settings) + "outputs = logits[:, 0].tolist()\n" +
               "scaling = task[\"target_scaling\"]  # " +
               (context.settings.scaling.isIdentity()
                    ? "the model learnt the raw target: mean 0, scale 1"
                    : "the model learnt the standardised target: undo it") +
               R"PY(
for text, output in zip(texts, outputs):
    value = output * scaling["scale"] + scaling["mean"]
    print(json.dumps({"text": text, "value": value}, ensure_ascii=False))
)PY";
    }

protected:
    std::string outputPredicted(const TextPrediction& prediction,
                                const PredictionContext& /*context*/) const override {
        return valueText(prediction.value);
    }
};

}  // namespace

const Task& regressionTask() {
    static const RegressionTask task;
    return task;
}

}  // namespace bert
