// Single-label classification: softmax cross-entropy over the classes, optionally weighted, and
// the confusion matrix counted on the device (read once per evaluation: train/HostReads.h) with
// every example's logits, whose calibration (task/TemperatureScaling.h) the evaluation reports.
#include <cmath>

#include <ATen/ATen.h>

#include "data/Batch.h"
#include "task/TaskObjectiveKinds.h"
#include "task/TemperatureScaling.h"
#include "task/singlelabel/ConfusionMetrics.h"

namespace bert {

namespace {

// The most logits an evaluation keeps for its calibration: 64 MiB of doubles on the device.
constexpr std::size_t kCalibrationValues = std::size_t{1} << 23;

at::Tensor labelsOf(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                    c10::Device device) {
    std::vector<std::int64_t> labels;
    labels.reserve(examples.size());
    for (const auto index : examples) {
        labels.push_back(set.labels[index]);
    }
    return toDevice(at::tensor(labels, at::kLong), device);  // pinned, async
}

class SingleLabelEvaluation final : public TaskEvaluation {
public:
    SingleLabelEvaluation(const TokenizedSet& set, std::vector<std::size_t> order,
                          std::vector<std::string> names, c10::Device device)
        : set_(set),
          order_(std::move(order)),
          names_(std::move(names)),
          classes_(names_.size()),
          // In double: exact below 2^53 examples, and summed over ranks as it is.
          counts_(at::zeros({static_cast<std::int64_t>(classes_ * classes_)},
                            at::TensorOptions().dtype(at::kDouble).device(device))),
          // Every example's logits in its own place (zeros where another rank's are), for the
          // calibration: summed over ranks, each rank's rows come together. Not kept past
          // kCalibrationValues (a validation set of 100,000 texts in 84 classes): no
          // calibration then.
          logits_(set.size() * classes_ <= kCalibrationValues
                      ? at::zeros({static_cast<std::int64_t>(set.size()),
                                   static_cast<std::int64_t>(classes_)},
                                  at::TensorOptions().dtype(at::kDouble).device(device))
                      : at::Tensor()) {}

    void add(const at::Tensor& logits, const at::Tensor& targets, std::size_t first) override {
        // cell [true label][predicted] of the confusion matrix, flattened
        const auto cells = targets * static_cast<std::int64_t>(classes_) + logits.argmax(-1);
        counts_.index_add_(0, cells, at::ones({cells.size(0)}, counts_.options()));
        if (logits_.defined()) {
            std::vector<std::int64_t> places;
            places.reserve(static_cast<std::size_t>(logits.size(0)));
            for (std::int64_t b = 0; b < logits.size(0); ++b) {
                places.push_back(
                    static_cast<std::int64_t>(order_[first + static_cast<std::size_t>(b)]));
            }
            logits_.index_put_({toDevice(at::tensor(places, at::kLong), logits_.device())},
                               logits.to(at::kDouble));
        }
    }

    at::Tensor figures() override {
        return logits_.defined() ? at::cat({counts_, logits_.reshape({-1})}) : counts_;
    }

    TaskScores finish(const std::vector<double>& figures) const override {
        TaskScores scores;
        scores.confusion.assign(classes_, std::vector<std::int64_t>(classes_, 0));
        for (std::size_t t = 0; t < classes_; ++t) {
            for (std::size_t p = 0; p < classes_; ++p) {
                scores.confusion[t][p] = static_cast<std::int64_t>(figures[t * classes_ + p]);
            }
        }
        scores.accuracy = accuracyOf(scores.confusion);
        scores.macroF1 = macroF1Of(scores.confusion);
        // Whether the probabilities mean what they say, and the temperature that makes them.
        const auto cells = static_cast<std::int64_t>(classes_ * classes_);
        const auto rows = static_cast<std::int64_t>(set_.size());
        if (rows > 0 && static_cast<std::int64_t>(figures.size()) ==
                            cells + rows * static_cast<std::int64_t>(classes_)) {
            const auto logits =
                at::from_blob(const_cast<double*>(figures.data()) + cells,
                              {rows, static_cast<std::int64_t>(classes_)}, at::kDouble)
                    .clone();
            const auto labels = at::tensor(set_.labels, at::kLong);
            scores.calibration = calibrationReport(logits, labels).toJson();
            scores.examples = examplesOf(logits);
        }
        return scores;
    }

