#pragma once

#include <torch/optim/adamw.h>

namespace bert {

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
};

}  // namespace bert
