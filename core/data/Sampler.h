#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bert {

enum class BatchOrder {
    Random,         ///< a seeded shuffle each epoch
    LengthGrouped,  ///< transformers' group_by_length: sorted megabatches, longest first
};

/// The example indices of one epoch, as optimizer-step windows of stepExamples examples each
/// (micro-batch x accumulation steps; the last window may be shorter). Every example appears
/// exactly once. Deterministic in (seed, epoch), so a resumed run replays the same order.
///
/// LengthGrouped follows transformers' get_length_grouped_indices with its batch size of
/// train batch x accumulation: shuffle, cut into megabatches of min(n / (4 x batch), 50)
/// batches (at least 1), sort each megabatch by length descending, and swap the longest example
/// of all to the very front, so an out-of-memory error shows on the first step, not hours later.
/// With shuffle false the epoch starts from the file's order instead of a seeded shuffle (Random
/// is then the file's order; LengthGrouped sorts megabatches of consecutive examples).
/// With weights (one per example), the epoch is instead n draws with replacement, each example
/// drawn with probability weight / sum (PyTorch's WeightedRandomSampler, replacement=True,
/// num_samples=n): an example may appear several times or not at all; the draws are then
/// ordered as above.
std::vector<std::vector<std::size_t>> planEpoch(const std::vector<std::size_t>& lengths,
                                                std::size_t stepExamples, BatchOrder order,
                                                std::uint64_t seed, std::size_t epoch,
                                                bool shuffle = true,
                                                const std::vector<double>& weights = {});

/// Each example's weight for a class-balanced draw: 1 / its class's count, so that every class
/// present is drawn equally often (a class of 5 examples as often as one of 500).
std::vector<double> balancedWeights(const std::vector<std::int64_t>& labels);

/// Splits a window into consecutive micro-batches of at most microBatch examples.
std::vector<std::vector<std::size_t>> splitWindow(const std::vector<std::size_t>& window,
                                                  std::size_t microBatch);

}  // namespace bert
