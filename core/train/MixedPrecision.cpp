#include "train/MixedPrecision.h"

#include <map>

#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <ATen/autocast_mode.h>

#include "data/HostReads.h"

namespace bert {

AutocastGuard::AutocastGuard(c10::DeviceType deviceType, bool enabled, c10::ScalarType dtype)
    : deviceType_(deviceType),
      previousEnabled_(at::autocast::is_autocast_enabled(deviceType)),
      previousDtype_(at::autocast::get_autocast_dtype(deviceType)) {
    at::autocast::set_autocast_enabled(deviceType_, enabled);
    at::autocast::set_autocast_dtype(deviceType_, dtype);
    at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
    if (at::autocast::decrement_nesting() == 0) {
        at::autocast::clear_cache();
    }
    at::autocast::set_autocast_enabled(deviceType_, previousEnabled_);
    at::autocast::set_autocast_dtype(deviceType_, previousDtype_);
}

Tf32Scope::Tf32Scope(bool enabled)
    : previousCuBlas_(at::globalContext().allowTF32CuBLAS()),
      previousCuDnn_(at::globalContext().allowTF32CuDNN()) {
    // aten/src/ATen/Context.cpp: setAllowTF32CuBLAS keeps the legacy matmul precision and the
    // newer fp32_precision setting of "cuda"/"matmul" in step (what
    // torch.backends.cuda.matmul.allow_tf32 sets).
    at::globalContext().setAllowTF32CuBLAS(enabled);
    at::globalContext().setAllowTF32CuDNN(enabled);
}

Tf32Scope::~Tf32Scope() {
    at::globalContext().setAllowTF32CuBLAS(previousCuBlas_);
    at::globalContext().setAllowTF32CuDNN(previousCuDnn_);
}

DynamicLossScaler::DynamicLossScaler(c10::Device device, double initialScale, double growthFactor,
                                     double backoffFactor, std::int64_t growthInterval)
    : scale_(at::full({1}, initialScale, at::TensorOptions().dtype(at::kFloat).device(device))),
      growthTracker_(at::zeros({1}, at::TensorOptions().dtype(at::kInt).device(device))),
      foundInf_(at::zeros({1}, at::TensorOptions().dtype(at::kFloat).device(device))),
      growthFactor_(growthFactor),
      backoffFactor_(backoffFactor),
      growthInterval_(growthInterval) {}

at::Tensor DynamicLossScaler::scale(const at::Tensor& loss) const {
    return loss * scale_.to(loss.scalar_type());
}

at::Tensor DynamicLossScaler::unscale(const std::vector<at::Tensor>& params) {
    foundInf_.zero_();
    const auto inverse = scale_.to(at::kDouble).reciprocal().to(at::kFloat);
    // The fused kernel wants gradients grouped by device and dtype.
    std::map<std::pair<int, int>, std::vector<at::Tensor>> groups;
    for (const auto& param : params) {
        const auto& grad = param.grad();
        if (grad.defined()) {
            groups[{static_cast<int>(grad.device().type()), static_cast<int>(grad.scalar_type())}]
                .push_back(grad);
        }
    }
    for (auto& [key, grads] : groups) {
        auto foundOnDevice = foundInf_.to(grads.front().device());
        at::_amp_foreach_non_finite_check_and_unscale_(grads, foundOnDevice,
                                                       inverse.to(grads.front().device()));
        if (!foundOnDevice.is_same(foundInf_)) {
            foundInf_.add_(foundOnDevice.to(foundInf_.device()));
        }
    }
    // The check writes 1 per group that found one: at most 1 for the optimizer, whose kernel
    // skips on exactly 1 (found_inf == 1 in ATen's fused Adam kernels).
    return foundInf_.clamp_max(1.0).reshape({});
}

void DynamicLossScaler::update() {
    at::_amp_update_scale_(scale_, growthTracker_, foundInf_, growthFactor_, backoffFactor_,
                           growthInterval_);
}

double DynamicLossScaler::scaleValue() const {
    return readValue(scale_);
}

std::int64_t DynamicLossScaler::growthTracker() const {
    return static_cast<std::int64_t>(readValue(growthTracker_));
}

void DynamicLossScaler::restore(double scale, std::int64_t growthTracker) {
    scale_.fill_(scale);
    growthTracker_.fill_(growthTracker);
}

}  // namespace bert
