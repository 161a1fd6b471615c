#pragma once

#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace bert {

/// The engine's errors, by whose fault they are. Each boundary (the command line's main, the
/// studio's slots through ui/common/Guard.h, the training worker) turns them into a message and,
/// in the command line, an exit code; what() names the file (when there is one) and says what is
/// wrong, in words the UI can show as they are.
///
///  - InputError: something the user supplied (a file, a column, a setting). Exit code 2.
///  - StoreError: the run store or the disk (a locked, read-only, full or corrupt database, a
///    folder that cannot be written). Exit code 4.
///  - EngineError: LibTorch failed, or memory ran out outside a training step's recovery.
///    Exit code 3.
class Error : public std::runtime_error {
public:
    Error(std::filesystem::path file, std::string problem)
        : std::runtime_error(file.empty() ? problem : file.string() + ": " + problem),
          file_(std::move(file)),
          problem_(std::move(problem)) {}

    /// The file at fault; empty when the problem is not about a file.
    const std::filesystem::path& file() const noexcept { return file_; }
    /// What is wrong, without the file name.
    const std::string& problem() const noexcept { return problem_; }

private:
    std::filesystem::path file_;
    std::string problem_;
};

/// Something the user supplied is wrong.
class InputError : public Error {
public:
    InputError(std::filesystem::path file, std::string problem)
        : Error(std::move(file), std::move(problem)) {}
    explicit InputError(std::string problem) : Error({}, std::move(problem)) {}
};

/// The run store or the disk failed.
class StoreError : public Error {
public:
    StoreError(std::filesystem::path file, std::string problem)
        : Error(std::move(file), std::move(problem)) {}
    explicit StoreError(std::string problem) : Error({}, std::move(problem)) {}
};

/// LibTorch failed, or memory ran out where no recovery applies.
class EngineError : public Error {
public:
    EngineError(std::filesystem::path file, std::string problem)
        : Error(std::move(file), std::move(problem)) {}
    explicit EngineError(std::string problem) : Error({}, std::move(problem)) {}
};

/// The command line's exit codes, one per outcome (README, "Exit codes").
namespace exit_code {
constexpr int kDone = 0;         ///< the command did what it was asked
constexpr int kInternal = 1;     ///< a bug: an error of no known kind
constexpr int kBadInput = 2;     ///< InputError, or a usage error of the command line
constexpr int kRunFailed = 3;    ///< the run failed, or an EngineError
constexpr int kStoreFailed = 4;  ///< StoreError
constexpr int kCancelled = 130;  ///< stopped by Ctrl-C (the shell's convention)
}  // namespace exit_code

/// The exit code for an error that ends a program: by its kind (see exit_code).
inline int exitCodeOf(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const InputError&) {
        return exit_code::kBadInput;
    } catch (const StoreError&) {
        return exit_code::kStoreFailed;
    } catch (const EngineError&) {
        return exit_code::kRunFailed;
    } catch (...) {
        return exit_code::kInternal;
    }
}

}  // namespace bert
