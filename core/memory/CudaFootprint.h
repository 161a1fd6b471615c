#pragma once

// What a CUDA process takes from its device beyond its tensors, as arithmetic (no CUDA here):
// the forecast adds it to the tensors' peak (train/MemoryForecast.h), so that it compares
// like with like, the reserved peak with a memory cap and the process's total with the
// device's memory. Every constant names its PyTorch source; the GPU matrix
// (benchmarks/gpu/gpu_matrix.py) sets the figures beside the measured ones.

#include <cstddef>
#include <cstdint>

namespace bert {

/// c10/cuda/CUDACachingAllocator.cpp's constants.
namespace cuda_allocator {
inline constexpr std::int64_t kMinBlockSize = 512;        ///< every block a multiple
inline constexpr std::int64_t kSmallSize = 1 << 20;       ///< largest "small" request
inline constexpr std::int64_t kSmallBuffer = 2 << 20;     ///< small requests' segments
inline constexpr std::int64_t kMinLargeAlloc = 10 << 20;  ///< below: a shared segment
inline constexpr std::int64_t kLargeBuffer = 20 << 20;    ///< mid-size requests' segments
inline constexpr std::int64_t kRoundLarge = 2 << 20;      ///< large segments round to it
}  // namespace cuda_allocator

/// The block the caching allocator hands out for a request (round_size): a multiple of 512 B.
std::int64_t allocatorBlockBytes(std::int64_t request);
/// The segment it asks the driver for when no cached block fits (get_allocation_size): 2 MiB
/// for a small request, 20 MiB for one below 10 MiB, else the request rounded to 2 MiB.
std::int64_t allocatorSegmentBytes(std::int64_t request);

/// cuBLAS's workspace per handle and stream, by compute capability
/// (aten/src/ATen/cuda/CublasHandlePool.cpp, parseChosenWorkspaceSize: ":4096:8" = 32 MiB on
/// sm_90 and newer, ":4096:2:16:8" = 8.125 MiB before), and cuBLASLt's (1 MiB default,
/// getCUDABlasLtWorkspaceSize). computeMajor 0: unknown, the smaller.
std::int64_t cublasWorkspaceBytes(int computeMajor);

/// The CUDA context the driver makes for the process, outside the allocator: kernels of
/// LibTorch and its libraries (lazily loaded since CUDA 11.7), about 0.5 GiB.
inline constexpr std::int64_t kCudaContextBytes = std::int64_t{512} << 20;
/// NCCL's buffers per rank: NCCL_BUFFSIZE (4 MiB) per channel and direction, for the 16
/// channels a single-node ring uses: about 128 MiB, outside the allocator.
inline constexpr std::int64_t kNcclBufferBytes = std::int64_t{4} << 20;
inline constexpr std::int64_t kNcclChannels = 16;

/// The overheads of a CUDA training process whose tensors peak at activations + the rest.
struct CudaOverheads {
    std::int64_t allocatorOverhead = 0;  ///< reserved beyond the tensors at the peak
    std::int64_t outsideAllocator = 0;   ///< the context and NCCL
};

/// For a forecast peak with activationBytes of activations, on a device of computeMajor, in a
/// process of ranks: allocator overhead = two cuBLAS (and cuBLASLt) workspaces (the training
/// thread's handle and autograd's device thread's, on one stream) + one partly used segment
/// of each pool (2 MiB and 20 MiB) + an eighth of the activations (blocks freed and split
/// between micro-batches of other shapes stay cached; an estimate for the GPU matrix to
/// check); outside = the context + NCCL's buffers when ranks > 1.
CudaOverheads cudaOverheads(std::int64_t activationBytes, int computeMajor, std::size_t ranks);

}  // namespace bert
