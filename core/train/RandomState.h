#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

namespace bert {

/// The state of the default random generator of a device (CPU or CUDA), under its mutex.
/// Dropout draws from it: saving and restoring it replays the same masks.
at::Tensor getRngState(const c10::Device& device);
void setRngState(const c10::Device& device, const at::Tensor& state);

/// Puts a device's generator back as it was when the scope began, however the scope ends: the
/// try/finally of torch.random.fork_rng, under which torch.utils.checkpoint recomputes. Work
/// that replays saved random state inside it cannot leave the stream rewound, not even when it
/// throws (an out-of-memory in a recomputed layer).
class RestoreRngOnExit {
public:
    explicit RestoreRngOnExit(c10::Device device) : device_(device), state_(getRngState(device)) {}
    ~RestoreRngOnExit() { setRngState(device_, state_); }
    RestoreRngOnExit(const RestoreRngOnExit&) = delete;
    RestoreRngOnExit& operator=(const RestoreRngOnExit&) = delete;

private:
    c10::Device device_;
    at::Tensor state_;
};

}  // namespace bert
