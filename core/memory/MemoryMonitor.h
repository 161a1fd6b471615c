#pragma once

#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <string>

namespace c10 {
class Error;
}

namespace bert {

/// Bytes of tensor memory at one moment: in use now, the most since the last resetPeak(), and
/// what the allocator holds from the system (CUDA's reserved bytes; on CPU equal to current,
/// since the CPU allocator returns memory at once).
struct MemorySample {
    std::int64_t current = 0;
    std::int64_t peak = 0;
    std::int64_t reserved = 0;
};

/// Memory statistics and limits of one device, the same interface on CPU and CUDA.
///
/// CPU: the engine's own accounting. The first MemoryMonitor for the CPU installs a counting
/// wrapper around LibTorch's CPU allocator (process-wide, once): it counts live and peak tensor
/// bytes exactly, and with a cap it refuses an allocation that would pass it by throwing
/// c10::OutOfMemoryError, the type CUDA throws, so recovery code and tests are the same on both.
/// Tensors allocated before the wrapper was installed are not counted.
///
/// CUDA: the caching allocator's statistics (allocated bytes current/peak, reserved bytes); a cap
/// becomes the allocator's memory fraction of the device's total.
///
/// Thread-safety: all methods may be called from any thread; the statistics are process-wide
/// (CPU) or device-wide (CUDA), not per monitor.
class MemoryMonitor {
public:
    explicit MemoryMonitor(c10::Device device);

    MemorySample sample() const;
    void resetPeak();
    /// Refuse allocations past capBytes (nullopt: no cap).
    void setCap(std::optional<std::int64_t> capBytes);
    std::optional<std::int64_t> cap() const { return cap_; }
    /// Returns cached, unused memory to the system (CUDA emptyCache; nothing to do on CPU).
    void releaseCache();
    /// The device's memory: CUDA total memory, or the machine's physical RAM for the CPU.
    std::int64_t deviceTotalBytes() const;
    const c10::Device& device() const { return device_; }

private:
    c10::Device device_;
    std::optional<std::int64_t> cap_;
};

/// True for an out-of-memory error from either device (c10::OutOfMemoryError, or the default
/// CPU allocator's plain c10::Error "can't allocate memory").
bool isOutOfMemory(const c10::Error& error);

/// A device's memory: CUDA total memory, or the machine's physical RAM for the CPU. Reads it
/// without a MemoryMonitor, so asking installs no allocator wrapper.
std::int64_t deviceMemoryBytes(const c10::Device& device);

/// Whether LibTorch sees a usable CUDA device, and how many.
int cudaDeviceCount();
/// "CPU" or the CUDA device's name.
std::string deviceDescription(const c10::Device& device);

}  // namespace bert
