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
std::vector<std::size_t> lengthHistogram(const std::vector<std::size_t>& lengths,
                                         std::size_t maxLength, std::size_t bins);

/// The length below which a share p (0..1) of the examples lies (nearest rank; 0 when empty).
std::size_t lengthPercentile(std::vector<std::size_t> lengths, double p);

/// A histogram readable whatever the tail: equal bins of a round width over [0, upper], upper
/// the 99th percentile rounded up, and the longer examples (at most 1%) counted apart, so one
/// 10,000-token e-mail does not squeeze every other example into the first bin, and truncated
/// examples do not pile up in a giant last bar.
struct LengthBins {
    std::size_t width = 1;            ///< tokens per bin
    std::vector<std::size_t> counts;  ///< bin b: lengths in (b x width, (b + 1) x width]
    std::size_t longer = 0;           ///< examples longer than counts.size() x width
    std::size_t p50 = 0, p90 = 0, p99 = 0;
};
LengthBins binLengths(const std::vector<std::size_t>& lengths, std::size_t maxBins);

}  // namespace bert
