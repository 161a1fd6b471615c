#pragma once

// What every command-line test shares: starting bert-studio-cli as a user does (its own
// process, standard output and error in files), waiting for it, and a fixture with a tiny model
// and a learnable CSV.

#include <cstdint>
#include <filesystem>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/TestSupport.h"

namespace bert::test {

struct Outcome {
    int code = -1;  ///< the exit code, or 128 + the signal that ended the process
    std::string out;
    std::string err;
};

/// How a command is started beyond its arguments.
struct StartOptions {
    std::filesystem::path workingDirectory;  ///< empty: the test's own
    std::filesystem::path input;             ///< standard input from this file; empty: inherited
    /// Set in the command's environment only ("NAME", "value").
    std::vector<std::pair<std::string, std::string>> environment;
    /// > 0: no file the command writes may grow past this many bytes (RLIMIT_FSIZE, with SIGXFSZ
    /// ignored, so a write past it fails with EFBIG): a full disk without a mount.
    std::uint64_t fileSizeLimit = 0;
};

/// Starts the command line with args (BERT_STUDIO_TEST_CLI names another build's, to show a
/// test failing without its fix); stdout and stderr go to dir/stdout and dir/stderr.
pid_t startCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const StartOptions& options = {});
/// Waits for pid and reads what it wrote to dir.
Outcome finishCli(pid_t pid, const std::filesystem::path& dir);
Outcome runCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const StartOptions& options = {});

/// The child of `parent` whose environment says RANK=rank, or -1.
pid_t workerOfRank(pid_t parent, int rank);
/// Whether the process pid exists (and is not a zombie).
bool processExists(pid_t pid);

/// Sentences over the tiny model's vocabulary in file (text,labels,words): labels "good" and
/// "bad" when those words are in them (multi-label, separated by ";"), and the number of words
/// (regression).
void writeTaskCsv(const std::filesystem::path& file, int rows);
/// Tagged sentences in CoNLL's layout: "cat" and "dogs" are B-ANIMAL.
void writeConll(const std::filesystem::path& file, int sentences);

/// A tiny model (dropout 0.1) in dir/model, 80 reviews in dir/reviews.csv, runs in
/// dir/runs.sqlite.
class CliFixture : public ::testing::Test {
protected:
    void SetUp() override;

    /// `--db runs.sqlite train` on the tiny model and the reviews, then extra.
    std::vector<std::string> trainArgs(const std::vector<std::string>& extra) const;

    /// Waits until the run database holds at least count steps of run 1 (and a checkpoint);
    /// returns the count seen, 0 after 3 minutes (CI runs tests side by side on two cores).
    std::size_t waitForSteps(std::size_t count, std::int64_t runId = 1) const;

    TempDir dir_;
    std::string db_;
};

}  // namespace bert::test
