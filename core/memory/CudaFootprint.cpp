#include "memory/CudaFootprint.h"

namespace bert {

using namespace cuda_allocator;

std::int64_t allocatorBlockBytes(std::int64_t request) {
    if (request < kMinBlockSize) {
        return kMinBlockSize;
    }
    return (request + kMinBlockSize - 1) / kMinBlockSize * kMinBlockSize;
}

std::int64_t allocatorSegmentBytes(std::int64_t request) {
    const auto block = allocatorBlockBytes(request);
    if (block <= kSmallSize) {
        return kSmallBuffer;
    }
    if (block < kMinLargeAlloc) {
        return kLargeBuffer;
    }
    return (block + kRoundLarge - 1) / kRoundLarge * kRoundLarge;
}

std::int64_t cublasWorkspaceBytes(int computeMajor) {
    constexpr std::int64_t kKiB = 1024;
    const std::int64_t cublas =
        computeMajor >= 9 ? 4096 * kKiB * 8 : 4096 * kKiB * 2 + 16 * kKiB * 8;
    const std::int64_t cublasLt = 1024 * kKiB;
    return cublas + cublasLt;
}

CudaOverheads cudaOverheads(std::int64_t activationBytes, int computeMajor, std::size_t ranks) {
    constexpr std::int64_t kHandles = 2;      // the training thread's and autograd's
    constexpr std::int64_t kCachedShare = 8;  // an eighth of the activations
    CudaOverheads overheads;
    overheads.allocatorOverhead = kHandles * cublasWorkspaceBytes(computeMajor) + kSmallBuffer +
                                  kLargeBuffer + activationBytes / kCachedShare;
    overheads.outsideAllocator =
        kCudaContextBytes + (ranks > 1 ? 2 * kNcclBufferBytes * kNcclChannels : 0);
    return overheads;
}

}  // namespace bert
