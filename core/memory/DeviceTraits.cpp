#include "memory/DeviceTraits.h"

#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include <c10/core/Device.h>

#include "memory/MemoryMonitor.h"

#ifdef BERT_STUDIO_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace bert {

namespace {

// The first CUDA architecture with bf16 tensor cores (Ampere).
constexpr int kBf16ComputeMajor = 8;
// The first CUDA architecture with fp16 tensor cores (Volta).
constexpr int kFp16ComputeMajor = 7;

bool hasFlag(std::string_view flags, std::string_view flag) {
    std::size_t at = 0;
    while ((at = flags.find(flag, at)) != std::string_view::npos) {
        const bool startsWord = at == 0 || flags[at - 1] == ' ' || flags[at - 1] == '\t';
        const std::size_t end = at + flag.size();
        const bool endsWord = end == flags.size() || flags[end] == ' ' || flags[end] == '\n';
        if (startsWord && endsWord) {
            return true;
        }
        at = end;
    }
    return false;
}

}  // namespace

bool cpuInfoHasNativeBf16(std::string_view cpuinfo) {
    // Only the "flags" lines count; a model name could mention anything.
    std::size_t lineStart = 0;
    while (lineStart < cpuinfo.size()) {
        std::size_t lineEnd = cpuinfo.find('\n', lineStart);
        if (lineEnd == std::string_view::npos) {
            lineEnd = cpuinfo.size();
        }
        const auto line = cpuinfo.substr(lineStart, lineEnd - lineStart);
        if (line.rfind("flags", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string_view::npos) {
                const auto flags = line.substr(colon + 1);
                if (hasFlag(flags, "avx512_bf16") || hasFlag(flags, "amx_bf16")) {
                    return true;
                }
            }
        }
        lineStart = lineEnd + 1;
    }
    return false;
}

namespace {

DeviceTraits readTraits(const std::string& device) {
    DeviceTraits traits;
    const c10::Device parsed(device);
    traits.name = deviceDescription(parsed);
    if (parsed.is_cuda()) {
        traits.cuda = true;
#ifdef BERT_STUDIO_WITH_CUDA
        cudaDeviceProp properties{};
        if (cudaDeviceCount() > 0 &&
            cudaGetDeviceProperties(&properties, resolveDevice(parsed).index()) == cudaSuccess) {
            traits.nativeBf16 = properties.major >= kBf16ComputeMajor;
            traits.fastFp16 = properties.major >= kFp16ComputeMajor;
            traits.tf32 = properties.major >= kBf16ComputeMajor;  // Ampere, as bf16
            traits.computeMajor = properties.major;
        }
#endif
        return traits;
    }
    std::ifstream file("/proc/cpuinfo");
    std::stringstream text;
    text << file.rdbuf();
    traits.nativeBf16 = cpuInfoHasNativeBf16(text.str());
    return traits;
}

}  // namespace

DeviceTraits deviceTraits(const std::string& device) {
    // The form asks on every change; the hardware does not change while the program runs.
    static std::mutex mutex;
    static std::map<std::string, DeviceTraits> known;
    const std::lock_guard lock(mutex);
    const auto found = known.find(device);
    if (found != known.end()) {
        return found->second;
    }
    return known.emplace(device, readTraits(device)).first->second;
}

std::string emulatedPrecisionWarning(const DeviceTraits& traits, std::string_view precision) {
    if (precision == "bf16" && !traits.nativeBf16) {
        return traits.cuda ? "bf16 on " + traits.name +
                                 " is emulated (no bf16 tensor cores before compute capability "
                                 "8.0): slower than fp32"
                           : "bf16 on this CPU is emulated (it has neither AVX512-BF16 nor "
                             "AMX-BF16): several times slower a step than fp32";
    }
    if (precision == "fp16" && !traits.fastFp16) {
        return traits.cuda ? "fp16 on " + traits.name + " has no tensor cores: slower than fp32"
                           : "fp16 on a CPU is emulated and needs loss scaling: slower than fp32";
    }
    return {};
}

std::string tf32Advice(const DeviceTraits& traits, std::string_view precision, bool tf32) {
    if (!traits.tf32 || tf32 || precision != "fp32") {
        return {};
    }
    return "fp32 on " + traits.name +
           " multiplies matrices at full fp32 precision; --tf32 runs them on its TF32 tensor "
           "cores, several times faster (about 10 mantissa bits in the products), and bf16 "
           "saves memory as well";
}

}  // namespace bert
