#include "data/HostReads.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <ATen/ATen.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#ifdef BERT_STUDIO_WITH_CUDA
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace bert {

namespace {

std::atomic<std::uint64_t> reads{0};

#ifdef BERT_STUDIO_WITH_CUDA
/// Lets this read synchronise while a ForbidOtherHostSyncs scope forbids the others.
class AllowThisSync {
public:
    AllowThisSync() : previous_(c10::cuda::warning_state().get_sync_debug_mode()) {
        c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_DISABLED);
    }
    ~AllowThisSync() { c10::cuda::warning_state().set_sync_debug_mode(previous_); }
    AllowThisSync(const AllowThisSync&) = delete;
    AllowThisSync& operator=(const AllowThisSync&) = delete;

private:
    c10::cuda::SyncDebugMode previous_;
};
#else
struct AllowThisSync {};
#endif

/// A test hook (the others are in train/TestHooks.h, a layer above):
/// BERT_STUDIO_TEST_HOST_READ_MS=N makes every read N ms longer, standing in for the wait for the
/// GPU that a read is on CUDA. Read at each call, so a test may set it in its own process.
void standInForDeviceWait() {
    const char* text = std::getenv("BERT_STUDIO_TEST_HOST_READ_MS");
    unsigned long long ms = 0;
    if (text != nullptr && std::sscanf(text, "%llu", &ms) == 1 && ms > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    }
}

}  // namespace

at::Tensor readToHost(const at::Tensor& tensor) {
    reads.fetch_add(1, std::memory_order_relaxed);
    standInForDeviceWait();
    if (tensor.device().is_cpu()) {
        return tensor;
    }
    const AllowThisSync allowed;
    return tensor.to(at::kCPU);
}

std::vector<double> readValues(const at::Tensor& tensor) {
    const auto host = readToHost(tensor.detach()).to(at::kDouble).contiguous().reshape({-1});
    const auto* data = host.const_data_ptr<double>();
    return {data, data + host.numel()};
}

double readValue(const at::Tensor& tensor) {
    TORCH_CHECK(tensor.numel() == 1, "readValue: a tensor of ", tensor.numel(), " elements");
    return readValues(tensor).front();
}

StagedRead::StagedRead(const at::Tensor& tensor) {
    const auto values = tensor.detach().to(at::kDouble).reshape({-1});
    if (values.device().is_cpu()) {
        host_ = values.clone();  // the source may change before finish()
        return;
    }
    // Pinned, so that the copy is asynchronous (a pageable destination makes it a blocking one).
    host_ = at::empty(values.sizes(),
                      at::TensorOptions().dtype(at::kDouble).device(at::kCPU).pinned_memory(true));
    host_.copy_(values, /*non_blocking=*/true);
    const auto* device = c10::impl::getDeviceGuardImpl(values.device().type());
    copied_.emplace(values.device().type());
    copied_->record(device->getStream(values.device()));
}

std::vector<double> StagedRead::finish() {
    TORCH_CHECK(host_.defined(), "StagedRead::finish: no read was started");
    reads.fetch_add(1, std::memory_order_relaxed);
    standInForDeviceWait();
    if (copied_) {
        const AllowThisSync allowed;
        copied_->synchronize();
    }
    const auto* data = host_.const_data_ptr<double>();
    std::vector<double> values(data, data + host_.numel());
    host_ = at::Tensor();
    copied_.reset();
    return values;
}

std::uint64_t hostReadCount() {
    return reads.load(std::memory_order_relaxed);
}

#ifdef BERT_STUDIO_WITH_CUDA
ForbidOtherHostSyncs::ForbidOtherHostSyncs()
    : previous_(static_cast<int>(c10::cuda::warning_state().get_sync_debug_mode())) {
    c10::cuda::warning_state().set_sync_debug_mode(c10::cuda::SyncDebugMode::L_ERROR);
}
ForbidOtherHostSyncs::~ForbidOtherHostSyncs() {
    c10::cuda::warning_state().set_sync_debug_mode(
        static_cast<c10::cuda::SyncDebugMode>(previous_));
}
#else
ForbidOtherHostSyncs::ForbidOtherHostSyncs() = default;
ForbidOtherHostSyncs::~ForbidOtherHostSyncs() = default;
#endif

}  // namespace bert
