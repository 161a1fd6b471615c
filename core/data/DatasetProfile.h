#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bert {

/// The share of computed tokens that would be padding, per batching scheme, at a max length and
/// batch size: what the studio shows beside the token-length histogram before training.
struct PaddingShares {
    double fixed = 0.0;    ///< every batch padded to maxLength
    double dynamic = 0.0;  ///< random batches padded to their longest example
    double grouped = 0.0;  ///< length-grouped batches padded to their longest example
};

/// lengths are token counts with special tokens (before truncation is fine: they are clipped).
PaddingShares estimatePaddingShares(const std::vector<std::size_t>& lengths, std::size_t maxLength,
                                    std::size_t batchSize, std::uint64_t seed = 42);

/// Counts of lengths (clipped to maxLength) in `bins` equal bins over [0, maxLength].
std::vector<std::size_t> lengthHistogram(const std::vector<std::size_t>& lengths, std::size_t maxLength,
                                         std::size_t bins);

}  // namespace bert
