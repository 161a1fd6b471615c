// Regression: one output per text, mean squared error against the (possibly standardised)
// target, as transformers' problem_type "regression" with num_labels 1. The evaluation keeps
// every prediction so that the correlations can be computed, in the target's own units.
#include <ATen/ATen.h>

#include "data/Batch.h"
#include "task/Task.h"
#include "task/TaskMetricsJson.h"
#include "task/TaskObjectiveKinds.h"
#include "task/regression/RegressionMetrics.h"

namespace bert {

namespace {

class RegressionEvaluation final : public TaskEvaluation {
public:
    RegressionEvaluation(const TokenizedSet& set, std::vector<std::size_t> order,
                         TargetScaler scaling, c10::Device device)
        : set_(set),
          order_(std::move(order)),
          scaling_(scaling),
          outputs_(at::zeros({static_cast<std::int64_t>(set.size())},
                             at::TensorOptions().dtype(at::kDouble).device(device))) {}

    void add(const at::Tensor& logits, const at::Tensor&, std::size_t first) override {
        // Each example's output in its place in the set (ranks fill disjoint places).
        std::vector<std::int64_t> places;
        for (std::int64_t b = 0; b < logits.size(0); ++b) {
            places.push_back(
                static_cast<std::int64_t>(order_[first + static_cast<std::size_t>(b)]));
        }
        outputs_.index_put_({toDevice(at::tensor(places, at::kLong), outputs_.device())},
                            logits.reshape({-1}).to(at::kDouble));
    }

    at::Tensor figures() override { return outputs_; }

    TaskScores finish(const std::vector<double>& figures) const override {
        // In the target's own units: standardisation undone on both sides.
        std::vector<double> predicted;
        std::vector<double> truth;
        for (std::size_t i = 0; i < set_.size(); ++i) {
            predicted.push_back(scaling_.inverse(figures[i]));
            // The targets as read, in double: a float of 1000000.001 is 1000000, and R² over
            // such targets came out at -1.7e17.
            truth.push_back(set_.values.size() == set_.size()
                                ? set_.values[i]
                                : scaling_.inverse(set_.targets[i].front()));
        }
        const auto report = regressionReportOf(predicted, truth);
        // Why a figure is null, said where it is shown ("Pearson undefined (the target is
        // constant)"), not a blank.
        const auto reportJson = toJson(report);
        auto undefined = nlohmann::json::object();
        for (const auto& [key, value] : reportJson.items()) {
            if (value.is_null()) {
                undefined[key] = report.undefinedWhy;
            }
        }
        TaskScores scores;
        scores.report = {{"task", toString(TaskKind::Regression)},
                         {"main", std::string(regressionTask().headlineMetric())},
                         {"higher_is_better", false},
                         {"figures", reportJson},
                         {"undefined", undefined},
                         {"scaling", scaling_.toJson()},
                         // The Model quality tab's scatter and residuals.
                         {"predicted", predicted},
                         {"truth", truth}};
        // Each example's residual and squared error, in the target's units.
        scores.examples.resize(predicted.size());
        for (std::size_t i = 0; i < predicted.size(); ++i) {
            auto& row = scores.examples[i];
            row.example = i;
            row.truth = exampleNumber(truth[i]);
            row.predicted = exampleNumber(predicted[i]);
            row.residual = predicted[i] - truth[i];
            row.loss = *row.residual * *row.residual;
        }
        return scores;
    }

private:
    const TokenizedSet& set_;
    std::vector<std::size_t> order_;
    TargetScaler scaling_;
    at::Tensor outputs_;
};

class RegressionObjective final : public TaskObjective {
public:
    explicit RegressionObjective(const TrainingData& data) : scaling_(data.scaling) {}

    TaskKind kind() const override { return TaskKind::Regression; }

    at::Tensor targets(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                       const TokenBatch&, c10::Device device) const override {
        std::vector<float> values;
        values.reserve(examples.size());
        for (const auto index : examples) {
            values.push_back(set.targets[index].front());
        }
        return toDevice(at::tensor(values, at::kFloat), device);
    }

    at::Tensor lossSum(const at::Tensor& logits, const at::Tensor& targets) const override {
        // MSELoss over [B] (transformers squeezes the one output): the sum, divided by the
        // step's examples.
        return at::mse_loss(logits.reshape({-1}), targets, at::Reduction::Sum);
    }

    std::unique_ptr<TaskEvaluation> startEvaluation(const TokenizedSet& set,
                                                    const std::vector<std::size_t>& order,
                                                    c10::Device device) const override {
        return std::make_unique<RegressionEvaluation>(set, order, scaling_, device);
    }

private:
    TargetScaler scaling_;
};

}  // namespace

std::unique_ptr<TaskObjective> makeRegressionObjective(const TrainingData& data,
                                                       const ObjectiveOptions&, c10::Device) {
    return std::make_unique<RegressionObjective>(data);
}

}  // namespace bert
