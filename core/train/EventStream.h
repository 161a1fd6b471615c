#pragma once

// The trainer's one event interface (TrainerEvents.h) carried across a process boundary as JSON
// lines, so that a program that starts `bert-studio-cli train --events-fd N` (the studio, for
// data-parallel runs it launches as worker processes) sees the run exactly as an in-process
// TrainerObserver would. One object per callback, in order, each on its own line:
//
//   {"event":"run_created","run_id":7}
//   {"event":"started", ...RunStart}        {"event":"step", ...StepMetrics}
//   {"event":"evaluation", ...EvalMetrics}  {"event":"epoch_end", ...EpochSummary}
//   {"event":"evaluation_progress","done":2,"batches":10}
//   {"event":"message", "kind":"oom_recovered", "step":3, "message":"...", "data":{...}}
//   {"event":"finished", ...RunResult}
//
// Field names are those of the structs in snake case. Unknown events and fields are ignored, so
// a newer writer can add them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "train/TrainerEvents.h"

namespace bert {

/// Writes every callback as a JSON line to a file descriptor (a pipe the caller passed down).
/// A reader that went away (EPIPE) is not an error: the run goes on and is still recorded in
/// the store; later lines are dropped. The process must ignore SIGPIPE.
class JsonLinesObserver final : public TrainerObserver {
public:
    explicit JsonLinesObserver(int fd) : fd_(fd) {}

    /// The id of the run the lines are about (runTrainingJob's onRunCreated).
    void runCreated(std::int64_t runId);

    void onStarted(const RunStart& start) override;
    void onStep(const StepMetrics& metrics) override;
    void onEvaluation(const EvalMetrics& metrics) override;
    void onEvaluationProgress(std::size_t done, std::size_t batches) override;
    void onEpochEnd(const EpochSummary& summary) override;
    void onEvent(const TrainerEvent& event) override;
    void onFinished(const RunResult& result) override;

private:
    void write(const std::string& line);

    int fd_;
    bool readerGone_ = false;
};

/// Reads the lines JsonLinesObserver writes and calls the same callbacks on an observer.
class EventLineReader {
public:
    explicit EventLineReader(TrainerObserver& observer) : observer_(observer) {}

    /// Handles one line; false when it is not one of ours (malformed JSON, no "event"), which
    /// the caller may log; nothing is called then.
    bool feed(std::string_view line);

    /// The run's id, once its run_created line was read.
    std::optional<std::int64_t> runId() const { return runId_; }
    /// The result, once the finished line was read.
    const std::optional<RunResult>& result() const { return result_; }

private:
    TrainerObserver& observer_;
    std::optional<std::int64_t> runId_;
    std::optional<RunResult> result_;
};

}  // namespace bert
