#include "model/Dropout.h"

#include <cmath>
#include <cstring>
#include <mutex>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/_safe_softmax.h>
#include <ATen/ops/dropout.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/scaled_dot_product_attention.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/csrc/autograd/custom_function.h>

namespace bert {
namespace {

// Philox 4x32-10 (Salmon et al., SC'11): four 32-bit outputs per 64-bit counter and 64-bit key.
constexpr std::uint32_t kPhiloxM0 = 0xD2511F53;  // round multipliers
constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9;  // key schedule increments
constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85;
constexpr int kPhiloxRounds = 10;
// Elements per parallel work item: a multiple of 4 (one Philox block), large enough to amortise
// scheduling, small enough that one layer's tensor spreads over every thread.
constexpr std::int64_t kGrain = 1 << 14;

// Element i is kept when word i % 4 of Philox block i / 4 falls below threshold; keepAll keeps
// everything (keep probability 1 has no 32-bit threshold).
struct KeepRule {
    std::uint64_t seed;
    std::uint32_t threshold;
    bool keepAll;

    KeepRule(double keep, std::uint64_t seedValue) : seed(seedValue) {
        const double scaled = std::ldexp(keep, 32);
        keepAll = scaled >= std::ldexp(1.0, 32);
        threshold = keepAll ? 0U : static_cast<std::uint32_t>(scaled);
    }

    // Writes keep[i - begin] for i in [begin, end); begin is a multiple of 4. Blocks are made
    // kLanes at a time, word by word across lanes: a layout the compiler can vectorise.
    void fill(std::int64_t begin, std::int64_t end, bool* keep) const {
        constexpr std::int64_t kLanes = 16;
        std::uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
        for (std::int64_t base = begin; base < end; base += 4 * kLanes) {
            const auto firstBlock = static_cast<std::uint64_t>(base / 4);
            for (std::int64_t lane = 0; lane < kLanes; ++lane) {
                const std::uint64_t counter = firstBlock + static_cast<std::uint64_t>(lane);
                c0[lane] = static_cast<std::uint32_t>(counter);
                c1[lane] = static_cast<std::uint32_t>(counter >> 32);
                c2[lane] = 0;
                c3[lane] = 0;
            }
            std::uint32_t k0 = static_cast<std::uint32_t>(seed);
            std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
            for (int round = 0; round < kPhiloxRounds; ++round) {
                for (std::int64_t lane = 0; lane < kLanes; ++lane) {
                    const std::uint64_t p0 = std::uint64_t{kPhiloxM0} * c0[lane];
                    const std::uint64_t p1 = std::uint64_t{kPhiloxM1} * c2[lane];
                    const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1[lane] ^ k0;
                    const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3[lane] ^ k1;
                    c1[lane] = static_cast<std::uint32_t>(p1);
                    c3[lane] = static_cast<std::uint32_t>(p0);
                    c0[lane] = n0;
                    c2[lane] = n2;
                }
                k0 += kPhiloxW0;
                k1 += kPhiloxW1;
            }
            bool chunk[4 * kLanes];
            for (std::int64_t lane = 0; lane < kLanes; ++lane) {
                chunk[4 * lane + 0] = keepAll || c0[lane] < threshold;
                chunk[4 * lane + 1] = keepAll || c1[lane] < threshold;
                chunk[4 * lane + 2] = keepAll || c2[lane] < threshold;
                chunk[4 * lane + 3] = keepAll || c3[lane] < threshold;
            }
            const std::int64_t count = std::min<std::int64_t>(end - base, 4 * kLanes);
            std::memcpy(keep + (base - begin), chunk, static_cast<std::size_t>(count));
        }
    }
};

std::uint64_t seedFromDefaultGenerator() {
    auto generator = at::detail::getDefaultCPUGenerator();
    const std::lock_guard lock(generator.mutex());
    return generator.get<at::CPUGeneratorImpl>()->random64();
}

bool droppingOnCpu(const at::Tensor& input, double p, bool training) {
    return training && p > 0.0 && input.device().is_cpu() && input.numel() > 0;
}

// out[i] = mask[i] ? in[i] * scale : 0, in one parallel pass (forward output and backward).
at::Tensor maskedScale(const at::Tensor& input, const at::Tensor& mask, double scale) {
    const auto in = input.contiguous();
    auto out = at::empty_like(in, at::MemoryFormat::Contiguous);
    const bool* keep = mask.data_ptr<bool>();
    AT_DISPATCH_FLOATING_TYPES_AND2(at::kBFloat16, at::kHalf, in.scalar_type(), "maskedScale", [&] {
        const scalar_t* source = in.const_data_ptr<scalar_t>();
        scalar_t* target = out.data_ptr<scalar_t>();
        const auto factor = static_cast<float>(scale);
        at::parallel_for(0, in.numel(), kGrain, [&](std::int64_t begin, std::int64_t end) {
            // Branch-free (x * 0 or x * scale) so that the loop vectorises.
            for (std::int64_t i = begin; i < end; ++i) {
                target[i] = static_cast<scalar_t>(static_cast<float>(source[i]) *
                                                  (static_cast<float>(keep[i]) * factor));
            }
        });
    });
    return out;
}

// Inverted dropout as one autograd node that keeps only the one-byte mask for backward.
class PhiloxDropout : public torch::autograd::Function<PhiloxDropout> {
public:
    static at::Tensor forward(torch::autograd::AutogradContext* context, const at::Tensor& input,
                              double p) {
        const double scale = 1.0 / (1.0 - p);
        const auto mask = philoxKeepMask(input.sizes(), 1.0 - p, seedFromDefaultGenerator());
        context->save_for_backward({mask});
        context->saved_data["scale"] = scale;
        return maskedScale(input, mask, scale);
    }

