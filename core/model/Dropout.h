#pragma once

#include <cstdint>

#include <ATen/core/Tensor.h>

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

/// Keep-mask of `sizes` (true with probability `keep`): element i of the row-major order comes
/// from word i % 4 of Philox 4x32-10 block i / 4, so the mask depends on the seed alone, not on
/// the number of threads.
at::Tensor philoxKeepMask(at::IntArrayRef sizes, double keep, std::uint64_t seed);

/// Inverted dropout: in training each element is zeroed with probability p and the others are
/// scaled by 1 / (1 - p); otherwise, or with p == 0, the input itself.
at::Tensor applyDropout(const at::Tensor& input, double p, bool training);

/// Scaled dot-product attention over [B, heads, S, head_dim] with an additive mask. With
/// dropout on the CPU it is ATen's math path (_scaled_dot_product_attention_math: fp32
/// arithmetic, q and k each scaled by sqrt(scale), mask added, softmax, dropout, times v) with
/// the dropout above; every other case is at::scaled_dot_product_attention.
at::Tensor dotProductAttention(const at::Tensor& query, const at::Tensor& key,
                               const at::Tensor& value, const at::Tensor& additiveMask,
                               double dropoutP, bool training);

}  // namespace bert
