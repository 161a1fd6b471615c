#include "model/Dropout.h"

#include <cmath>
#include <cstring>
#include <mutex>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/_safe_softmax.h>
#include <ATen/ops/arange.h>
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

// The element at counter i is kept when word i % 4 of Philox block i / 4 falls below threshold;
// keepAll keeps everything (keep probability 1 has no 32-bit threshold).
struct KeepRule {
    std::uint64_t seed;
    std::uint32_t threshold;
    bool keepAll;

    KeepRule(double keep, std::uint64_t seedValue) : seed(seedValue) {
        const double scaled = std::ldexp(keep, 32);
        keepAll = scaled >= std::ldexp(1.0, 32);
        threshold = keepAll ? 0U : static_cast<std::uint32_t>(scaled);
    }

    // Writes keep[k] for the count elements at counters first + k. Blocks are made kLanes at a
    // time, word by word across lanes (a layout the compiler vectorises); a short row (attention
    // over a few tokens) takes blocks kShortLanes at a time instead of wasting most of a chunk.
    void fill(std::uint64_t first, std::int64_t count, bool* keep) const {
        std::uint64_t block = first / 4;
        auto skip = static_cast<std::int64_t>(first % 4);  // words of the first block before first
        std::int64_t written = 0;
        while (written < count) {
            bool chunk[4 * kLanes];
            const std::int64_t wanted = skip + count - written;
            const std::int64_t made = wanted <= 4 * kShortLanes ? blocks<kShortLanes>(block, chunk)
                                                                : blocks<kLanes>(block, chunk);
            const std::int64_t n = std::min(made - skip, count - written);
            std::memcpy(keep + written, chunk + skip, static_cast<std::size_t>(n));
            written += n;
            block += static_cast<std::uint64_t>(made / 4);
            skip = 0;
        }
    }

private:
    static constexpr std::int64_t kLanes = 16;
    static constexpr std::int64_t kShortLanes = 4;

    // Philox blocks firstBlock .. firstBlock + lanes - 1 as keep flags in chunk; returns the
    // number of flags made (4 per block).
    template <std::int64_t lanes>
    std::int64_t blocks(std::uint64_t firstBlock, bool* chunk) const {
        std::uint32_t c0[lanes], c1[lanes], c2[lanes], c3[lanes];
        for (std::int64_t lane = 0; lane < lanes; ++lane) {
            const std::uint64_t counter = firstBlock + static_cast<std::uint64_t>(lane);
            c0[lane] = static_cast<std::uint32_t>(counter);
            c1[lane] = static_cast<std::uint32_t>(counter >> 32);
            c2[lane] = 0;
            c3[lane] = 0;
        }
        std::uint32_t k0 = static_cast<std::uint32_t>(seed);
        std::uint32_t k1 = static_cast<std::uint32_t>(seed >> 32);
        for (int round = 0; round < kPhiloxRounds; ++round) {
            for (std::int64_t lane = 0; lane < lanes; ++lane) {
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
        for (std::int64_t lane = 0; lane < lanes; ++lane) {
            chunk[4 * lane + 0] = keepAll || c0[lane] < threshold;
            chunk[4 * lane + 1] = keepAll || c1[lane] < threshold;
            chunk[4 * lane + 2] = keepAll || c2[lane] < threshold;
            chunk[4 * lane + 3] = keepAll || c3[lane] < threshold;
        }
        return 4 * lanes;
    }
};

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
                              double p, const MaskLayout& layout, std::uint64_t seed) {
        const double scale = 1.0 / (1.0 - p);
        const auto mask = philoxKeepMask(input.sizes(), 1.0 - p, seed, layout);
        context->save_for_backward({mask});
        context->saved_data["scale"] = scale;
        return maskedScale(input, mask, scale);
    }

    static torch::autograd::variable_list backward(
        torch::autograd::AutogradContext* context,
        const torch::autograd::variable_list& gradients) {
        const auto mask = context->get_saved_variables()[0];
        return {maskedScale(gradients[0], mask, context->saved_data["scale"].toDouble()),
                at::Tensor(), at::Tensor(), at::Tensor()};
    }
};

}  // namespace

