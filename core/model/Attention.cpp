#include "model/Attention.h"

#include <cmath>
#include <limits>
#include <optional>

#include <ATen/ATen.h>

#include "model/Dropout.h"

namespace bert {

namespace {

double lowestFinite(at::ScalarType dtype) {
    switch (dtype) {
        case at::kHalf:
            return static_cast<double>(std::numeric_limits<at::Half>::lowest());
        case at::kBFloat16:
            return static_cast<double>(std::numeric_limits<at::BFloat16>::lowest());
        case at::kDouble:
            return std::numeric_limits<double>::lowest();
        default:
            return static_cast<double>(std::numeric_limits<float>::lowest());
    }
}

// The keep-mask of one attention call over sequences padded to length: padding (keepMask, may
// be undefined) and the window (halfWindow, 0: none). Undefined when everything is attended.
at::Tensor keepOf(const at::Tensor& keepMask, std::int64_t length, std::int64_t halfWindow,
                  c10::Device device) {
    at::Tensor keep = keepMask;
    if (halfWindow > 0 && halfWindow < length - 1) {
        const auto band =
            slidingWindowKeep(length, halfWindow, device).view({1, 1, length, length});
        keep = keep.defined() ? keep.logical_and(band) : band;
    }
    return keep;
}

// The group's additive mask for halfWindow in dtype, made on its first use in this micro-batch
// and shared by the layers after it (AttentionGroup::additiveMasks).
at::Tensor sharedAdditiveMask(const AttentionGroup& group, std::int64_t halfWindow,
                              at::ScalarType dtype, c10::Device device) {
    for (const auto& made : group.additiveMasks) {
        if (made.halfWindow == halfWindow && made.dtype == dtype) {
            return made.mask;
        }
    }
    const auto keep = keepOf(group.keepMask, group.length, halfWindow, device);
    auto mask = keep.defined() ? additiveAttentionMask(keep, dtype) : at::Tensor();
    group.additiveMasks.push_back({halfWindow, dtype, mask});
    return mask;
}

}  // namespace

at::Tensor additiveAttentionMask(const at::Tensor& keep, at::ScalarType dtype) {
    const auto kept = keep.to(at::kBool);
    return at::zeros(kept.sizes(), kept.options().dtype(dtype))
        .masked_fill_(kept.logical_not(), lowestFinite(dtype));
}

at::Tensor slidingWindowKeep(std::int64_t length, std::int64_t halfWindow, c10::Device device) {
    const auto positions = at::arange(length, at::TensorOptions().dtype(at::kLong).device(device));
    return (positions.unsqueeze(1) - positions.unsqueeze(0)).abs_().le(halfWindow);
}

at::Tensor attendLayout(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                        const TokenLayout& layout, const AttentionShape& shape, bool training) {
    const auto heads = shape.heads;
    const auto headDim = shape.headDim;
    const auto width = heads * headDim;
    std::optional<std::uint64_t> seed;
    if (layout.groups.size() > 1 && dropsOnCpu(q, shape.dropout, training)) {
        seed = drawDropoutSeed();
    }
    auto attend = [&](const AttentionGroup& group, const at::Tensor& gq, const at::Tensor& gk,
                      const at::Tensor& gv) {
        auto mask = sharedAdditiveMask(group, shape.halfWindow, q.scalar_type(), q.device());
        if (shape.bias) {
            const auto bias = shape.bias(group.length).to(q.scalar_type());
            mask = mask.defined() ? bias + mask : bias;
        }
        if (shape.contentBias) {
            const auto bias = shape.contentBias(gq, gk).to(q.scalar_type());
            mask = mask.defined() ? bias + mask : bias;
        }
        // Another scale than the kernels' 1 / sqrt(head_dim): on the queries.
        const auto scaled = shape.scale > 0.0
                                ? gq * (shape.scale * std::sqrt(static_cast<double>(shape.headDim)))
                                : gq;
        return dotProductAttention(scaled, gk, gv, mask, shape.dropout, training, group.sequences,
                                   seed);
    };
    if (!layout.packed) {
        const auto batch = q.size(0);
        const auto length = q.size(1);
        auto split = [&](const at::Tensor& x) {
            return x.view({batch, length, heads, headDim}).transpose(1, 2);
        };
        const auto context = attend(layout.groups.front(), split(q), split(k), split(v));
        return context.transpose(1, 2).reshape({batch, length, width});
    }
    std::vector<at::Tensor> parts;
    parts.reserve(layout.groups.size());
    for (const auto& group : layout.groups) {
        const auto sequences =
            group.keepMask.defined() ? group.keepMask.size(0) : group.tokens / group.length;
        // The group's real tokens into its padded grid [G x S, H] (zeros on padding: masked
        // keys must still be finite), as [G, heads, S, head_dim].
        auto grid = [&](const at::Tensor& x) {
            auto rows = x.narrow(0, group.firstToken, group.tokens);
            if (group.gridRows.defined()) {
                rows = at::zeros({sequences * group.length, width}, rows.options())
                           .index_copy(0, group.gridRows, rows);
            }
            return rows.view({sequences, group.length, heads, headDim}).transpose(1, 2);
        };
        auto context = attend(group, grid(q), grid(k), grid(v))
                           .transpose(1, 2)
                           .reshape({sequences * group.length, width});
        parts.push_back(group.gridRows.defined() ? context.index_select(0, group.gridRows)
                                                 : context);
    }
    return parts.size() == 1 ? parts.front() : at::cat(parts);
}

}  // namespace bert
