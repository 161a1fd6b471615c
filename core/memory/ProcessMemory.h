#pragma once

#include <cstdint>

namespace bert {

/// The operating system's view of this process's memory (Linux /proc; -1 or false elsewhere).
/// MemoryMonitor counts tensor bytes; these count everything the process holds resident:
/// code, the interpreter or runtime, allocator caches. Benchmarks compare engines with them
/// because another engine's tensor bytes cannot be counted the way ours are.

/// The machine's physical memory, in bytes (-1 when unknown).
std::int64_t physicalMemoryBytes();

/// Resident set size now (VmRSS), in bytes.
std::int64_t residentBytes();

/// Highest resident set size since the process started or since resetPeakResident (VmHWM).
std::int64_t peakResidentBytes();

/// Restarts peakResidentBytes from the current resident size (writes 5 to /proc/self/clear_refs).
/// Returns false where the kernel does not allow it.
bool resetPeakResident();

}  // namespace bert
