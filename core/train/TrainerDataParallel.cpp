#include <algorithm>
#include <set>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "distributed/Collective.h"
#include "train/FusedAdamW.h"
#include "train/RandomState.h"
#include "train/Trainer.h"

// The Trainer under data parallel (distributed/Collective.h): joining a world, sharing each step
// out, reducing gradients, agreeing to stop, and what checkpoints gather and give back per rank.
// The steps and the loop themselves are in Trainer.cpp; measurements in TrainerMeasure.cpp.

namespace bert {

// ---- data parallel ---------------------------------------------------------------------------

void Trainer::joinDataParallel(Collective& collective) {
    // Same settings and data everywhere, or the ranks would train different models together.
    const auto hashOf = [](const std::string& text) {
        return static_cast<std::int64_t>(std::hash<std::string>{}(text) >> 1);
    };
    std::string lengths;
    for (const auto length : data_.train.lengths) {
        lengths += std::to_string(length) + ",";
    }
    for (const auto label : data_.train.labels) {
        lengths += std::to_string(label) + ";";
    }
    for (const auto& row : data_.train.targets) {
        for (const auto value : row) {
            lengths += std::to_string(value) + ";";
        }
    }
    for (const auto& row : data_.train.tokenLabels) {
        for (const auto tag : row) {
            lengths += std::to_string(tag) + ";";
        }
    }
    // The device and its memory cap may differ on purpose: on GPUs each rank has its own
    // (cuda:LOCAL_RANK), and ranks on smaller devices may rehearse or respect a smaller cap; the
    // micro-batch they can afford is agreed step by step (runStep), never the step's examples.
    auto settings = config_.toJson();
    settings.erase("device");
    settings.erase("memory_cap_bytes");
    const std::vector<std::int64_t> fingerprint = {
        hashOf(settings.dump()), hashOf(lengths), static_cast<std::int64_t>(data_.train.size()),
        static_cast<std::int64_t>(data_.validation.size())};
    const auto all = collective.allGather(fingerprint);
    for (std::size_t r = 1; r < all.size(); ++r) {
        if (all[r] != all.front()) {
            throw InputError("rank " + std::to_string(r) +
                             " was started with other settings or data than rank 0 (" +
                             std::string(all[r][0] != all[0][0] ? "settings" : "data") +
                             " differ); start every rank with the same command");
        }
    }
    std::vector<at::Tensor> weights;
    for (auto& parameter : bundle_.model->parameters()) {
        weights.push_back(parameter.detach());
    }
    {
        const torch::NoGradGuard noGrad;
        collective.broadcastFromRoot(weights);
    }
    collective_ = &collective;
    if (config_.shardOptimizer && collective.size() > 1) {
        // ZeRO stage 1, partitioned by parameter as PyTorch's ZeroRedundancyOptimizer does:
        // largest first, each to the rank holding the fewest elements so far. Every rank
        // computes the same partition.
        std::vector<std::size_t> order(trainable_.size());
        for (std::size_t i = 0; i < order.size(); ++i) {
            order[i] = i;
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return trainable_[a].numel() > trainable_[b].numel();
        });
        std::vector<std::int64_t> load(static_cast<std::size_t>(collective.size()), 0);
        owners_.assign(trainable_.size(), 0);
        for (const auto i : order) {
            const auto rank =
                static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
            owners_[i] = static_cast<int>(rank);
            load[rank] += trainable_[i].numel();
        }
        std::set<const void*> mine;
        for (std::size_t i = 0; i < trainable_.size(); ++i) {
            if (owners_[i] == collective.rank()) {
                mine.insert(trainable_[i].unsafeGetTensorImpl());
            }
        }
        makeOptimizer([&](const at::Tensor& parameter) {
            return mine.count(parameter.unsafeGetTensorImpl()) > 0;
        });
    }
    totalSteps_ = plannedSteps();  // a step now holds every rank's examples
}

std::size_t Trainer::globalStepExamples() const {
    return config_.stepExamples() *
           static_cast<std::size_t>(collective_ != nullptr ? collective_->size() : 1);
}