    /// Each example's class, its probability of the true class and its cross-entropy, from its
    /// logits [examples, classes] in double.
    std::vector<ExampleResult> examplesOf(const at::Tensor& logits) const {
        const auto logProbabilities = logits.log_softmax(-1).contiguous();
        const auto predicted = logits.argmax(-1).contiguous();
        const auto* lp = logProbabilities.data_ptr<double>();
        const auto* chosen = predicted.data_ptr<std::int64_t>();
        std::vector<ExampleResult> rows(set_.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            auto& row = rows[i];
            const auto truth = static_cast<std::size_t>(set_.labels[i]);
            const auto guess = static_cast<std::size_t>(chosen[i]);
            const double logTruth = lp[i * classes_ + truth];
            row.example = i;
            row.truthClass = static_cast<int>(truth);
            row.predictedClass = static_cast<int>(guess);
            row.truth = truth < names_.size() ? names_[truth] : std::to_string(truth);
            row.predicted = guess < names_.size() ? names_[guess] : std::to_string(guess);
            row.truthProbability = std::exp(logTruth);
            row.loss = -logTruth;
            row.correct = truth == guess;
        }
        return rows;
    }

private:
    const TokenizedSet& set_;
    std::vector<std::size_t> order_;
    std::vector<std::string> names_;
    std::size_t classes_;
    at::Tensor counts_;
    at::Tensor logits_;
};

class SingleLabelObjective final : public TaskObjective {
public:
    SingleLabelObjective(const TrainingData& data, const ObjectiveOptions& options,
                         c10::Device device)
        : names_(data.labels.names), focalGamma_(options.focalGamma) {
        const auto classes = names_.size();
        if (options.balanced) {
            // scikit-learn's "balanced": N / (classes x n_c). A class absent from the training
            // set gets weight 0 (it has no examples to weigh).
            std::vector<double> counts(classes, 0.0);
            for (const auto label : data.train.labels) {
                counts[static_cast<std::size_t>(label)] += 1.0;
            }
            std::vector<float> weights(classes, 0.0F);
            for (std::size_t c = 0; c < classes; ++c) {
                if (counts[c] > 0.0) {
                    weights[c] = static_cast<float>(static_cast<double>(data.train.size()) /
                                                    (static_cast<double>(classes) * counts[c]));
                }
            }
            weights_ = at::tensor(weights, at::kFloat).to(device);
        }
    }

    TaskKind kind() const override { return TaskKind::SingleLabel; }

    at::Tensor targets(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                       const TokenBatch&, c10::Device device) const override {
        return labelsOf(set, examples, device);
    }

    at::Tensor lossSum(const at::Tensor& logits, const at::Tensor& targets) const override {
        // Weighted, the sum is over w[label] x loss: divided by the step's example count (not
        // the sum of weights) it stays exact under accumulation, and balanced weights average
        // 1 over the training set.
        if (focalGamma_ == 0.0) {
            return at::cross_entropy_loss(logits, targets, weights_, at::Reduction::Sum);
        }
        // Focal: -(1 - p_t)^gamma log p_t, weighted as above.
        const auto logTrue = logits.log_softmax(-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1);
        auto losses = -(1.0 - logTrue.exp()).pow(focalGamma_) * logTrue;
        if (weights_.defined()) {
            losses = losses * weights_.index_select(0, targets);
        }
        return losses.sum();
    }

    std::unique_ptr<TaskEvaluation> startEvaluation(const TokenizedSet& set,
                                                    const std::vector<std::size_t>& order,
                                                    c10::Device device) const override {
        return std::make_unique<SingleLabelEvaluation>(set, order, names_, device);
    }

private:
    std::vector<std::string> names_;
    double focalGamma_;
    at::Tensor weights_;  ///< undefined: unweighted
};

}  // namespace

std::unique_ptr<TaskObjective> makeSingleLabelObjective(const TrainingData& data,
                                                        const ObjectiveOptions& options,
                                                        c10::Device device) {
    return std::make_unique<SingleLabelObjective>(data, options, device);
}

}  // namespace bert
