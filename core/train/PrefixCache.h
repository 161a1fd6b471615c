#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include <ATen/core/Tensor.h>

namespace bert {

/// The frozen-prefix cache (issue 14, point 3): the output of a run's frozen part (the
/// embeddings and the lowest encoder layers) for each example of one set, kept after its first
/// computation so that later epochs and evaluations skip the frozen part.
///
/// An entry is an example's hidden states after the frozen part, [its tokens, hidden size],
/// real tokens only, in the dtype the prefix produced. Entries stay in host memory until
/// memoryBudget bytes are used; later ones go to spillFile (created on the first that does not
/// fit, read back with pread, removed when the cache is destroyed). Host memory is not the
/// device's: the cache's bytes are not counted in the run's peak (MemoryMonitor) nor against its
/// memory cap. Not thread-safe: the trainer's thread alone uses it.
class PrefixCache {
public:
    /// Removes a spillFile left behind by a killed run. store() throws StoreError naming
    /// spillFile when it cannot be created (when first needed).
    PrefixCache(std::size_t examples, std::int64_t memoryBudget, std::filesystem::path spillFile);
    ~PrefixCache();
    PrefixCache(const PrefixCache&) = delete;
    PrefixCache& operator=(const PrefixCache&) = delete;

    bool contains(std::size_t example) const;
    /// Keeps rows ([tokens, hidden], any device) as example's entry. Throws StoreError naming
    /// the spill file when it cannot be written (a full disk).
    void store(std::size_t example, const at::Tensor& rows);
    /// The entry of example, on the CPU. Throws StoreError naming the spill file when it cannot
    /// be read back.
    at::Tensor load(std::size_t example) const;

    std::size_t stored() const { return stored_; }
    std::int64_t memoryBytes() const { return memoryBytes_; }
    std::int64_t fileBytes() const { return fileBytes_; }
    const std::filesystem::path& spillFile() const { return spillFile_; }

private:
    struct Entry {
        at::Tensor rows;           ///< in memory; undefined when in the file or absent
        std::int64_t offset = -1;  ///< in the file: where its bytes begin; -1: not there
        std::int64_t tokens = 0;
        std::int64_t width = 0;
        at::ScalarType dtype = at::kFloat;
    };
    void openSpillFile();

    std::vector<Entry> entries_;
    std::int64_t memoryBudget_;
    std::filesystem::path spillFile_;
    int descriptor_ = -1;
    std::size_t stored_ = 0;
    std::int64_t memoryBytes_ = 0;
    std::int64_t fileBytes_ = 0;
};

}  // namespace bert