    static torch::autograd::variable_list backward(
        torch::autograd::AutogradContext* context,
        const torch::autograd::variable_list& gradients) {
        const auto mask = context->get_saved_variables()[0];
        return {maskedScale(gradients[0], mask, context->saved_data["scale"].toDouble()),
                at::Tensor()};
    }
};

}  // namespace

at::Tensor philoxKeepMask(at::IntArrayRef sizes, double keep, std::uint64_t seed) {
    auto mask = at::empty(sizes, at::TensorOptions().dtype(at::kBool));
    bool* out = mask.data_ptr<bool>();
    const KeepRule rule(keep, seed);
    const std::int64_t blocks = (mask.numel() + 3) / 4;
    const std::int64_t count = mask.numel();
    at::parallel_for(0, blocks, kGrain / 4, [&](std::int64_t first, std::int64_t last) {
        rule.fill(first * 4, std::min(count, last * 4), out + first * 4);
    });
    return mask;
}

at::Tensor applyDropout(const at::Tensor& input, double p, bool training) {
    if (!training || p <= 0.0) {
        return input;
    }
    if (!droppingOnCpu(input, p, training) || p >= 1.0) {
        return at::dropout(input, p, true);
    }
    return PhiloxDropout::apply(input, p);
}

at::Tensor dotProductAttention(const at::Tensor& query, const at::Tensor& key,
                               const at::Tensor& value, const at::Tensor& additiveMask,
                               double dropoutP, bool training) {
    if (!droppingOnCpu(query, dropoutP, training)) {
        return at::scaled_dot_product_attention(query, key, value, additiveMask,
                                                training ? dropoutP : 0.0);
    }
    // Autocast casts the inputs of scaled_dot_product_attention and runs it with autocast off;
    // ATen's math path then computes in fp32 on reduced-precision inputs and returns their dtype.
    const c10::impl::ExcludeDispatchKeyGuard noAutocast(c10::DispatchKey::AutocastCPU);
    const auto outputType = query.scalar_type();
    auto fp32 = [](const at::Tensor& t) {
        return at::isReducedFloatingType(t.scalar_type()) ? t.to(at::kFloat) : t;
    };
    // q and k are each scaled by sqrt(scale) before the product, as ATen does, for range.
    const double rootScale = std::sqrt(1.0 / std::sqrt(static_cast<double>(query.size(-1))));
    auto scores = at::matmul(fp32(query) * rootScale, fp32(key).transpose(-2, -1) * rootScale);
    scores.add_(additiveMask);
    const auto probabilities = applyDropout(at::_safe_softmax(scores, -1), dropoutP, true);
    return at::matmul(probabilities, fp32(value)).to(outputType);
}

}  // namespace bert
