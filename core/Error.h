#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace bert {

/// A problem with something the user supplied: a file, a column, a setting. what() names the
/// file (when there is one) and says what is wrong, in words the UI can show as they are.
class InputError : public std::runtime_error {
public:
    InputError(std::filesystem::path file, std::string problem)
        : std::runtime_error(file.empty() ? problem : file.string() + ": " + problem),
          file_(std::move(file)),
          problem_(std::move(problem)) {}
    explicit InputError(std::string problem) : InputError({}, std::move(problem)) {}

    /// The file at fault; empty when the problem is not about a file.
    const std::filesystem::path& file() const noexcept { return file_; }
    /// What is wrong, without the file name.
    const std::string& problem() const noexcept { return problem_; }

private:
    std::filesystem::path file_;
    std::string problem_;
};

}  // namespace bert
