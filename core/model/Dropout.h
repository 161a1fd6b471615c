#pragma once

#include <cstdint>
#include <optional>

#include <ATen/core/Tensor.h>

#include "data/TokenBatch.h"

namespace bert {

/// Dropout and attention for training on the CPU without ATen's serial random numbers.
///
/// ATen's CPU dropout draws its mask with bernoulli_, one mt19937 number per element on one
/// thread: on MiniLM at 16 x 128 tokens that is 29 M draws per micro-batch (19 M of them on the
/// attention maps), and it was the largest serial part of a training step. Here the mask comes
/// from Philox 4x32-10 counters, filled in parallel, and is kept as one byte per element instead
/// of a float noise tensor. The Philox seed is drawn from the default CPU generator, so
/// manual_seed, gradient checkpointing's RNG replay and resume govern these masks exactly as they
/// govern ATen's. On other devices at::dropout and scaled_dot_product_attention run unchanged
/// (CUDA's are fused and parallel already).

/// Where the rows of a tensor sit among the Philox counters. The tensor is viewed as
/// [rows, width] (width: its last dimension), and element c of row r is drawn from counter
/// rowKeys[r] x stride + c. Without row keys the counters follow the row-major order (row r at
/// r x width). The model keys its rows by sequence and position (data/TokenBatch.h, TokenLayout), so
/// that a token's mask does not depend on the padding around it: padded, dynamically padded and
/// unpadded batches drop the same elements of the same real tokens.
struct MaskLayout {
    at::Tensor rowKeys;       ///< [rows] int64 on the CPU; undefined: row-major order
    std::int64_t stride = 0;  ///< counters between consecutive keys; at least the width
};

/// Keep-mask of `sizes` (true with probability `keep`): the element at counter i (see
/// MaskLayout) comes from word i % 4 of Philox 4x32-10 block i / 4, so the mask depends on the
/// seed and the layout alone, not on the number of threads.
at::Tensor philoxKeepMask(at::IntArrayRef sizes, double keep, std::uint64_t seed,
                          const MaskLayout& layout = {});

/// Inverted dropout: in training each element is zeroed with probability p and the others are
/// scaled by 1 / (1 - p); otherwise, or with p == 0, the input itself. layout places the rows
/// among the mask's counters (CPU only; CUDA runs ATen's dropout). seed: the Philox seed of the
/// mask; none draws one from the default CPU generator.
at::Tensor applyDropout(const at::Tensor& input, double p, bool training,
                        const MaskLayout& layout = {},
                        std::optional<std::uint64_t> seed = std::nullopt);

/// Whether applyDropout(input, p, training) draws its mask here (training, p > 0, on the CPU).
bool dropsOnCpu(const at::Tensor& input, double p, bool training);

/// Draws a Philox seed from the default CPU generator, as one applyDropout call does: for one
/// mask cut into several calls (attention groups share their layer's seed).
std::uint64_t drawDropoutSeed();

/// Scaled dot-product attention over [B, heads, S, head_dim] with an additive mask (undefined:
/// none, every key attended). With
/// dropout on the CPU it is ATen's math path (_scaled_dot_product_attention_math: fp32
/// arithmetic, q and k each scaled by sqrt(scale), mask added, softmax, dropout, times v) with
/// the dropout above, the weights of row (b, head, query i) at key sequences[b] x heads + head,
/// i: the same mask for the same sequence and positions whatever the padded length S;
/// every other case is at::scaled_dot_product_attention. sequences: [B] int64 on the CPU, the
/// micro-batch index of each row of the batch (undefined: 0 .. B-1).
at::Tensor dotProductAttention(const at::Tensor& query, const at::Tensor& key,
                               const at::Tensor& value, const at::Tensor& additiveMask,
                               double dropoutP, bool training, const at::Tensor& sequences = {},
                               std::optional<std::uint64_t> seed = std::nullopt);

}  // namespace bert
