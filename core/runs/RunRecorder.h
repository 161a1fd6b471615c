#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "train/TrainerEvents.h"

namespace SQLite {
class Database;
}

namespace bert {

/// Records one run into the store as a TrainerObserver. Callbacks only queue (the training
/// thread never waits on the disk); a writer thread with its own connection commits the queue
/// in one transaction every flush interval or batch, and at the end of the run. Metrics written
/// before a crash or kill -9 are therefore on disk, up to the last flush.
///
/// A batch that cannot be written because another process holds the lock stays in memory and is
/// retried with a doubling wait (saying so, through io/WaitNotice.h, once the wait passes a
/// second); when it goes in, an event says how late and why. Only after 5 minutes
/// (BERT_STUDIO_RECORDER_GIVE_UP_S) are its rows given up, with lastError() saying so. Any
/// other failure (a full disk, a damaged or read-only file) is permanent: the rows are given up
/// at once, and from then on every callback but onFinished throws StoreError, so that the
/// trainer ends the run as failed by the store instead of training on unrecorded. Either way a
/// finished run's result is saved beside its checkpoints (result.json), from which the next
/// read-write open records it instead of "interrupted".
class RunRecorder final : public TrainerObserver {
public:
    /// The longest a metric waits in memory before it is written.
    static constexpr std::chrono::milliseconds kFlushInterval{250};

    RunRecorder(const std::filesystem::path& databaseFile, std::int64_t runId);
    ~RunRecorder() override;
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;

    void onStarted(const RunStart& start) override;
    void onStep(const StepMetrics& metrics) override;
    void onEvaluation(const EvalMetrics& metrics) override;
    void onBestExamples(std::shared_ptr<const EvaluationExamples> examples) override;
    void onEpochEnd(const EpochSummary& summary) override;
    void onEvent(const TrainerEvent& event) override;
    void onFinished(const RunResult& result) override;
    /// Commits every metric so far before the checkpoint exists (see TrainerObserver).
    void beforeCheckpoint(std::size_t step) override;
    void onCheckpoint(const CheckpointInfo& checkpoint) override;

    /// Blocks until everything queued so far is committed (or given up after the bound).
    void flush();
    /// The last error of the writer thread (disk full, locked database), or empty.
    std::string lastError() const;

private:
    /// A best evaluation's examples, shared with the event that carried them.
    using BestExamples = std::shared_ptr<const EvaluationExamples>;
    using Item = std::variant<RunStart, StepMetrics, EvalMetrics, EpochSummary, TrainerEvent,
                              CheckpointInfo, RunResult, BestExamples>;
    void writerLoop();
    void write(const std::vector<Item>& items);
    void push(Item item);

    std::filesystem::path file_;
    std::filesystem::path
        runsFolder_;  ///< where result.json goes when the database refuses the end
    std::int64_t runId_;
    std::unique_ptr<SQLite::Database> db_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable drained_;
    std::deque<Item> queue_;
    std::size_t inFlight_ = 0;
    bool stopping_ = false;
    bool failed_ = false;  ///< a permanent failure: nothing more can be recorded
    std::string failure_;  ///< its reason
    std::string error_;
    std::thread writer_;
};

}  // namespace bert
