#pragma once

// Outputs never overwrite what the tool owns or reads (issue 26: `predict -o runs.sqlite` and
// `train --report runs.sqlite` replaced the run database with a CSV or JSON and exited 0; -o onto
// the training CSV, the input itself or runs/N/best/model.safetensors destroyed them).

#include <filesystem>
#include <string>
#include <vector>

namespace bert {

/// What one command reads or owns besides the run databases and runs folders that every check
/// knows on its own.
struct ProtectedPaths {
    std::vector<std::filesystem::path> files;    ///< read by the command (data, a job file)
    std::vector<std::filesystem::path> folders;  ///< whose every file is protected (a model)
};

/// The path as it is on disk: absolute, every symbolic link resolved (of the file itself too).
std::filesystem::path resolvedPath(const std::filesystem::path& path);

/// Whether folder, or one of the folders above it, is a runs folder (marked as a run database's
/// by its .bert-studio-database file).
bool isInsideRunsFolder(const std::filesystem::path& path);

/// Refuses (InputError naming the output and what it would destroy) an output file `role`
/// ("--output", "--report") that resolves, through symbolic links, to: an SQLite database (a run
/// database or another one) or its journal, a file inside a runs folder, one of protected.files,
/// or a file inside one of protected.folders. Outputs that are new files elsewhere, or that
/// replace the command's own earlier output, pass.
void checkOutputFile(const std::filesystem::path& output, const std::string& role,
                     const ProtectedPaths& protectedPaths);

}  // namespace bert
