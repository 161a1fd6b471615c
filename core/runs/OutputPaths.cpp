#include "runs/OutputPaths.h"

#include <array>
#include <cstring>
#include <fstream>

#include "Error.h"

namespace bert {

namespace {

constexpr const char* kRunsFolderMarker = ".bert-studio-database";  // as runs/StoreSql.cpp

bool isSqliteFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::array<char, 16> header{};
    in.read(header.data(), header.size());
    return in.gcount() == 16 && std::memcmp(header.data(), "SQLite format 3", 16) == 0;
}

bool isInside(const std::filesystem::path& path, const std::filesystem::path& folder) {
    const auto relative = path.lexically_relative(folder);
    return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::filesystem::path resolvedPath(const std::filesystem::path& path) {
    std::error_code error;
    auto resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
    return error ? std::filesystem::absolute(path).lexically_normal() : resolved;
}

bool isInsideRunsFolder(const std::filesystem::path& path) {
    std::error_code error;
    for (auto folder = resolvedPath(path); !folder.empty(); folder = folder.parent_path()) {
        if (std::filesystem::is_regular_file(folder / kRunsFolderMarker, error)) {
            return true;
        }
        if (folder == folder.root_path()) {
            break;
        }
    }
    return false;
}

void checkOutputFile(const std::filesystem::path& output, const std::string& role,
                     const ProtectedPaths& protectedPaths) {
    const auto target = resolvedPath(output);
    const auto refuse = [&](const std::string& what) {
        throw InputError(output, role + " would overwrite " + what + "; write it elsewhere");
    };
    std::error_code error;
    if (std::filesystem::is_directory(target, error)) {
        throw InputError(output, role + " names a folder; it writes a file");
    }
    if (isSqliteFile(target)) {
        refuse("an SQLite database (a run database?)");
    }
    for (const char* journal : {"-wal", "-shm", "-journal"}) {
        const auto name = target.filename().string();
        const std::string suffix = journal;
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
            isSqliteFile(target.parent_path() / name.substr(0, name.size() - suffix.size()))) {
            refuse("the journal of an SQLite database (a run database?)");
        }
    }
    if (isInsideRunsFolder(target)) {
        refuse("a file in a run database's runs folder (checkpoints)");
    }
    for (const auto& file : protectedPaths.files) {
        if (!file.empty() && resolvedPath(file) == target) {
            refuse("a file this command reads (" + file.string() + ")");
        }
    }
    for (const auto& folder : protectedPaths.folders) {
        if (!folder.empty() && isInside(target, resolvedPath(folder))) {
            refuse("a file of the model folder " + folder.string());
        }
    }
}

}  // namespace bert
