#include "io/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <random>
#include <string>
#include <unistd.h>

#include "Error.h"
#include "io/CrashPoints.h"

namespace bert {

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
    std::random_device entropy;
    temporary_ = target_;
    temporary_ += ".tmp-" + std::to_string(entropy());
    stream_ = std::fopen(temporary_.c_str(), "wbx");
    if (stream_ == nullptr) {
        fail("cannot be created", errno);
    }
}

AtomicFile::~AtomicFile() {
    if (stream_ != nullptr) {
        std::fclose(stream_);
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
    }
}

void AtomicFile::write(const void* data, std::size_t bytes) {
    if (bytes > 0 && std::fwrite(data, 1, bytes, stream_) != bytes) {
        fail("could not be written", errno);
    }
}

void AtomicFile::commit() {
    if (std::fflush(stream_) != 0) {
        fail("could not be written", errno);
    }
    if (::fsync(::fileno(stream_)) != 0) {
        fail("could not be synced to disk", errno);
    }
    std::FILE* stream = stream_;
    stream_ = nullptr;
    if (std::fclose(stream) != 0) {
        const int error = errno;
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
        fail("could not be written", error);
    }
    std::error_code renameError;
    std::filesystem::rename(temporary_, target_, renameError);
    if (renameError) {
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
        throw StoreError(target_, "could not be replaced: " + renameError.message());
    }
    test_hooks::crashPoint();  // a file boundary (io/CrashPoints.h; nothing outside tests)
}

void AtomicFile::fail(const char* action, int error) {
    throw StoreError(target_, std::string(action) + ": " + std::strerror(error));
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view text) {
    AtomicFile file(path);
    file.write(text);
    file.commit();
}

}  // namespace bert
