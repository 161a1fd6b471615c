#include "train/RandomState.h"

#include <mutex>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/Generator.h>

#ifdef BERT_STUDIO_WITH_CUDA
#include <ATen/cuda/CUDAGeneratorImpl.h>
#endif

namespace bert {

namespace {

at::Generator generatorFor(const c10::Device& device) {
#ifdef BERT_STUDIO_WITH_CUDA
    if (device.is_cuda()) {
        return at::cuda::detail::getDefaultCUDAGenerator(device.index());
    }
#endif
    (void)device;
    return at::detail::getDefaultCPUGenerator();  // a handle sharing the default generator
}

}  // namespace

at::Tensor getRngState(const c10::Device& device) {
    auto generator = generatorFor(device);
    const std::lock_guard lock(generator.mutex());
    return generator.get_state();
}

void setRngState(const c10::Device& device, const at::Tensor& state) {
    auto generator = generatorFor(device);
    const std::lock_guard lock(generator.mutex());
    generator.set_state(state);
}

}  // namespace bert
