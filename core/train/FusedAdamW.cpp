#include "train/FusedAdamW.h"

#include <stdexcept>

#include <ATen/ops/_fused_adamw.h>
#include <ATen/ops/full.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros_like.h>
#include <torch/csrc/autograd/grad_mode.h>

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

double gradientNorm(const std::vector<torch::Tensor>& parameters) {
    std::vector<torch::Tensor> norms;
    for (const auto& parameter : parameters) {
        if (parameter.grad().defined()) {
            norms.push_back(parameter.grad().norm());
        }
    }
    if (norms.empty()) {
        return 0.0;
    }
    return (norms.size() == 1 ? norms.front() : at::stack(norms).norm()).item<double>();
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

torch::Tensor FusedAdamW::step(LossClosure closure) {
    const torch::NoGradGuard noGrad;
    torch::Tensor loss;
    if (closure) {
        const at::AutoGradMode enableGrad(true);
        loss = closure();
    }
    const double divisor = gradientDivisor_;
    gradientDivisor_ = 1.0;
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
            state.step(state.step() + 1);
            params.push_back(param);
            grads.push_back(param.grad());
            expAvgs.push_back(state.exp_avg());
            expAvgSqs.push_back(state.exp_avg_sq());
            // The kernel reads the step count (after this step) from a float tensor beside the
            // parameter, as PyTorch keeps it; our state keeps the integer.
            steps.push_back(
                at::full({}, static_cast<double>(state.step()), param.options().dtype(at::kFloat)));
        }
        if (params.empty()) {
            continue;
        }
        const auto [beta1, beta2] = options.betas();
        const auto gradScale = divisor != 1.0
                                   ? std::optional<at::Tensor>(at::full(
                                         {}, divisor, params.front().options().dtype(at::kFloat)))
                                   : std::nullopt;
        at::_fused_adamw_(params, grads, expAvgs, expAvgSqs, /*max_exp_avg_sqs=*/{}, steps,
                          options.lr(), beta1, beta2, options.weight_decay(), options.eps(),
                          /*amsgrad=*/false, /*maximize=*/false, gradScale);
    }
    return loss;
}

}  // namespace bert
