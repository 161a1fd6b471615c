#include "train/PrefixCache.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <ATen/ATen.h>

#include "Error.h"
#include "memory/MemoryMonitor.h"

namespace bert {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const char* action, int error) {
    throw StoreError(file, std::string("the frozen-prefix cache ") + action + ": " +
                               (error != 0 ? std::strerror(error) : "short transfer"));
}

}  // namespace

PrefixCache::PrefixCache(std::size_t examples, std::int64_t memoryBudget,
                         std::filesystem::path spillFile)
    : entries_(examples), memoryBudget_(memoryBudget), spillFile_(std::move(spillFile)) {
    // A file a killed run left behind holds nothing this run can use.
    std::error_code ignored;
    std::filesystem::remove(spillFile_, ignored);
}

PrefixCache::~PrefixCache() {
    if (descriptor_ >= 0) {
        ::close(descriptor_);
        std::error_code ignored;
        std::filesystem::remove(spillFile_, ignored);
    }
}

bool PrefixCache::contains(std::size_t example) const {
    const auto& entry = entries_.at(example);
    return entry.rows.defined() || entry.offset >= 0;
}

void PrefixCache::openSpillFile() {
    // Truncates a file a killed run left behind: its entries are not this run's.
    descriptor_ = ::open(spillFile_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (descriptor_ < 0) {
        fail(spillFile_, "file cannot be created", errno);
    }
}

void PrefixCache::store(std::size_t example, const at::Tensor& rows) {
    auto& entry = entries_.at(example);
    if (entry.rows.defined() || entry.offset >= 0) {
        return;  // the same example's prefix, computed again: the first one stays
    }
    // Host memory, outside the run's device accounting (see the class comment).
    const UncountedAllocations hostMemory;
    const auto host = rows.detach().to(at::kCPU).contiguous();
    const auto bytes = static_cast<std::int64_t>(host.nbytes());
    entry.tokens = host.size(0);
    entry.width = host.size(1);
    entry.dtype = host.scalar_type();
    if (memoryBytes_ + bytes <= memoryBudget_) {
        // On the CPU, host may be a view of the whole batch's output: keep a copy of its own.
        entry.rows = rows.device().is_cpu() ? host.clone() : host;
        memoryBytes_ += bytes;
    } else {
        if (descriptor_ < 0) {
            openSpillFile();
        }
        const auto* data = static_cast<const char*>(host.const_data_ptr());
        std::int64_t written = 0;
        while (written < bytes) {
            const auto n =
                ::pwrite(descriptor_, data + written, static_cast<std::size_t>(bytes - written),
                         fileBytes_ + written);
            if (n <= 0) {
                fail(spillFile_, "file cannot be written", n < 0 ? errno : ENOSPC);
            }
            written += n;
        }
        entry.offset = fileBytes_;
        fileBytes_ += bytes;
    }
    ++stored_;
}

at::Tensor PrefixCache::load(std::size_t example) const {
    const auto& entry = entries_.at(example);
    if (entry.rows.defined()) {
        return entry.rows;
    }
    TORCH_CHECK(entry.offset >= 0, "PrefixCache::load: example ", example, " is not cached");
    auto rows = at::empty({entry.tokens, entry.width}, at::TensorOptions().dtype(entry.dtype));
    auto* data = static_cast<char*>(rows.data_ptr());
    const auto bytes = static_cast<std::int64_t>(rows.nbytes());
    std::int64_t done = 0;
    while (done < bytes) {
        const auto n = ::pread(descriptor_, data + done, static_cast<std::size_t>(bytes - done),
                               entry.offset + done);
        if (n <= 0) {
            fail(spillFile_, "file cannot be read back", n < 0 ? errno : 0);
        }
        done += n;
    }
    return rows;
}

}  // namespace bert
