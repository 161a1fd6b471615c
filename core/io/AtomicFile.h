#pragma once

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace bert {

/// Writes a file so that readers see either the old file or the complete new one: data goes to
/// a temporary file in the same folder, which commit() flushes to disk and renames over the
/// target. Destroyed without commit() (an exception, a full disk), the temporary file is removed
/// and the target is untouched. Every failure throws StoreError naming the target file and the
/// system's reason ("No space left on device", "Permission denied").
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }
    /// Flushes, syncs and renames into place. No writes after this.
    void commit();

private:
    [[noreturn]] void fail(const char* action, int error);

    std::filesystem::path target_;
    std::filesystem::path temporary_;
    std::FILE* stream_ = nullptr;
};

/// Writes text to path atomically (see AtomicFile).
void writeFileAtomically(const std::filesystem::path& path, std::string_view text);

}  // namespace bert
