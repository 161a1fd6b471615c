#include "runs/RunFiles.h"

#include <filesystem>

#include "Error.h"
#include "runs/RunStore.h"

namespace bert::ui {

std::int64_t runDiskBytes(const RunStore& store, std::int64_t runId) {
    const auto folder = store.runFolder(runId);
    std::error_code error;
    if (!std::filesystem::is_directory(folder, error)) {
        return 0;
    }
    std::int64_t bytes = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(
             folder, std::filesystem::directory_options::skip_permission_denied, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        std::error_code sizeError;
        if (it->is_regular_file(sizeError)) {
            const auto size = it->file_size(sizeError);
            bytes += sizeError ? 0 : static_cast<std::int64_t>(size);
        }
    }
    return bytes;
}

std::int64_t removeRunCheckpoints(RunStore& store, std::int64_t runId) {
    const auto run = store.run(runId);
    if (!run) {
        throw InputError(store.file(), "has no run " + std::to_string(runId));
    }
    if (run->status == RunStatus::Running) {
        throw InputError("run " + std::to_string(runId) +
                         " is training; its checkpoints can be removed once it stops");
    }
    const auto bytes = runDiskBytes(store, runId);
    const auto folder = store.runFolder(runId);
    std::error_code error;
    std::filesystem::remove_all(folder, error);
    if (error) {
        throw StoreError(folder, "could not be removed: " + error.message());
    }
    return bytes;
}

}  // namespace bert::ui
