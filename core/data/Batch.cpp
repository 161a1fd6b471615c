#include "data/Batch.h"

#include <algorithm>
#include <stdexcept>

#include <ATen/ATen.h>

namespace bert {

std::size_t paddedLength(std::size_t longest, const PaddingOptions& padding) {
    std::size_t length = std::max(longest, padding.fixedLength);
    const std::size_t multiple = std::max<std::size_t>(padding.multipleOf, 1);
    return (length + multiple - 1) / multiple * multiple;
}

BertInputs collate(const std::vector<const Encoding*>& examples, std::int32_t padId,
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

}  // namespace bert