std::uint64_t drawDropoutSeed() {
    auto generator = at::detail::getDefaultCPUGenerator();
    const std::lock_guard lock(generator.mutex());
    return generator.get<at::CPUGeneratorImpl>()->random64();
}

bool dropsOnCpu(const at::Tensor& input, double p, bool training) {
    return training && p > 0.0 && input.device().is_cpu() && input.numel() > 0;
}

at::Tensor philoxKeepMask(at::IntArrayRef sizes, double keep, std::uint64_t seed,
                          const MaskLayout& layout) {
    auto mask = at::empty(sizes, at::TensorOptions().dtype(at::kBool));
    bool* out = mask.data_ptr<bool>();
    const KeepRule rule(keep, seed);
    const std::int64_t count = mask.numel();
    if (count == 0) {
        return mask;
    }
    if (!layout.rowKeys.defined()) {
        // Row-major counters: one stretch, cut into grains of whole blocks.
        const std::int64_t blocks = (count + 3) / 4;
        at::parallel_for(0, blocks, kGrain / 4, [&](std::int64_t first, std::int64_t last) {
            const std::int64_t begin = first * 4;
            rule.fill(static_cast<std::uint64_t>(begin), std::min(count, last * 4) - begin,
                      out + begin);
        });
        return mask;
    }
    const std::int64_t width = sizes.empty() ? 1 : sizes.back();
    const std::int64_t rows = count / width;
    TORCH_CHECK(layout.rowKeys.numel() == rows && layout.rowKeys.scalar_type() == at::kLong &&
                    layout.rowKeys.device().is_cpu() && layout.stride >= width,
                "philoxKeepMask: the layout has ", layout.rowKeys.numel(), " row keys for ", rows,
                " rows of ", width, " (stride ", layout.stride, ")");
    const auto keys = layout.rowKeys.contiguous();
    const std::int64_t* key = keys.const_data_ptr<std::int64_t>();
    const auto stride = static_cast<std::uint64_t>(layout.stride);
    at::parallel_for(0, rows, std::max<std::int64_t>(1, kGrain / width),
                     [&](std::int64_t first, std::int64_t last) {
                         for (std::int64_t row = first; row < last; ++row) {
                             rule.fill(static_cast<std::uint64_t>(key[row]) * stride, width,
                                       out + row * width);
                         }
                     });
    return mask;
}

at::Tensor applyDropout(const at::Tensor& input, double p, bool training, const MaskLayout& layout,
                        std::optional<std::uint64_t> seed) {
    if (!training || p <= 0.0) {
        return input;
    }
    if (!dropsOnCpu(input, p, training) || p >= 1.0) {
        return at::dropout(input, p, true);
    }
    return PhiloxDropout::apply(input, p, layout, seed ? *seed : drawDropoutSeed());
}

at::Tensor dotProductAttention(const at::Tensor& query, const at::Tensor& key,
                               const at::Tensor& value, const at::Tensor& additiveMask,
                               double dropoutP, bool training, const at::Tensor& sequences,
                               std::optional<std::uint64_t> seed) {
    if (!dropsOnCpu(query, dropoutP, training)) {
        return at::scaled_dot_product_attention(
            query, key, value,
            additiveMask.defined() ? std::optional<at::Tensor>(additiveMask) : std::nullopt,
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
    if (additiveMask.defined()) {
        scores.add_(additiveMask);
    }
    // Row (b, head, i) of the weights at key (sequences[b] x heads + head) x stride + i.
    const std::int64_t batch = query.size(0);
    const std::int64_t heads = query.size(1);
    const std::int64_t length = query.size(2);
    const auto sequence =
        sequences.defined() ? sequences.to(at::kLong) : at::arange(batch, at::kLong);
    const auto rowKeys =
        ((sequence.view({batch, 1, 1}) * heads + at::arange(heads, at::kLong).view({1, heads, 1})) *
             kMaskPositionStride +
         at::arange(length, at::kLong).view({1, 1, length}))
            .reshape({-1});
    const auto probabilities = applyDropout(at::_safe_softmax(scores, -1), dropoutP, true,
                                            MaskLayout{rowKeys, kMaskPositionStride}, seed);
    return at::matmul(probabilities, fp32(value)).to(outputType);
}

}  // namespace bert
