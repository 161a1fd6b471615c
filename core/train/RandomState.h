#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace bert {

/// The state of the default random generator of a device (CPU or CUDA), under its mutex.
/// Dropout draws from it: saving and restoring it replays the same masks.
at::Tensor getRngState(const c10::Device& device);
void setRngState(const c10::Device& device, const at::Tensor& state);

}  // namespace bert
