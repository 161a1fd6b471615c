#pragma once

#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include "train/TrainingConfig.h"

namespace bert {

/// The dtype autocast runs in for a precision setting (bf16, fp16; fp32 runs no autocast).
inline c10::ScalarType autocastDtype(Precision precision) {
    return precision == Precision::Fp16 ? c10::kHalf : c10::kBFloat16;
}

/// RAII autocast for one device type on the current thread (LibTorch has no C++ guard:
/// pytorch #44710). Saves the thread-local state, enables autocast with dtype, and on exit
/// clears the cast cache when leaving the outermost region and restores the saved state.
class AutocastGuard {
public:
    AutocastGuard(c10::DeviceType deviceType, bool enabled, c10::ScalarType dtype);
    ~AutocastGuard();
    AutocastGuard(const AutocastGuard&) = delete;
    AutocastGuard& operator=(const AutocastGuard&) = delete;

private:
    c10::DeviceType deviceType_;
    bool previousEnabled_;
    c10::ScalarType previousDtype_;
};

/// TF32 for fp32 matrix multiplies (cuBLAS) and convolutions (cuDNN) while it lives, as
/// transformers' --tf32 does on torch 2.9 and newer: through the fp32_precision API
/// (torch.backends.cuda.matmul.fp32_precision and torch.backends.cudnn.conv.fp32_precision =
/// "tf32"); restores what was in effect on exit. Read and set through that API only: the legacy
/// getters (allowTF32CuBLAS) throw once the new API has set a state the legacy flag does not
/// hold, which any code in the process may have done. The flags are process-wide and act on
/// CUDA only (Ampere or newer): the Trainer holds one on a CUDA device, never on the CPU.
class Tf32Scope {
public:
    explicit Tf32Scope(bool enabled);
    ~Tf32Scope();
    Tf32Scope(const Tf32Scope&) = delete;
    Tf32Scope& operator=(const Tf32Scope&) = delete;

    /// Whether fp32 matrix multiplies on CUDA use TF32 now, as the fp32_precision API resolves
    /// it (never throws, whichever API set it).
    static bool matmulUsesTf32();
    /// The same for cuDNN convolutions.
    static bool convolutionUsesTf32();

private:
    bool previousMatmul_;
    bool previousConvolution_;
};

/// Dynamic loss scaling for fp16 (torch.amp.GradScaler's algorithm on LibTorch's ATen ops):
/// multiply the loss by the scale before backward; unscale the gradients and check them for
/// inf/NaN before clipping; skip the optimizer step when any is non-finite and multiply the
/// scale by backoff; after growthInterval clean steps in a row multiply it by growth.
class DynamicLossScaler {
public:
    /// The reference's defaults: 2^16, x2 every 2000 clean steps, x0.5 on overflow.
    static constexpr double kInitialScale = 65536.0;
    static constexpr double kGrowthFactor = 2.0;
    static constexpr double kBackoffFactor = 0.5;
    static constexpr std::int64_t kGrowthInterval = 2000;

    explicit DynamicLossScaler(c10::Device device, double initialScale = kInitialScale,
                               double growthFactor = kGrowthFactor,
                               double backoffFactor = kBackoffFactor,
                               std::int64_t growthInterval = kGrowthInterval);

    at::Tensor scale(const at::Tensor& loss) const;
    /// Divides the gradients of params by the scale in place; returns found_inf, a 0-dim float
    /// tensor on the scale's device, 1 when any gradient held inf or NaN (then the optimizer
    /// step must be skipped: FusedAdamW::skipNextStepIf) and 0 otherwise. Nothing is read back
    /// (torch/amp/grad_scaler.py, unscale_: found_inf stays a tensor).
    at::Tensor unscale(const std::vector<at::Tensor>& params);
    /// Updates the scale from the last unscale's finding, on the device. Call once per
    /// optimizer step.
    void update();

    /// The scale as a tensor on its device ([1] float32), for reading with the step's figures.
    const at::Tensor& scaleTensor() const { return scale_; }
    /// The scale and the growth tracker, read from the device (train/HostReads.h counts it):
    /// for checkpoints, not for every step.
    double scaleValue() const;
    std::int64_t growthTracker() const;
    /// For checkpoints: restore scale and growth tracker.
    void restore(double scale, std::int64_t growthTracker);

private:
    at::Tensor scale_;          // [1] float32
    at::Tensor growthTracker_;  // [1] int32
    at::Tensor foundInf_;       // [1] float32
    double growthFactor_;
    double backoffFactor_;
    std::int64_t growthInterval_;
};

}  // namespace bert
