#include "data/Sampler.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace bert {

namespace {

// transformers caps the megabatch multiplier at 50 batches.
constexpr std::size_t kMaxMegaBatchMultiplier = 50;

std::vector<std::size_t> shuffled(std::size_t n, std::uint64_t seed, std::size_t epoch) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    // A distinct stream per epoch, reproducible from (seed, epoch) alone.
    std::seed_seq sequence{seed, static_cast<std::uint64_t>(epoch),
                           std::uint64_t{0x9e3779b97f4a7c15ULL}};
    std::mt19937_64 random(sequence);
    std::shuffle(order.begin(), order.end(), random);
    return order;
}

std::vector<std::size_t> drawn(const std::vector<double>& weights, std::uint64_t seed,
                               std::size_t epoch) {
    // Its own stream, apart from the shuffle's.
    std::seed_seq sequence{seed, static_cast<std::uint64_t>(epoch),
                           std::uint64_t{0x5851f42d4c957f2dULL}};
    std::mt19937_64 random(sequence);
    std::discrete_distribution<std::size_t> pick(weights.begin(), weights.end());
    std::vector<std::size_t> order(weights.size());
    for (auto& index : order) {
        index = pick(random);
    }
    return order;
}

}  // namespace

std::vector<double> balancedWeights(const std::vector<std::int64_t>& labels) {
    std::vector<double> counts;
    for (const auto label : labels) {
        const auto c = static_cast<std::size_t>(std::max<std::int64_t>(label, 0));
        counts.resize(std::max(counts.size(), c + 1), 0.0);
        counts[c] += 1.0;
    }
    std::vector<double> weights;
    weights.reserve(labels.size());
    for (const auto label : labels) {
        weights.push_back(1.0 / counts[static_cast<std::size_t>(std::max<std::int64_t>(label, 0))]);
    }
    return weights;
}

std::vector<std::vector<std::size_t>> splitWindow(const std::vector<std::size_t>& window,
                                                  std::size_t microBatch) {
    if (microBatch == 0) {
        throw std::invalid_argument("splitWindow: micro-batch of 0");
    }
    std::vector<std::vector<std::size_t>> parts;
    for (std::size_t start = 0; start < window.size(); start += microBatch) {
        const std::size_t end = std::min(window.size(), start + microBatch);
        parts.emplace_back(window.begin() + static_cast<std::ptrdiff_t>(start),
                           window.begin() + static_cast<std::ptrdiff_t>(end));
    }
    return parts;
}

std::vector<std::vector<std::size_t>> planEpoch(const std::vector<std::size_t>& lengths,
                                                std::size_t stepExamples, BatchOrder order,
                                                std::uint64_t seed, std::size_t epoch, bool shuffle,
                                                const std::vector<double>& weights) {
    if (stepExamples == 0) {
        throw std::invalid_argument("planEpoch: a step of 0 examples");
    }
    if (!weights.empty() && weights.size() != lengths.size()) {
        throw std::invalid_argument("planEpoch: a weight per example");
    }
    const std::size_t n = lengths.size();
    std::vector<std::size_t> indices(n);
    if (!weights.empty() && n > 0) {
        indices = drawn(weights, seed, epoch);
    } else if (!shuffle) {
        std::iota(indices.begin(), indices.end(), std::size_t{0});
    } else {
        indices = shuffled(n, seed, epoch);
    }
    if (order == BatchOrder::LengthGrouped && n > 0) {
        const std::size_t multiplier =
            std::max<std::size_t>(1, std::min(n / (stepExamples * 4), kMaxMegaBatchMultiplier));
        const std::size_t megaBatch = multiplier * stepExamples;
        std::vector<std::size_t> megaStarts;
        for (std::size_t start = 0; start < n; start += megaBatch) {
            const auto begin = indices.begin() + static_cast<std::ptrdiff_t>(start);
            const auto end =
                indices.begin() + static_cast<std::ptrdiff_t>(std::min(n, start + megaBatch));
            // Python's sorted is stable: equal lengths keep their shuffled order.
            std::stable_sort(begin, end,
                             [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
            megaStarts.push_back(start);
        }
        std::size_t longest = 0;
        for (std::size_t m = 1; m < megaStarts.size(); ++m) {
            if (lengths[indices[megaStarts[m]]] > lengths[indices[megaStarts[longest]]]) {
                longest = m;
            }
        }
        std::swap(indices[0], indices[megaStarts[longest]]);
    }
    return splitWindow(indices, stepExamples);
}

}  // namespace bert