std::vector<std::size_t> Trainer::shareOf(const std::vector<std::size_t>& window) const {
    if (collective_ == nullptr) {
        return window;
    }
    // Contiguous, as even as can be: rank r of R takes [r n / R, (r + 1) n / R).
    const auto ranks = static_cast<std::size_t>(collective_->size());
    const auto rank = static_cast<std::size_t>(collective_->rank());
    const auto begin = window.size() * rank / ranks;
    const auto end = window.size() * (rank + 1) / ranks;
    return {window.begin() + static_cast<std::ptrdiff_t>(begin),
            window.begin() + static_cast<std::ptrdiff_t>(end)};
}

void Trainer::reduceGradients(const at::Tensor& lossSum) {
    // Last layers first, as backward produces them and as DDP fills its buckets.
    std::vector<at::Tensor> gradients;
    for (auto it = trainable_.rbegin(); it != trainable_.rend(); ++it) {
        auto& gradient = it->mutable_grad();
        if (!gradient.defined()) {
            gradient = at::zeros_like(*it);  // this rank had no example that reached it
        }
        gradients.push_back(gradient);
    }
    // The loss goes with them (its own bucket: another dtype), so that every rank has the
    // step's loss on the device without a read (train/HostReads.h).
    gradients.push_back(lossSum.reshape({1}));
    collective_->allReduceSum(gradients);
}

bool Trainer::stopRequested(const std::atomic<bool>& cancel) {
    const bool local = cancel.load();
    if (collective_ == nullptr) {
        return local;
    }
    return collective_->sumNumbers({local ? 1.0 : 0.0}).front() > 0.0;
}

std::vector<std::pair<std::string, at::Tensor>> Trainer::gatherForCheckpoint(
    std::vector<void*>& borrowed) {
    // Every rank's random state, so each continues its own dropout stream on resume.
    std::vector<std::pair<std::string, at::Tensor>> extra;
    const auto cpu = collective_->allGather(getRngState(c10::Device(c10::kCPU)));
    for (std::size_t r = 0; r < cpu.size(); ++r) {
        extra.emplace_back(rankRngTensor(static_cast<int>(r), false), cpu[r]);
    }
    if (device_.is_cuda()) {
        const auto onDevice = collective_->allGather(getRngState(device_));
        for (std::size_t r = 0; r < onDevice.size(); ++r) {
            extra.emplace_back(rankRngTensor(static_cast<int>(r), true), onDevice[r]);
        }
    }
    // Sharded optimizer state: the owners send their moments to rank 0, which writes them as
    // if it held them (and lets them go after writing). Every rank has stepped equally often,
    // so either all have optimizer state or none has.
    if (owners_.empty() || optimizer_->state().empty()) {
        return extra;
    }
    const int rank = collective_->rank();
    std::int64_t steps = 0;
    if (rank == 0) {
        const auto& any = *optimizer_->state().begin()->second;
        steps = static_cast<const torch::optim::AdamWParamState&>(any).step();
    }
    for (std::size_t i = 0; i < trainable_.size(); ++i) {
        const int owner = owners_[i];
        if (owner == 0 || (rank != 0 && rank != owner)) {
            continue;
        }
        void* key = trainable_[i].unsafeGetTensorImpl();
        if (rank == owner) {
            const auto& adam =
                static_cast<const torch::optim::AdamWParamState&>(*optimizer_->state().at(key));
            collective_->send(adam.exp_avg(), 0);
            collective_->send(adam.exp_avg_sq(), 0);
            continue;
        }
        auto expAvg = at::empty_like(trainable_[i].detach(), at::kFloat);
        auto expAvgSq = at::empty_like(expAvg);
        collective_->receive(expAvg, owner);
        collective_->receive(expAvgSq, owner);
        auto adam = std::make_unique<torch::optim::AdamWParamState>();
        adam->step(steps);
        adam->exp_avg(expAvg);
        adam->exp_avg_sq(expAvgSq);
        optimizer_->state()[key] = std::move(adam);
        borrowed.push_back(key);
    }
    return extra;
}

void Trainer::dropOthersMoments() {
    // loadCheckpoint restored every trainable parameter's moments; sharded, this rank keeps its
    // own share only.
    for (std::size_t i = 0; i < owners_.size(); ++i) {
        if (owners_[i] != collective_->rank()) {
            optimizer_->state().erase(trainable_[i].unsafeGetTensorImpl());
        }
    }
}

}  // namespace bert
