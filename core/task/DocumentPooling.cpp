#include "task/DocumentPooling.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "task/Task.h"

namespace bert {

WindowPooling effectivePooling(WindowPooling pooling, TaskKind task) {
    return pooling == WindowPooling::Task ? taskOf(task).windowPooling() : pooling;
}

at::Tensor poolByDocument(const at::Tensor& logits, const at::Tensor& document,
                          std::int64_t documents, WindowPooling pooling) {
    auto shape = logits.sizes().vec();
    shape[0] = documents;
    auto pooled = at::zeros(shape, logits.options());
    return pooled.index_reduce_(0, document, logits,
                                pooling == WindowPooling::Max ? "amax" : "mean",
                                /*include_self=*/false);
}

namespace {

class WindowEvaluation final : public TaskEvaluation {
public:
    WindowEvaluation(std::unique_ptr<TaskEvaluation> inner, std::vector<std::size_t> documentOf,
                     WindowPooling pooling, c10::Device device, const TaskObjective& objective)
        : inner_(std::move(inner)),
          documentOf_(std::move(documentOf)),
          pooling_(pooling),
          device_(device),
          objective_(objective) {}

    void add(const at::Tensor& logits, const at::Tensor& targets, std::size_t first) override {
        logits_.push_back(logits);
        targets_.push_back(targets);
        firsts_.push_back(first);
    }

    at::Tensor figures() override {
        // The documents' loss and their count, after the task's figures (they add up over
        // data parallel ranks as those do).
        auto loss = at::zeros({2}, at::TensorOptions().dtype(at::kDouble).device(device_));
        if (!logits_.empty()) {
            // The windows seen, in their positions' documents; this rank's documents are the
            // contiguous run from the first window's to the last's.
            std::vector<std::int64_t> rows;
            for (std::size_t b = 0; b < logits_.size(); ++b) {
                for (std::int64_t i = 0; i < logits_[b].size(0); ++i) {
                    rows.push_back(static_cast<std::int64_t>(
                        documentOf_[firsts_[b] + static_cast<std::size_t>(i)]));
                }
            }
            const auto low = *std::min_element(rows.begin(), rows.end());
            const auto high = *std::max_element(rows.begin(), rows.end());
            auto document =
                at::tensor(rows, at::TensorOptions().dtype(at::kLong)).to(device_) - low;
            const auto count = high - low + 1;
            const auto logits = poolByDocument(at::cat(logits_), document, count, pooling_);
            // A document's windows share its target: the largest is the target.
            auto targets = at::cat(targets_);
            const bool integral = !at::isFloatingType(targets.scalar_type());
            const auto asFloat = integral ? targets.to(at::kDouble) : targets;
            auto documentTargets = poolByDocument(asFloat, document, count, WindowPooling::Max);
            if (integral) {
                documentTargets = documentTargets.to(targets.scalar_type());
            }
            inner_->add(logits, documentTargets, static_cast<std::size_t>(low));
            loss[0] = objective_.lossSum(logits, documentTargets).to(at::kDouble);
            loss[1] = static_cast<double>(count);
        }
        logits_.clear();
        targets_.clear();
        firsts_.clear();
        return at::cat({inner_->figures(), loss});
    }

    TaskScores finish(const std::vector<double>& figures) const override {
        const std::vector<double> inner(figures.begin(), figures.end() - 2);
        auto scores = inner_->finish(inner);
        const double documents = figures.back();
        scores.loss = figures[figures.size() - 2] / std::max(1.0, documents);
        return scores;
    }

private:
    std::unique_ptr<TaskEvaluation> inner_;
    std::vector<std::size_t> documentOf_;
    WindowPooling pooling_;
    c10::Device device_;
    const TaskObjective& objective_;
    std::vector<at::Tensor> logits_;
    std::vector<at::Tensor> targets_;
    std::vector<std::size_t> firsts_;
};

}  // namespace

std::unique_ptr<TaskEvaluation> poolWindows(std::unique_ptr<TaskEvaluation> inner,
                                            std::vector<std::size_t> documentOf,
                                            WindowPooling pooling, c10::Device device,
                                            const TaskObjective& objective) {
    return std::make_unique<WindowEvaluation>(std::move(inner), std::move(documentOf), pooling,
                                              device, objective);
}

}  // namespace bert
