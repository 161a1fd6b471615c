#include "train/FusedAdamW.h"

#include <stdexcept>

#include <ATen/ops/_foreach_add.h>
#include <ATen/ops/_foreach_norm.h>
#include <ATen/ops/_fused_adamw.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/full.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros_like.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "data/HostReads.h"

namespace bert {
namespace {

void refuseAmsgrad(const std::vector<torch::optim::OptimizerParamGroup>& groups,
                   const torch::optim::AdamWOptions& defaults) {
    bool amsgrad = defaults.amsgrad();
    for (const auto& group : groups) {
        if (group.has_options()) {
            amsgrad = amsgrad ||
                      static_cast<const torch::optim::AdamWOptions&>(group.options()).amsgrad();
        }
    }
    if (amsgrad) {
        throw std::invalid_argument("FusedAdamW does not implement amsgrad");
    }
}

}  // namespace

torch::Tensor gradientNorm(const std::vector<torch::Tensor>& parameters) {
    std::vector<torch::Tensor> gradients;
    for (const auto& parameter : parameters) {
        if (parameter.grad().defined()) {
            gradients.push_back(parameter.grad());
        }
    }
    if (gradients.empty()) {
        return at::zeros({}, at::kFloat);
    }
    // As clip_grad_norm_ (torch/nn/utils/clip_grad.py): the norms of all gradients in one
    // _foreach_norm (a few kernels on CUDA, not one per parameter), then the norm of those.
    const auto norms = at::_foreach_norm(gradients, 2);
    return norms.size() == 1 ? norms.front() : at::stack(norms).norm();
}

FusedAdamW::FusedAdamW(const std::vector<torch::optim::OptimizerParamGroup>& groups,
                       torch::optim::AdamWOptions defaults)
    : torch::optim::AdamW(groups, defaults) {
    refuseAmsgrad(groups, defaults);
}

FusedAdamW::FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions defaults)
    : FusedAdamW(std::vector<torch::optim::OptimizerParamGroup>{torch::optim::OptimizerParamGroup(
                     std::move(params))},
                 std::move(defaults)) {}

torch::Tensor& FusedAdamW::deviceStep(const torch::Tensor& param,
                                      const torch::optim::AdamWParamState& state) {
    auto& entry = deviceSteps_[param.unsafeGetTensorImpl()];
    if (!entry.count.defined() || entry.state != &state || entry.hostStep != state.step()) {
        entry.state = &state;
        entry.hostStep = state.step();
        entry.count =
            at::full({}, static_cast<double>(state.step()), param.options().dtype(at::kFloat));
    }
    return entry.count;
}

torch::Tensor FusedAdamW::step(LossClosure closure) {
    const torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) {
        const at::AutoGradMode enableGrad(true);
        loss = closure();
    }
    const double divisor = gradientDivisor_;
    const auto divisorTensor = std::move(divisorTensor_);
    const auto foundInf = std::move(foundInf_);
    gradientDivisor_ = 1.0;
    divisorTensor_ = torch::Tensor();
    foundInf_ = torch::Tensor();
    for (auto& group : param_groups()) {
        const auto& options = static_cast<const torch::optim::AdamWOptions&>(group.options());
        std::vector<torch::Tensor> params;
        std::vector<torch::Tensor> grads;
        std::vector<torch::Tensor> expAvgs;
        std::vector<torch::Tensor> expAvgSqs;
        std::vector<torch::Tensor> steps;
        for (auto& param : group.params()) {
            if (!param.grad().defined()) {
                continue;
            }
            auto& slot = state_[param.unsafeGetTensorImpl()];
            if (!slot) {
                auto fresh = std::make_unique<torch::optim::AdamWParamState>();
                fresh->step(0);
                fresh->exp_avg(at::zeros_like(param, at::MemoryFormat::Preserve));
                fresh->exp_avg_sq(at::zeros_like(param, at::MemoryFormat::Preserve));
                slot = std::move(fresh);
            }
            auto& state = static_cast<torch::optim::AdamWParamState&>(*slot);
            // The kernel reads the step count (after this step) from a float tensor beside the
            // parameter, as PyTorch keeps state["step"]; our state keeps the integer too.
            steps.push_back(deviceStep(param, state));
            state.step(state.step() + 1);
            deviceSteps_[param.unsafeGetTensorImpl()].hostStep = state.step();
            params.push_back(param);
            grads.push_back(param.grad());
            expAvgs.push_back(state.exp_avg());
            expAvgSqs.push_back(state.exp_avg_sq());
        }
        if (params.empty()) {
            continue;
        }
        const auto& device = params.front().device();
        // torch/optim/adam.py, _fused_adam: steps += 1, the kernel, then steps -= found_inf.
        at::_foreach_add_(steps, 1.0);
        const auto [beta1, beta2] = options.betas();
        std::optional<at::Tensor> gradScale;
        if (divisorTensor.defined()) {
            gradScale = divisorTensor.to(device, at::kFloat, /*non_blocking=*/true);
        } else if (divisor != 1.0) {
            gradScale = at::full({}, divisor, params.front().options().dtype(at::kFloat));
        }
        std::optional<at::Tensor> found;
        if (foundInf.defined()) {
            found = foundInf.to(device, at::kFloat, /*non_blocking=*/true);
        }
        at::_fused_adamw_(params, grads, expAvgs, expAvgSqs, /*max_exp_avg_sqs=*/{}, steps,
                          options.lr(), beta1, beta2, options.weight_decay(), options.eps(),
                          /*amsgrad=*/false, /*maximize=*/false, gradScale, found);
        if (found) {
            // There is no _foreach_sub_ of one tensor: a Tensor would bind to the list overload
            // as a list of one. adam.py subtracts [found_inf] * len(steps); add with alpha -1.
            at::_foreach_add_(steps, *found, /*alpha=*/-1);
            unsettled_ = true;
        }
    }
    return loss;
}

void FusedAdamW::settleStepCounts() {
    if (!unsettled_) {
        return;
    }
    unsettled_ = false;
    std::vector<torch::optim::AdamWParamState*> states;
    std::vector<torch::Tensor> counts;
    for (auto& [key, slot] : state_) {
        const auto found = deviceSteps_.find(key);
        if (found == deviceSteps_.end() || found->second.state != slot.get()) {
            continue;  // replaced from outside: its integer is the truth
        }
        states.push_back(static_cast<torch::optim::AdamWParamState*>(slot.get()));
        counts.push_back(found->second.count.reshape({1}));
    }
    if (counts.empty()) {
        return;
    }
    // One read for every count (they may live on the device).
    const auto values = readValues(at::cat(counts));
    for (std::size_t i = 0; i < states.size(); ++i) {
        const auto step = static_cast<std::int64_t>(values[i]);
        states[i]->step(step);
        for (auto& [key, entry] : deviceSteps_) {
            if (entry.state == states[i]) {
                entry.hostStep = step;
            }
        }
    }
}

}  // namespace bert
