// Multi-label classification: a sigmoid per label and binary cross-entropy with logits, as
// transformers' problem_type "multi_label_classification" (BCEWithLogitsLoss, the mean over
// examples x labels). The evaluation keeps every probability, so that the decision threshold
// can be tuned on validation and its curve drawn.
#include <algorithm>
#include <cmath>
#include <optional>

#include <ATen/ATen.h>

#include "data/Batch.h"
#include "task/Calibration.h"
#include "task/Task.h"
#include "task/TaskMetricsJson.h"
#include "task/TaskObjectiveKinds.h"
#include "task/multilabel/MultiLabelMetrics.h"

namespace bert {

namespace {

class MultiLabelEvaluation final : public TaskEvaluation {
public:
    MultiLabelEvaluation(const TokenizedSet& set, std::vector<std::size_t> order,
                         std::vector<std::string> labels, std::optional<double> threshold,
                         c10::Device device)
        : set_(set),
          order_(std::move(order)),
          labels_(std::move(labels)),
          threshold_(threshold),
          probabilities_(at::zeros(
              {static_cast<std::int64_t>(set.size()), static_cast<std::int64_t>(labels_.size())},
              at::TensorOptions().dtype(at::kDouble).device(device))) {}

    void add(const at::Tensor& logits, const at::Tensor&, std::size_t first) override {
        std::vector<std::int64_t> places;
        for (std::int64_t b = 0; b < logits.size(0); ++b) {
            places.push_back(
                static_cast<std::int64_t>(order_[first + static_cast<std::size_t>(b)]));
        }
        probabilities_.index_put_(
            {toDevice(at::tensor(places, at::kLong), probabilities_.device())},
            at::sigmoid(logits).to(at::kDouble));
    }

    at::Tensor figures() override { return probabilities_.reshape({-1}); }

    TaskScores finish(const std::vector<double>& figures) const override {
        std::vector<std::uint8_t> truth;
        truth.reserve(set_.size() * labels_.size());
        for (std::size_t i = 0; i < set_.size(); ++i) {
            for (const auto value : set_.targets[i]) {
                truth.push_back(value > 0.5F ? 1 : 0);
            }
        }
        const MultiLabelScores all{labels_.size(), figures, truth};
        const auto tuned = tuneThreshold(all);
        // The figures at the threshold the run serves: the job's, else the tuned one (they were
        // stored at 0.5 while predict used the tuned threshold: micro-F1 0.8828 shown, 0.8904
        // served).
        const double used = threshold_.value_or(tuned.threshold);
        const auto report = multiLabelReportOf(all, used);
        TaskScores scores;
        scores.accuracy = report.subsetAccuracy;
        scores.macroF1 = report.macroF1;
        auto json = toJson(report);
        auto perLabel = json.value("per_label", nlohmann::json::array());
        json.erase("per_label");
        json.erase("threshold");  // the report says it once, beside the tuned one
        for (std::size_t l = 0; l < perLabel.size() && l < labels_.size(); ++l) {
            perLabel[l]["label"] = labels_[l];
        }
        scores.report = {{"task", toString(TaskKind::MultiLabel)},
                         {"main", std::string(multiLabelTask().headlineMetric())},
                         {"higher_is_better", true},
                         {"figures", json},
                         {"threshold", used},
                         {"threshold_source", threshold_ ? "fixed" : "tuned on validation"},
                         {"tuned_threshold", tuned.threshold},
                         {"tuned_micro_f1", tuned.microF1},
                         {"per_label", perLabel},
                         {"threshold_curve", toJson(tuned.curve)}};
        // Whether a probability of 0.8 means a label present 8 times in 10: every label's
        // probability against its presence, pooled (task/Calibration.h, the binary form).
        if (!figures.empty()) {
            CalibrationReport calibration;
            calibration.form = CalibrationForm::Binary;
            calibration.before =
                calibrationOf(figures, std::vector<bool>(truth.begin(), truth.end()));
            scores.calibration = calibration.toJson();
        }
        scores.examples = examplesOf(figures, used);
        return scores;
    }

