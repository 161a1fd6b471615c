#include <atomic>
#include <unistd.h>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "data/Batch.h"
#include "text/Format.h"
#include "data/HostReads.h"
#include "train/PrefixCache.h"
#include "train/Trainer.h"

// The Trainer's frozen-prefix cache (issue 14, point 3): with the embeddings and the lowest
// layers frozen, their output for an example never changes once their dropout is off, so it is
// computed once per example (train/PrefixCache.h) and later epochs and evaluations start at the
// first trainable layer. The steps, the loop and the set-up are in Trainer.cpp.

namespace bert {

namespace {

// Where a set's cache spills: beside the run, or in the temporary folder for a trainer that
// writes no checkpoints (tests, the largest-batch search).
std::filesystem::path spillFileFor(const std::filesystem::path& folder, const std::string& set) {
    if (!folder.empty()) {
        return folder / ("prefix-cache-" + set + ".bin");
    }
    static std::atomic<int> trainers{0};
    return std::filesystem::temp_directory_path() /
           ("bert-studio-prefix-cache-" + std::to_string(::getpid()) + "-" +
            std::to_string(trainers++) + "-" + set + ".bin");
}

std::int64_t tokensOf(const TokenizedSet& set) {
    std::int64_t tokens = 0;
    for (const auto length : set.lengths) {
        tokens += static_cast<std::int64_t>(length);
    }
    return tokens;
}

}  // namespace

void Trainer::setUpPrefixCache() {
    if (!config_.cacheFrozenPrefix) {
        return;
    }
    // One memory budget, shared by the two sets in proportion to their tokens.
    const auto budget = static_cast<std::int64_t>(config_.prefixCacheMemoryMiB) << 20;
    const auto trainTokens = tokensOf(data_.train);
    const auto allTokens = std::max<std::int64_t>(1, trainTokens + tokensOf(data_.validation));
    const auto trainBudget =
        static_cast<std::int64_t>(static_cast<double>(budget) * static_cast<double>(trainTokens) /
                                  static_cast<double>(allTokens));
    if (!checkpointFolder_.empty()) {
        std::filesystem::create_directories(checkpointFolder_);
    }
    trainPrefix_ = std::make_unique<PrefixCache>(data_.train.size(), trainBudget,
                                                 spillFileFor(checkpointFolder_, "train"));
    validationPrefix_ =
        std::make_unique<PrefixCache>(data_.validation.size(), budget - trainBudget,
                                      spillFileFor(checkpointFolder_, "validation"));
}

void Trainer::enterTrainingMode() {
    auto& net = *bundle_.model;
    net.train();
    if (trainPrefix_) {
        for (const auto& stage : net.embeddingModules()) {
            stage->eval();
        }
        for (std::size_t i = 0; i < config_.freezeLayers; ++i) {
            net.layer(static_cast<std::int64_t>(i)).eval();
        }
    }
}

at::Tensor Trainer::logitsOf(const TokenizedSet& set, PrefixCache* cache,
                             const std::vector<std::size_t>& examples, const TokenBatch& batch) {
    auto& net = *bundle_.model;
    if (cache == nullptr) {
        return net.forward(batch);
    }
    const auto layers = static_cast<std::int64_t>(config_.freezeLayers);
    // The prefix of the examples not cached yet, as one batch of their own.
    std::vector<std::size_t> missing;
    for (std::size_t b = 0; b < examples.size(); ++b) {
        if (!cache->contains(examples[b])) {
            missing.push_back(b);
        }
    }
    if (!missing.empty()) {
        std::vector<const Encoding*> encodings;
        for (const auto b : missing) {
            encodings.push_back(&set.encodings[examples[b]]);
        }
        const auto prefixBatch = makeBatch(encodings, /*training=*/false);
        at::Tensor hidden;
        {
            const torch::NoGradGuard frozen;
            hidden = net.prefix(prefixBatch, layers);
        }
        // The cache lives in host memory: one read of the whole batch's output (not one per
        // example), sliced on the host; where each sequence starts is known there already.
        hidden = readToHost(hidden);
        const auto& first = prefixBatch.layout.firstTokenRows;
        for (std::size_t j = 0; j < missing.size(); ++j) {
            const auto example = examples[missing[j]];
            const auto tokens = static_cast<std::int64_t>(set.lengths[example]);
            cache->store(example, prefixBatch.layout.packed
                                      ? hidden.narrow(0, first[j], tokens)
                                      : hidden[static_cast<std::int64_t>(j)].narrow(0, 0, tokens));
        }
        prefixComputed_ += missing.size();
    }
    prefixReused_ += examples.size() - missing.size();

    // The hidden states after the prefix, in batch's layout (zeros on padding: masked keys).
    std::vector<at::Tensor> rows;
    rows.reserve(examples.size());
    for (const auto example : examples) {
        rows.push_back(cache->load(example));
    }
    const auto width = rows.front().size(1);
    // Assembled in pinned memory on CUDA, so that the copy to the device does not wait.
    const auto options = stagingOptions(device_, rows.front().scalar_type());
    at::Tensor hidden;
    if (batch.layout.packed) {
        const auto& first = batch.layout.firstTokenRows;
        hidden = at::empty({batch.inputIds.size(0), width}, options);
        for (std::size_t b = 0; b < rows.size(); ++b) {
            hidden.narrow(0, first[b], rows[b].size(0)).copy_(rows[b]);
        }
    } else {
        hidden = at::zeros({batch.inputIds.size(0), batch.inputIds.size(1), width}, options);
        for (std::size_t b = 0; b < rows.size(); ++b) {
            hidden[static_cast<std::int64_t>(b)].narrow(0, 0, rows[b].size(0)).copy_(rows[b]);
        }
    }
    return net.forwardFrom(toDevice(hidden, device_), batch.layout, layers);
}

void Trainer::announcePrefixCache() {
    if (!trainPrefix_) {
        return;
    }
    emit(EventKind::Info,
         "frozen-prefix cache on: the embeddings" +
             (config_.freezeLayers > 0
                  ? " and the lowest " + std::to_string(config_.freezeLayers) + " layers"
                  : std::string()) +
             " run once per example, without dropout; later epochs and evaluations start above "
             "them (up to " +
             std::to_string(config_.prefixCacheMemoryMiB) +
             " MiB of host memory, the rest in a file beside the run)",
         {{"frozen_layers", config_.freezeLayers}, {"memory_mib", config_.prefixCacheMemoryMiB}});
}

void Trainer::closePrefixCache() {
    if (!trainPrefix_) {
        return;
    }
    const auto memory = trainPrefix_->memoryBytes() + validationPrefix_->memoryBytes();
    const auto file = trainPrefix_->fileBytes() + validationPrefix_->fileBytes();
    emit(EventKind::Info,
         "frozen-prefix cache: the frozen part ran for " + std::to_string(prefixComputed_) +
             " examples and was skipped for " + std::to_string(prefixReused_) + "; " +
             formatBytes(static_cast<double>(memory)) + " in memory, " +
             formatBytes(static_cast<double>(file)) + " in files (removed)",
         {{"prefix_computed", prefixComputed_},
          {"prefix_reused", prefixReused_},
          {"memory_bytes", memory},
          {"file_bytes", file}});
    trainPrefix_.reset();
    validationPrefix_.reset();
}

}  // namespace bert
