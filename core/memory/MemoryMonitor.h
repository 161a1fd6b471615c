#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <c10/core/Device.h>

#include "memory/MemorySample.h"

namespace c10 {
class Error;
}

namespace bert {

/// Memory statistics of one device, the same interface on CPU and CUDA.
///
/// CPU: the engine's own accounting. The first MemoryMonitor for the CPU installs a counting
/// wrapper around LibTorch's CPU allocator (process-wide, once): it counts live and peak tensor
/// bytes exactly, and under a ScopedMemoryCap it refuses an allocation that would pass the cap
/// by throwing c10::OutOfMemoryError, the type CUDA throws, so recovery code and tests are the
/// same on both. Tensors allocated before the wrapper was installed, or on a thread inside an
/// UncountedAllocations scope, are not counted.
///
/// CUDA: the caching allocator's statistics (allocated bytes current/peak, reserved bytes).
///
/// Thread-safety: all methods may be called from any thread; the statistics are process-wide
/// (CPU) or device-wide (CUDA), not per monitor.
class MemoryMonitor {
public:
    /// device as given or without an index (resolveDevice); sets CUDA up first (initializeCuda).
    explicit MemoryMonitor(c10::Device device);

    MemorySample sample() const;
    void resetPeak();
    /// Returns cached, unused memory to the system: CUDA's emptyCache; on the CPU the free blocks
    /// the C heap keeps for reuse (the CPU monitor keeps blocks up to 256 MiB in the heap instead
    /// of mapping and unmapping them each step; glibc only).
    void releaseCache();
    /// The device's memory: CUDA total memory, or the machine's physical RAM for the CPU.
    std::int64_t deviceTotalBytes() const;
    const c10::Device& device() const { return device_; }

private:
    c10::Device device_;
};

/// Caps a device's tensor memory while it lives, as a smaller device would: past the cap an
/// allocation throws c10::OutOfMemoryError. On the CPU the counting allocator refuses it; on
/// CUDA the cap becomes the caching allocator's memory fraction of the device's total. The cap
/// is process-wide (CPU) or device-wide (CUDA): the one owner is the Trainer that runs (it
/// holds one for its lifetime); destruction restores the cap that was in force before, so
/// scopes nest. Allocations of threads inside an UncountedAllocations scope are never refused.
class ScopedMemoryCap {
public:
    ScopedMemoryCap(c10::Device device, std::optional<std::int64_t> capBytes);
    ~ScopedMemoryCap();
    ScopedMemoryCap(const ScopedMemoryCap&) = delete;
    ScopedMemoryCap& operator=(const ScopedMemoryCap&) = delete;

    std::optional<std::int64_t> cap() const { return cap_; }

private:
    c10::Device device_;
    std::optional<std::int64_t> cap_;
    std::optional<std::int64_t> previous_;
};

/// While it lives, CPU tensors allocated on the calling thread are neither counted nor capped:
/// work that is not a run's (the studio's Try it, an export) then neither shows in a run's
/// memory figures nor makes a capped run shrink its micro-batch. Thread-local; scopes nest.
/// Work LibTorch hands to its own worker threads is still counted.
class UncountedAllocations {
public:
    UncountedAllocations();
    ~UncountedAllocations();
    UncountedAllocations(const UncountedAllocations&) = delete;
    UncountedAllocations& operator=(const UncountedAllocations&) = delete;
};

/// True for an out-of-memory error from either device (c10::OutOfMemoryError, or the default
/// CPU allocator's plain c10::Error "can't allocate memory").
bool isOutOfMemory(const c10::Error& error);

/// A device's memory: CUDA total memory, or the machine's physical RAM for the CPU. Reads it
/// without a MemoryMonitor, so asking installs no allocator wrapper.
std::int64_t deviceMemoryBytes(const c10::Device& device);

/// Whether LibTorch sees a usable CUDA device, and how many.
int cudaDeviceCount();
/// Sets LibTorch's CUDA state up, as Python's torch.cuda._lazy_init() does before
/// set_per_process_memory_fraction and memory_stats: the caching allocator has no entry for a
/// device until then, and setMemoryFraction, getDeviceStats and resetPeakStats fail their check
/// ("Allocator not initialized for device 0: did you call init?") when no CUDA tensor was made
/// yet. Idempotent and thread-safe; nothing without CUDA.
void initializeCuda();
/// The device with its index: a CUDA device without one ("cuda") is the current CUDA device, as
/// torch._get_device_index(device, optional=True) reads it. Other devices are returned as given.
c10::Device resolveDevice(const c10::Device& device);
/// "CPU" or the CUDA device's name.
std::string deviceDescription(const c10::Device& device);

}  // namespace bert
