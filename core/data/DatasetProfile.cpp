#include "data/DatasetProfile.h"

#include <algorithm>

#include "data/Sampler.h"

namespace bert {

namespace {

double paddingShareOf(const std::vector<std::vector<std::size_t>>& batches, const std::vector<std::size_t>& clipped) {
    double real = 0.0;
    double padded = 0.0;
    for (const auto& batch : batches) {
        std::size_t longest = 0;
        for (const auto index : batch) {
            real += static_cast<double>(clipped[index]);
            longest = std::max(longest, clipped[index]);
        }
        padded += static_cast<double>(longest * batch.size());
    }
    return padded > 0.0 ? 1.0 - real / padded : 0.0;
}

}  // namespace

PaddingShares estimatePaddingShares(const std::vector<std::size_t>& lengths, std::size_t maxLength,
                                    std::size_t batchSize, std::uint64_t seed) {
    PaddingShares shares;
    if (lengths.empty() || maxLength == 0 || batchSize == 0) {
        return shares;
    }
    std::vector<std::size_t> clipped(lengths.size());
    double real = 0.0;
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        clipped[i] = std::min(lengths[i], maxLength);
        real += static_cast<double>(clipped[i]);
    }
    shares.fixed = 1.0 - real / (static_cast<double>(maxLength) * static_cast<double>(lengths.size()));
    shares.dynamic = paddingShareOf(planEpoch(clipped, batchSize, BatchOrder::Random, seed, 0), clipped);
    shares.grouped = paddingShareOf(planEpoch(clipped, batchSize, BatchOrder::LengthGrouped, seed, 0), clipped);
    return shares;
}

std::vector<std::size_t> lengthHistogram(const std::vector<std::size_t>& lengths, std::size_t maxLength,
                                         std::size_t bins) {
    std::vector<std::size_t> counts(std::max<std::size_t>(bins, 1), 0);
    if (maxLength == 0) {
        return counts;
    }
    for (const auto length : lengths) {
        const std::size_t clipped = std::min(length, maxLength);
        const std::size_t bin = std::min(counts.size() - 1, (clipped * counts.size()) / maxLength);
        ++counts[bin];
    }
    return counts;
}

}  // namespace bert
