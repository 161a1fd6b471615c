#pragma once

// Every read of tensor values by the host during training goes through here, and is counted.
//
// On a GPU each such read (.item(), .cpu(), a blocking copy to host memory) stops the host until
// the device has caught up with everything queued before it, so the training thread cannot queue
// the next micro-batch meanwhile. The trainer keeps losses, gradient norms, the fp16 overflow
// flag and the loss scale on the device (as torch.amp.GradScaler with a fused optimizer does:
// grad_scale and found_inf go to _fused_adamw_, which unscales and skips on the device) and reads
// them in one go only when a step is logged, an evaluation ends, or a decision needs them.
// Counting the reads lets a test (on the CPU too: the code paths are the same) hold the trainer
// to that: none per micro-batch, one per logged step (tests/core/HostReadsTest.cpp). On CUDA a
// test also turns PyTorch's sync debug mode to "error" around training, so that a read that
// bypasses this helper fails (tests/cuda).

#include <cstdint>
#include <optional>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Event.h>

namespace bert {

/// The values of tensor (any device, any real dtype, any shape), flattened, as doubles. One
/// counted read.
std::vector<double> readValues(const at::Tensor& tensor);
/// The value of a one-element tensor. One counted read.
double readValue(const at::Tensor& tensor);
/// tensor's contents in host memory (tensor itself when it is on the CPU already). One counted
/// read.
at::Tensor readToHost(const at::Tensor& tensor);

/// A read that does not wait when it starts: the constructor queues a copy of tensor's values
/// (any device, any real dtype, flattened) into pinned host memory behind the work already queued
/// on the device's current stream, and an event after the copy; finish() waits for that event
/// alone, so the work queued after the constructor keeps the device busy meanwhile (the copy and
/// event that torch.cuda's non_blocking .to("cpu") plus Event.synchronize() make). On the CPU the
/// values are copied at once. One counted read, made by finish().
class StagedRead {
public:
    StagedRead() = default;
    explicit StagedRead(const at::Tensor& tensor);
    /// Whether a read was started and not finished yet.
    bool pending() const { return host_.defined(); }
    /// The values as doubles; waits for the copy (not for later work). Ends the read.
    std::vector<double> finish();

private:
    at::Tensor host_;
    std::optional<c10::Event> copied_;
};

/// Reads made by this process so far (every thread).
std::uint64_t hostReadCount();

/// While it lives on a CUDA build, any synchronising CUDA call outside the helpers above raises
/// an error instead of stopping the host unnoticed (c10::cuda's sync debug mode, the C++ side
/// of torch.cuda.set_sync_debug_mode("error")). For tests; restores the previous mode. Nothing
/// without CUDA.
class ForbidOtherHostSyncs {
public:
    ForbidOtherHostSyncs();
    ~ForbidOtherHostSyncs();
    ForbidOtherHostSyncs(const ForbidOtherHostSyncs&) = delete;
    ForbidOtherHostSyncs& operator=(const ForbidOtherHostSyncs&) = delete;

private:
    int previous_ = 0;
};

}  // namespace bert
