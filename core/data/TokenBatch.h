#pragma once

// A micro-batch as every model family takes it. The data layer owns it (data/Batch.h builds
// it from encodings); the models (model/) read it, and nothing here knows a family.

#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>

namespace bert {

/// Counter stride between sequences, and between positions in attention maps: above any
/// position (max_length is at most 65536), so every (sequence, position) has its own dropout
/// counters (model/Dropout.h).
constexpr std::int64_t kMaskPositionStride = std::int64_t{1} << 17;

/// Sequences of a micro-batch whose attention runs as one padded batch [G, heads, S, S].
struct AttentionGroup {
    std::int64_t length = 0;      ///< S: the group's longest sequence
    std::int64_t firstToken = 0;  ///< packed: the group's tokens are hidden rows
    std::int64_t tokens = 0;      ///< [firstToken, firstToken + tokens)
    /// [G] int64 on the CPU: each sequence's index in the micro-batch (dropout's keys);
    /// undefined: 0 .. G-1.
    at::Tensor sequences;
    /// [G, 1, 1, S] bool on the device, true = a real token; undefined: no padding.
    at::Tensor keepMask;
    /// Packed: [tokens] int64 on the device, each token's row g x S + s in the group's padded
    /// grid; undefined when the group has no padding (its tokens are the grid).
    at::Tensor gridRows;
    /// The additive attention masks made from keepMask and a sliding window, by half window
    /// (0: none) and dtype (model/Attention.cpp): made once per micro-batch and shared by every
    /// layer that asks for the same one. Each of ModernBERT's local layers once built its own
    /// int64 S x S band and kept its own G x S x S mask for backward.
    struct AdditiveMask {
        std::int64_t halfWindow = 0;
        at::ScalarType dtype = at::kFloat;
        at::Tensor mask;  ///< undefined: every pair is attended
    };
    mutable std::vector<AdditiveMask> additiveMasks;
};

/// How a micro-batch's tokens sit in its hidden states.
///  - Padded: [B, S, H], padding included; attention is one group, the whole batch.
///  - Packed (unpadded batches): [T, H], the T real tokens only, group after group, each
///    sequence's tokens one after another. Every linear, LayerNorm, activation and dropout runs
///    on real tokens alone; attention scatters each group into its own padded grid (the
///    group's longest sequence), attends, and gathers the real tokens back.
/// Dropout keys every hidden row by (sequence b, position s) as b x kMaskPositionStride + s, so
/// a real token gets the same mask packed or padded to any length.
struct TokenLayout {
    std::int64_t sequences = 0;  ///< B
    bool packed = false;
    std::vector<AttentionGroup> groups;
    /// Packed: [B] int64 on the device, the hidden row of each sequence's first token, in
    /// micro-batch order (what [CLS] pooling reads).
    at::Tensor firstTokens;
    /// Packed: firstTokens in host memory, for the host's own slicing (the frozen-prefix
    /// cache) without reading the device.
    std::vector<std::int64_t> firstTokenRows;
    /// [rows of the hidden states] int64 on the CPU: dropout's key of each row.
    at::Tensor maskRows;
    /// Packed: [T] int64 on the device, each token's position in its sequence (0 for the
    /// first); padded: undefined, positions are 0 .. S-1. Families read it for their position
    /// embeddings or rotary embeddings.
    at::Tensor positions;
};

/// One micro-batch's tokens as the model takes them, padded or packed.
struct TokenBatch {
    at::Tensor inputIds;      ///< padded [B, S]; packed [T]
    at::Tensor tokenTypeIds;  ///< as inputIds
    TokenLayout layout;
};

/// Inputs of one padded batch, all [B, S] int64 on the model's device.
struct PaddedInputs {
    at::Tensor inputIds;
    at::Tensor tokenTypeIds;
    at::Tensor attentionMask;
};

}  // namespace bert
