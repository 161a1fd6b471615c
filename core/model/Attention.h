#pragma once

// Multi-head self-attention over a micro-batch in either layout (data/TokenBatch.h), shared by
// every family: the projections and position encodings are the family's, what happens between
// q, k, v and the context is the same for all.

#include <cstdint>
#include <functional>

#include <ATen/core/Tensor.h>

#include "data/TokenBatch.h"

namespace bert {

/// Turns a keep-mask (true = attended; any shape that broadcasts to [B, heads, S, S]) into the
/// additive mask scaled_dot_product_attention takes: 0 where attended, the dtype's lowest finite
/// value where masked (not -inf: a fully masked row would give NaN; and it must fit in fp16).
at::Tensor additiveAttentionMask(const at::Tensor& keep, at::ScalarType dtype);

/// [S, S] bool: true where |i - j| <= halfWindow (ModernBERT's local attention).
at::Tensor slidingWindowKeep(std::int64_t length, std::int64_t halfWindow, c10::Device device);

struct AttentionShape {
    std::int64_t heads = 0;
    std::int64_t headDim = 0;
    double dropout = 0.0;  ///< on the attention probabilities, in training
    /// Local attention: each query sees keys within this distance; 0: every key (global).
    std::int64_t halfWindow = 0;
    /// An additive bias on the scores of a group padded to length S: [1, heads, S, S] (any
    /// dtype; it is cast to the attention's), the same for every sequence of the group, whose
    /// rows in the group's grid are its positions 0 .. S-1 (MPNet's relative position bias, made
    /// by each layer from the shared table so that its gradient reaches the table whatever runs
    /// the layer). It joins the padding mask as one [G, heads, S, S] additive mask, which
    /// scaled_dot_product_attention takes as it is. Empty: none.
    std::function<at::Tensor(std::int64_t length)> bias{};
    /// A bias that depends on the group's queries and keys as well as their positions: given q
    /// and k of a group in its padded grid ([G, heads, S, head_dim], row s of a sequence at its
    /// position s, so that relative positions are each sequence's own, packed or padded),
    /// [G, heads, S, S] to add to the scores (DeBERTa's content-to-position and
    /// position-to-content terms). It joins the padding mask as bias does. Empty: none.
    std::function<at::Tensor(const at::Tensor& q, const at::Tensor& k)> contentBias{};
    /// The factor of q.k in the scores; 0: 1 / sqrt(head_dim). (DeBERTa: 1 / sqrt(head_dim x
    /// (1 + position terms)).)
    double scale = 0.0;
};

/// The context of q, k, v ([B, S, heads x head_dim] padded or [T, heads x head_dim] packed, as
/// the layout says) in the same form. Padded: one call over the batch, masked by its padding.
/// Packed: each attention group's real tokens are scattered into the group's padded grid (zeros
/// on padding: masked keys must still be finite), attended, and gathered back. The layer's
/// attention dropout is one mask cut into groups: one seed for all of them, so that packed and
/// padded layers draw alike from the generator. The additive mask is built in the dtype
/// attention runs in (fp32, or bf16/fp16 under autocast) so that its "minus infinity" is that
/// dtype's lowest finite value.
at::Tensor attendLayout(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                        const TokenLayout& layout, const AttentionShape& shape, bool training);

}  // namespace bert
