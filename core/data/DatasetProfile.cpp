#include "data/DatasetProfile.h"

#include <algorithm>
#include <cmath>

#include "data/Sampler.h"

namespace bert {

namespace {

double paddingShareOf(const std::vector<std::vector<std::size_t>>& batches,
                      const std::vector<std::size_t>& clipped) {
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
    shares.fixed =
        1.0 - real / (static_cast<double>(maxLength) * static_cast<double>(lengths.size()));
    shares.dynamic =
        paddingShareOf(planEpoch(clipped, batchSize, BatchOrder::Random, seed, 0), clipped);
    shares.grouped =
        paddingShareOf(planEpoch(clipped, batchSize, BatchOrder::LengthGrouped, seed, 0), clipped);
    return shares;
}

std::vector<std::size_t> lengthHistogram(const std::vector<std::size_t>& lengths,
                                         std::size_t maxLength, std::size_t bins) {
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

std::size_t lengthPercentile(std::vector<std::size_t> lengths, double p) {
    if (lengths.empty()) {
        return 0;
    }
    const auto rank = static_cast<std::size_t>(
        std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(lengths.size())));
    const std::size_t index = rank == 0 ? 0 : rank - 1;
    std::nth_element(lengths.begin(), lengths.begin() + static_cast<std::ptrdiff_t>(index),
                     lengths.end());
    return lengths[index];
}

LengthBins binLengths(const std::vector<std::size_t>& lengths, std::size_t maxBins) {
    LengthBins bins;
    bins.p50 = lengthPercentile(lengths, 0.50);
    bins.p90 = lengthPercentile(lengths, 0.90);
    bins.p99 = lengthPercentile(lengths, 0.99);
    maxBins = std::max<std::size_t>(maxBins, 1);
    // A round bin width (1, 2, 5 x 10^k) so that maxBins bins cover the 99th percentile.
    const double needed =
        static_cast<double>(std::max<std::size_t>(bins.p99, 1)) / static_cast<double>(maxBins);
    double width = 1.0;
    for (double scale = 1.0; width < needed; scale *= 10.0) {
        for (const double step : {1.0, 2.0, 5.0}) {
            width = step * scale;
            if (width >= needed) {
                break;
            }
        }
    }
    bins.width = static_cast<std::size_t>(width);
    const std::size_t count = std::max<std::size_t>(1, (bins.p99 + bins.width - 1) / bins.width);
    bins.counts.assign(count, 0);
    for (const auto length : lengths) {
        const std::size_t bin = length == 0 ? 0 : (length - 1) / bins.width;
        if (bin < count) {
            ++bins.counts[bin];
        } else {
            ++bins.longer;
        }
    }
    return bins;
}

}  // namespace bert