    /// Each example's labels at the threshold served, the labels it missed and added, the
    /// least probability it gave its truth and its binary cross-entropy (the mean over the
    /// labels, as the loss).
    std::vector<ExampleResult> examplesOf(const std::vector<double>& probabilities,
                                          double threshold) const {
        const std::size_t width = labels_.size();
        std::vector<ExampleResult> rows;
        if (probabilities.size() != set_.size() * width || width == 0) {
            return rows;
        }
        // log(p) as BCE-with-logits computes it would be exact; from the probability it is
        // clamped as torch's binary_cross_entropy clamps log to -100.
        auto logOf = [](double p) { return std::max(std::log(p), -100.0); };
        auto listed = [](const std::vector<std::string>& names) {
            std::string text;
            for (const auto& name : names) {
                text += (text.empty() ? "" : ", ") + name;
            }
            return text.empty() ? std::string("(none)") : text;
        };
        rows.resize(set_.size());
        for (std::size_t i = 0; i < set_.size(); ++i) {
            auto& row = rows[i];
            row.example = i;
            std::vector<std::string> truth;
            std::vector<std::string> predicted;
            double loss = 0.0;
            double least = 1.0;
            for (std::size_t l = 0; l < width; ++l) {
                const double p = probabilities[i * width + l];
                const bool present = set_.targets[i][l] > 0.5F;
                const bool chosen = p >= threshold;
                const double pTruth = present ? p : 1.0 - p;
                loss -= logOf(pTruth);
                least = std::min(least, pTruth);
                if (present) {
                    truth.push_back(labels_[l]);
                }
                if (chosen) {
                    predicted.push_back(labels_[l]);
                }
                if (present && !chosen) {
                    row.missed.push_back(labels_[l]);
                } else if (chosen && !present) {
                    row.added.push_back(labels_[l]);
                }
            }
            row.truth = listed(truth);
            row.predicted = listed(predicted);
            row.truthProbability = least;
            row.loss = loss / static_cast<double>(width);
            row.correct = row.missed.empty() && row.added.empty();
        }
        return rows;
    }

private:
    const TokenizedSet& set_;
    std::vector<std::size_t> order_;
    std::vector<std::string> labels_;
    std::optional<double> threshold_;  ///< the job's; none: tuned
    at::Tensor probabilities_;
};

class MultiLabelObjective final : public TaskObjective {
public:
    MultiLabelObjective(const TrainingData& data, const ObjectiveOptions& options,
                        c10::Device device)
        : labels_(data.labels.names),
          threshold_(options.threshold),
          focalGamma_(options.focalGamma) {
        if (options.balanced) {
            // BCE's pos_weight: each label's positives weighted negatives / positives over the
            // training set (1 where a label has no positives or no negatives).
            const std::size_t width = labels_.size();
            std::vector<double> positives(width, 0.0);
            for (const auto& row : data.train.targets) {
                for (std::size_t l = 0; l < width; ++l) {
                    positives[l] += row[l];
                }
            }
            std::vector<float> weights(width, 1.0F);
            const auto total = static_cast<double>(data.train.size());
            for (std::size_t l = 0; l < width; ++l) {
                if (positives[l] > 0.0 && positives[l] < total) {
                    weights[l] = static_cast<float>((total - positives[l]) / positives[l]);
                }
            }
            positiveWeights_ = at::tensor(weights, at::kFloat).to(device);
        }
    }

    TaskKind kind() const override { return TaskKind::MultiLabel; }

    at::Tensor targets(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                       const TokenBatch&, c10::Device device) const override {
        const auto width = static_cast<std::int64_t>(labels_.size());
        std::vector<float> rows;
        rows.reserve(examples.size() * labels_.size());
        for (const auto index : examples) {
            rows.insert(rows.end(), set.targets[index].begin(), set.targets[index].end());
        }
        return toDevice(at::tensor(rows, at::kFloat).reshape({-1, width}), device);
    }

    at::Tensor lossSum(const at::Tensor& logits, const at::Tensor& targets) const override {
        // The mean over labels of each example's BCE, summed over the examples: divided by the
        // step's examples it is BCEWithLogitsLoss's mean over examples x labels.
        const auto labels = static_cast<double>(labels_.size());
        if (focalGamma_ == 0.0) {
            return at::binary_cross_entropy_with_logits(logits, targets, {}, positiveWeights_,
                                                        at::Reduction::Sum) /
                   labels;
        }
        // Focal, per label as torchvision's sigmoid_focal_loss: BCE x (1 - p_t)^gamma.
        const auto losses = at::binary_cross_entropy_with_logits(
            logits, targets, {}, positiveWeights_, at::Reduction::None);
        const auto p = logits.sigmoid();
        const auto pTrue = p * targets + (1.0 - p) * (1.0 - targets);
        return (losses * (1.0 - pTrue).pow(focalGamma_)).sum() / labels;
    }

    std::unique_ptr<TaskEvaluation> startEvaluation(const TokenizedSet& set,
                                                    const std::vector<std::size_t>& order,
                                                    c10::Device device) const override {
        return std::make_unique<MultiLabelEvaluation>(set, order, labels_, threshold_, device);
    }

private:
    std::vector<std::string> labels_;
    std::optional<double> threshold_;
    double focalGamma_;
    at::Tensor positiveWeights_;  ///< undefined: unweighted
};

}  // namespace

std::unique_ptr<TaskObjective> makeMultiLabelObjective(const TrainingData& data,
                                                       const ObjectiveOptions& options,
                                                       c10::Device device) {
    return std::make_unique<MultiLabelObjective>(data, options, device);
}

}  // namespace bert
