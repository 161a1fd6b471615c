#pragma once

#include <cstddef>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "model/Bert.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {

/// How a batch is padded.
struct PaddingOptions {
    /// Pad every batch to this length (fixed padding); 0 pads to the batch's longest example
    /// (dynamic padding).
    std::size_t fixedLength = 0;
    /// Round the padded length up to a multiple of this (8 suits tensor cores under fp16).
    std::size_t multipleOf = 1;
};

/// The padded length of a batch whose longest example has longest tokens.
std::size_t paddedLength(std::size_t longest, const PaddingOptions& padding);

/// Stacks encodings into padded [B, S] int64 tensors on device: ids padded with padId, segment
/// ids with 0, attention mask 0 on padding.
BertInputs collate(const std::vector<const Encoding*>& examples, std::int32_t padId,
                   const PaddingOptions& padding, c10::Device device);

}  // namespace bert
