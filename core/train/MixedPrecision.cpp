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

namespace {

void setCudaPrecision(at::Float32Op op, bool tf32) {
    at::globalContext().setFloat32Precision(
        at::Float32Backend::CUDA, op,
        tf32 ? at::Float32Precision::TF32 : at::Float32Precision::IEEE);
}

}  // namespace

bool Tf32Scope::matmulUsesTf32() {
    return at::globalContext().float32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL) ==
           at::Float32Precision::TF32;
}

bool Tf32Scope::convolutionUsesTf32() {
    return at::globalContext().float32Precision(at::Float32Backend::CUDA, at::Float32Op::CONV) ==
           at::Float32Precision::TF32;
}

Tf32Scope::Tf32Scope(bool enabled)
    : previousMatmul_(matmulUsesTf32()), previousConvolution_(convolutionUsesTf32()) {
    // What transformers' TrainingArguments(tf32=...) sets on torch >= 2.9 (training_args.py:
    // torch.backends.cuda.matmul.fp32_precision and torch.backends.cudnn.conv.fp32_precision).
    // The legacy setters would keep the legacy flag in step too, but the legacy getters that
    // read them back throw after another user of the new API (aten/src/ATen/Context.cpp,
    // allowTF32CuBLAS: "mix of legacy API and new API"), so this class never touches them.
    setCudaPrecision(at::Float32Op::MATMUL, enabled);
    setCudaPrecision(at::Float32Op::CONV, enabled);
}

Tf32Scope::~Tf32Scope() {
    setCudaPrecision(at::Float32Op::MATMUL, previousMatmul_);
    setCudaPrecision(at::Float32Op::CONV, previousConvolution_);
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
