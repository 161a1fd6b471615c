#pragma once

#include <unordered_map>

#include <torch/optim/adamw.h>

namespace bert {

/// The total L2 norm of the parameters' gradients (those that have one), computed as
/// torch::nn::utils::clip_grad_norm_ computes it: each gradient's norm, then the norm of those.
/// A 0-dim float tensor on the gradients' device (0 without gradients): nothing is read back.
torch::Tensor gradientNorm(const std::vector<torch::Tensor>& parameters);

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
    void divideNextGradientsBy(double divisor) {
        gradientDivisor_ = divisor;
        divisorTensor_ = torch::Tensor();
    }
    /// The same with the divisor on the device (a 0-dim float tensor), as clipping computes it
    /// there: the host never reads it.
    void divideNextGradientsBy(const torch::Tensor& divisor) { divisorTensor_ = divisor; }
    /// The next step is skipped on the device when foundInf (a 0-dim float tensor, exactly 0 or
    /// 1) is 1: no parameter or moment changes and no step is counted. torch.amp.GradScaler
    /// hands found_inf to a fused optimizer this way (torch/amp/grad_scaler.py, step), and
    /// torch/optim/adam.py's _fused_adam takes the step back with _foreach_sub_(steps,
    /// found_inf) after the kernel, which returns early on it.
    void skipNextStepIf(const torch::Tensor& foundInf) { foundInf_ = foundInf; }

    /// Writes the device's step counts into the state objects' step(). Steps that found_inf
    /// skipped are counted there only after this (one counted read, train/HostReads.h); call
    /// before reading state() for a checkpoint. Nothing to do (no read) when no step was given a
    /// found_inf since the last call.
    void settleStepCounts();

private:
    /// The step count of param's state as a float tensor on its device (what the kernel reads),
    /// kept across steps like PyTorch's state["step"]; made again from state.step() when the
    /// state object was replaced (a resumed checkpoint) or its count changed from outside.
    torch::Tensor& deviceStep(const torch::Tensor& param,
                              const torch::optim::AdamWParamState& state);

    struct DeviceStep {
        const void* state = nullptr;  ///< the state object the count belongs to
        std::int64_t hostStep = 0;    ///< state.step() as this optimizer last set it
        torch::Tensor count;          ///< 0-dim float on the parameter's device
    };
    std::unordered_map<const void*, DeviceStep> deviceSteps_;  ///< by parameter TensorImpl
    double gradientDivisor_ = 1.0;
    torch::Tensor divisorTensor_;
    torch::Tensor foundInf_;
    bool unsettled_ = false;  ///< a step ran with found_inf since settleStepCounts
};

}  // namespace bert
