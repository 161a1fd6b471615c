#pragma once

#include <torch/optim/adamw.h>

namespace bert {

/// The total L2 norm of the parameters' gradients (those that have one), computed as
/// torch::nn::utils::clip_grad_norm_ computes it: each gradient's norm, then the norm of those.
double gradientNorm(const std::vector<torch::Tensor>& parameters);

/// AdamW whose step runs ATen's fused kernel (_fused_adamw_, the kernel behind PyTorch's
/// `AdamW(fused=True)`) once per parameter group, instead of LibTorch's per-parameter sequence of
/// eight element-wise operations with temporaries. Same update, same hyperparameters, same state
/// (torch::optim::AdamWParamState, so checkpoints and memory accounting read it unchanged); about
/// 6x faster on MiniLM's parameters on a CPU (benchmarks/optimizer.sh).
/// amsgrad is not supported: the trainer never sets it, and the constructor refuses it.
class FusedAdamW final : public torch::optim::AdamW {
public:
    FusedAdamW(const std::vector<torch::optim::OptimizerParamGroup>& groups,
               torch::optim::AdamWOptions defaults);
    FusedAdamW(std::vector<torch::Tensor> params, torch::optim::AdamWOptions defaults);

    torch::Tensor step(LossClosure closure = nullptr) override;

    /// The next step divides every gradient by divisor inside its kernel (the kernel's
    /// grad_scale): gradient clipping's factor folded into the update, instead of a pass that
    /// reads and writes every gradient. Back to 1 after that step.
    void divideNextGradientsBy(double divisor) { gradientDivisor_ = divisor; }

private:
    double gradientDivisor_ = 1.0;
};

}  // namespace bert
