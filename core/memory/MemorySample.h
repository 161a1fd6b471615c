#pragma once

#include <cstdint>

namespace bert {

/// Bytes of tensor memory at one moment: in use now, the most since the last resetPeak(), what
/// the allocator holds from the system (CUDA's reserved bytes; on CPU equal to current, since the
/// CPU allocator returns memory at once), and the most it held since the last resetPeak() (what
/// torch.cuda.max_memory_reserved() reports; on CPU the peak).
struct MemorySample {
    std::int64_t current = 0;
    std::int64_t peak = 0;
    std::int64_t reserved = 0;
    std::int64_t reservedPeak = 0;
};

}  // namespace bert
