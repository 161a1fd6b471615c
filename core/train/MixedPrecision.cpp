#include "train/MixedPrecision.h"

#include <map>

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>

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

bool DynamicLossScaler::unscale(const std::vector<at::Tensor>& params) {
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
    return foundInf_.item<float>() > 0.0F;
}

void DynamicLossScaler::update() {
    at::_amp_update_scale_(scale_, growthTracker_, foundInf_, growthFactor_, backoffFactor_,
                           growthInterval_);
}

double DynamicLossScaler::scaleValue() const {
    return scale_.item<double>();
}

std::int64_t DynamicLossScaler::growthTracker() const {
    return growthTracker_.item<std::int64_t>();
}

void DynamicLossScaler::restore(double scale, std::int64_t growthTracker) {
    scale_.fill_(scale);
    growthTracker_.fill_(growthTracker);
}

}  // namespace bert
