#include "data/Batch.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <ATen/ATen.h>


namespace bert {

std::size_t paddedLength(std::size_t longest, const PaddingOptions& padding) {
    std::size_t length = std::max(longest, padding.fixedLength);
    const std::size_t multiple = std::max<std::size_t>(padding.multipleOf, 1);
    return (length + multiple - 1) / multiple * multiple;
}

PaddedInputs collate(const std::vector<const Encoding*>& examples, std::int32_t padId,
                     const PaddingOptions& padding, c10::Device device) {
    if (examples.empty()) {
        throw std::invalid_argument("collate: empty batch");
    }
    std::size_t longest = 0;
    for (const auto* example : examples) {
        longest = std::max(longest, example->size());
    }
    const auto batch = static_cast<std::int64_t>(examples.size());
    const auto length = static_cast<std::int64_t>(paddedLength(longest, padding));
    auto ids = at::full({batch, length}, padId, at::kLong);
    auto types = at::zeros({batch, length}, at::kLong);
    auto mask = at::zeros({batch, length}, at::kLong);
    auto idsData = ids.accessor<std::int64_t, 2>();
    auto typesData = types.accessor<std::int64_t, 2>();
    auto maskData = mask.accessor<std::int64_t, 2>();
    for (std::int64_t row = 0; row < batch; ++row) {
        const Encoding& example = *examples[static_cast<std::size_t>(row)];
        for (std::size_t col = 0; col < example.size(); ++col) {
            const auto c = static_cast<std::int64_t>(col);
            idsData[row][c] = example.inputIds[col];
            typesData[row][c] = example.tokenTypeIds[col];
            maskData[row][c] = example.attentionMask[col];
        }
    }
    if (device.is_cpu()) {
        return {ids, types, mask};
    }
    return {ids.to(device, /*non_blocking=*/true), types.to(device, true), mask.to(device, true)};
}

at::Tensor paddedMaskRows(std::int64_t sequences, std::int64_t length) {
    return (at::arange(sequences, at::kLong).unsqueeze(1) * kMaskPositionStride +
            at::arange(length, at::kLong).unsqueeze(0))
        .reshape({-1});
}

TokenBatch paddedTokenBatch(const PaddedInputs& inputs) {
    TokenBatch batch;
    batch.inputIds = inputs.inputIds;
    batch.tokenTypeIds = inputs.tokenTypeIds;
    const auto sequences = inputs.inputIds.size(0);
    const auto length = inputs.inputIds.size(1);
    AttentionGroup group;
    group.length = length;
    group.tokens = sequences * length;
    group.keepMask = inputs.attentionMask.to(at::kBool).view({sequences, 1, 1, length});
    batch.layout.sequences = sequences;
    batch.layout.groups.push_back(std::move(group));
    batch.layout.maskRows = paddedMaskRows(sequences, length);
    return batch;
}

namespace {

// Indices of lengths, longest first (ties in their order), cut into attention groups.
std::vector<std::vector<std::size_t>> groupIndices(const std::vector<std::size_t>& lengths,
                                                   const AttentionGrouping& grouping) {
    std::vector<std::size_t> order(lengths.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
    std::vector<std::vector<std::size_t>> groups;
    for (const auto index : order) {
        const bool split = !groups.empty() &&
                           static_cast<double>(lengths[index]) <
                               grouping.share * static_cast<double>(lengths[groups.back().front()]);
        if (groups.empty() || split) {
            groups.emplace_back();
        }
        groups.back().push_back(index);
    }
    return groups;
}

at::Tensor onDevice(at::Tensor tensor, c10::Device device) {
    return device.is_cpu() ? tensor : tensor.to(device, /*non_blocking=*/true);
}

// Sequences within this share of their group's longest share one attention call on CUDA.
constexpr double kCudaGroupShare = 0.7;

}  // namespace

AttentionGrouping AttentionGrouping::forDevice(c10::Device device) {
    return AttentionGrouping{.share = device.is_cuda() ? kCudaGroupShare : 1.0};
}

std::vector<std::vector<std::size_t>> attentionGroups(std::vector<std::size_t> lengths,
                                                      const AttentionGrouping& grouping) {
    std::vector<std::vector<std::size_t>> result;
    for (const auto& group : groupIndices(lengths, grouping)) {
        auto& sizes = result.emplace_back();
        for (const auto index : group) {
            sizes.push_back(lengths[index]);
        }
    }
    return result;
}

TokenBatch packBatch(const std::vector<const Encoding*>& examples, c10::Device device,
                     const AttentionGrouping& grouping) {
    if (examples.empty()) {
        throw std::invalid_argument("packBatch: empty batch");
    }
    std::vector<std::size_t> lengths;
    lengths.reserve(examples.size());
    std::int64_t total = 0;
    for (const auto* example : examples) {
        if (example->size() == 0) {
            throw std::invalid_argument("packBatch: an example without tokens");
        }
        lengths.push_back(example->size());
        total += static_cast<std::int64_t>(example->size());
    }
    const auto sequences = static_cast<std::int64_t>(examples.size());
    auto ids = at::empty({total}, at::kLong);
    auto types = at::empty({total}, at::kLong);
    auto positions = at::empty({total}, at::kLong);
    auto maskRows = at::empty({total}, at::kLong);
    auto firstTokens = at::empty({sequences}, at::kLong);
    auto* idsData = ids.data_ptr<std::int64_t>();
    auto* typesData = types.data_ptr<std::int64_t>();
    auto* positionsData = positions.data_ptr<std::int64_t>();
    auto* maskRowsData = maskRows.data_ptr<std::int64_t>();
    auto* firstData = firstTokens.data_ptr<std::int64_t>();

    TokenBatch batch;
    batch.layout.sequences = sequences;
    batch.layout.packed = true;
    std::int64_t row = 0;
    for (const auto& members : groupIndices(lengths, grouping)) {
        AttentionGroup group;
        group.firstToken = row;
        group.length = static_cast<std::int64_t>(lengths[members.front()]);
        const auto size = static_cast<std::int64_t>(members.size());
        group.sequences = at::empty({size}, at::kLong);
        auto* groupSequences = group.sequences.data_ptr<std::int64_t>();
        bool padded = false;
        for (std::size_t g = 0; g < members.size(); ++g) {
            padded = padded || static_cast<std::int64_t>(lengths[members[g]]) != group.length;
            groupSequences[g] = static_cast<std::int64_t>(members[g]);
        }
        at::Tensor keep;
        bool* keepData = nullptr;
        if (padded) {
            keep = at::zeros({size, 1, 1, group.length}, at::kBool);
            keepData = keep.data_ptr<bool>();
        }
        std::vector<std::int64_t> grid;
        for (std::size_t g = 0; g < members.size(); ++g) {
            const auto b = static_cast<std::int64_t>(members[g]);
            const Encoding& example = *examples[members[g]];
            firstData[b] = row;
            for (std::size_t s = 0; s < example.size(); ++s, ++row) {
                const auto position = static_cast<std::int64_t>(s);
                idsData[row] = example.inputIds[s];
                typesData[row] = example.tokenTypeIds[s];
                positionsData[row] = position;
                maskRowsData[row] = b * kMaskPositionStride + position;
                if (padded) {
                    const auto cell = static_cast<std::int64_t>(g) * group.length + position;
                    grid.push_back(cell);
                    keepData[cell] = true;
                }
            }
        }
        group.tokens = row - group.firstToken;
        if (padded) {
            group.keepMask = onDevice(keep, device);
            group.gridRows = onDevice(at::tensor(grid, at::kLong), device);
        }
        batch.layout.groups.push_back(std::move(group));
    }
    batch.inputIds = onDevice(ids, device);
    batch.tokenTypeIds = onDevice(types, device);
    batch.layout.positions = onDevice(positions, device);
    batch.layout.firstTokens = onDevice(firstTokens, device);
    batch.layout.maskRows = maskRows;
    return batch;
}

}  // namespace bert
