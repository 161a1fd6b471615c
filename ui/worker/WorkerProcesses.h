#pragma once

// Data-parallel runs from the studio: the studio does not host the collective itself; it starts
// `bert-studio-cli train --nproc N` (or `resume RUN --nproc N`), whose launcher starts the ranks
// and handles their faults (core/distributed, app/cli/Launcher.cpp), and reads rank 0's events
// from a pipe (`--events-fd 3`, core/train/EventStream.h) into the same TrainerObserver an
// in-process run reports to. The GUI never waits on a collective, and a rank that crashes cannot
// take the studio with it.

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "train/TrainerEvents.h"

namespace bert::ui {

/// The command line beside the studio (BERT_STUDIO_CLI overrides it: tests, other layouts).
std::filesystem::path commandLineProgram();

/// How a launched run ended.
struct LaunchedRun {
    std::optional<std::int64_t> runId;  ///< from the run_created line
    std::optional<RunResult> result;    ///< from the finished line
    int exitCode = 0;                   ///< the launcher's (README "Exit codes")
    std::string errorMessage;           ///< the last "error: ..." line it printed, if any
};

/// Runs the command line with `arguments` (after --db database) and `--events-fd 3`, calling
/// observer for every event line and onRunCreated once the run exists. Setting cancel sends the
/// launcher SIGINT (as Ctrl-C: every rank stops at the same step and the run is resumable).
/// Blocks until the launcher and its ranks have exited. Throws EngineError when the program
/// cannot be started.
LaunchedRun runCommandLine(const std::vector<std::string>& arguments,
                           const std::filesystem::path& database, TrainerObserver& observer,
                           const std::function<void(std::int64_t)>& onRunCreated,
                           const std::atomic<bool>& cancel);

}  // namespace bert::ui
