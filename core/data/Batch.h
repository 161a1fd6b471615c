#pragma once

#include <cstddef>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "data/TokenBatch.h"
#include "tokenizer/Tokenizer.h"

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
PaddedInputs collate(const std::vector<const Encoding*>& examples, std::int32_t padId,
                     const PaddingOptions& padding, c10::Device device);

/// The padded layout of inputs: one attention group masked by its attention mask.
TokenBatch paddedTokenBatch(const PaddedInputs& inputs);

/// Dropout's keys of padded hidden rows [B x S]: b x kMaskPositionStride + s, on the CPU.
at::Tensor paddedMaskRows(std::int64_t sequences, std::int64_t length);

/// How an unpadded micro-batch groups its sequences for attention (see packBatch).
struct AttentionGrouping {
    /// A sequence shorter than this share of its group's longest starts a new group: attention
    /// pads it to at most 1 / share of its length. 1: every group holds sequences of one
    /// length, and attention pads nothing.
    double share = 1.0;

    /// The grouping for a device. On the CPU, groups of one length each: bench_unpadded,
    /// MiniLM, 16 examples of 40-512 tokens, forward and backward: 2.9 s, against 3.8 s at
    /// share 0.7 and 9.0 s in one group (padded to the longest inside attention). On CUDA
    /// each group costs kernel launches, so sequences within 0.7 of each other share one
    /// (not measured yet: no GPU has run it).
    static AttentionGrouping forDevice(c10::Device device);
};

/// Packs encodings into an unpadded micro-batch on device (TokenLayout, packed): the sequences
/// ordered by length, longest first, their real tokens one after another ([T] ids, segment ids
/// and positions), in attention groups cut by grouping; each group's grid pads its sequences to
/// its longest. Sequence b keeps its place in the micro-batch for the pooler and for dropout.
TokenBatch packBatch(const std::vector<const Encoding*>& examples, c10::Device device,
                     const AttentionGrouping& grouping);

/// Lengths of packBatch's attention groups, in its order (for tests and the forecast).
std::vector<std::vector<std::size_t>> attentionGroups(std::vector<std::size_t> lengths,
                                                      const AttentionGrouping& grouping = {});

}  // namespace bert
