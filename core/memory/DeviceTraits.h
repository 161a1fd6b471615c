#pragma once

#include <string>
#include <string_view>

namespace bert {

/// What a device does fast. It decides what a memory technique costs in time there, so that
/// advice never trades a 4x slowdown for a few MiB (MemoryForecast.h, suggestFit).
struct DeviceTraits {
    bool cuda = false;
    /// bf16 matrix multiplies in hardware: CUDA compute capability 8.0 or newer, or a CPU with
    /// AVX512-BF16 or AMX-BF16. Without them CPU bf16 is converted element by element (about
    /// 3.8x slower a step, measured on this project's 2-core CI machine).
    bool nativeBf16 = false;
    /// fp16 tensor cores (CUDA since Volta). Never the CPU: LibTorch's CPU fp16 kernels are slow
    /// everywhere but on AMX-FP16 servers, and fp16 needs loss scaling besides.
    bool fastFp16 = false;
    /// TF32 tensor cores for fp32 matrix multiplies (CUDA compute capability 8.0 or newer):
    /// what --tf32 turns on.
    bool tf32 = false;
    int computeMajor = 0;  ///< CUDA compute capability's major number; 0: the CPU or unknown
    std::string name;      ///< "CPU", "NVIDIA H100 80GB HBM3 (cuda:0)"
};

/// The traits of "cpu", "cuda" or "cuda:N". A CUDA device that is not there reads as the CPU
/// would not: no native types at all.
DeviceTraits deviceTraits(const std::string& device);

/// Whether /proc/cpuinfo text lists a native bf16 instruction set (avx512_bf16 or amx_bf16).
bool cpuInfoHasNativeBf16(std::string_view cpuinfo);

/// A warning for a half-precision choice the device only emulates ("bf16 on this CPU is
/// emulated: ..."), for `estimate` and a run's log; empty when the choice is fast there or is
/// fp32. precision is the JSON name: "fp32", "bf16", "fp16".
std::string emulatedPrecisionWarning(const DeviceTraits& traits, std::string_view precision);

/// Advice for fp32 on a GPU with TF32 tensor cores while --tf32 is off ("fp32 on ... runs its
/// matrix multiplies at full fp32 precision: --tf32 ..."), for `estimate` and a run's log; empty
/// otherwise.
std::string tf32Advice(const DeviceTraits& traits, std::string_view precision, bool tf32);

}  // namespace bert
