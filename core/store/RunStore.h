#pragma once

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "train/TrainerEvents.h"

namespace SQLite {
class Database;
}

namespace bert {

/// A stored run, as listed and compared.
struct RunRecord {
    std::int64_t id = 0;
    std::string name;
    std::string createdAt;  ///< ISO 8601 UTC
    std::string finishedAt;
    RunStatus status = RunStatus::Running;
    nlohmann::json config = nlohmann::json::object();
    std::string datasetPath;
    std::string datasetFingerprint;
    std::string baseModel;
    std::vector<std::string> labels;
    nlohmann::json finalMetrics = nlohmann::json::object();
    std::int64_t peakMemoryBytes = 0;
    std::int64_t forecastBytes = 0;
    std::int64_t trialPeakBytes = 0;
    std::string device;
    std::string error;
    std::string notes;
    double bestAccuracy = 0.0;
    double seconds = 0.0;
    std::string techniques;
    std::int64_t resumedFrom = 0;  ///< the run this one continues, 0 if none
};

/// What a new run is made of.
struct NewRun {
    std::string name;
    nlohmann::json config;
    std::string datasetPath;
    std::string datasetFingerprint;
    std::string baseModel;
    std::vector<std::string> labels;
    std::string techniques;
    std::int64_t resumedFrom = 0;
};

struct CheckpointRecord {
    std::int64_t runId = 0;
    std::size_t step = 0;
    std::string kind;  ///< epoch, best, cancel
    std::string path;
    double metric = 0.0;
};

/// Every run in one SQLite file (WAL mode), with a versioned schema migrated on open.
///
/// Opening also finds runs left "running" by a process that no longer exists (killed, crashed,
/// power cut) and marks them interrupted, with an event; what they wrote stays as it was.
/// A RunStore is one connection: use it from one thread. RunRecorder has its own connection.
class RunStore {
public:
    /// Opens or creates the database. Throws InputError naming the file when it cannot be
    /// opened, is not a BERT Studio database, or comes from a newer version of the application.
    explicit RunStore(std::filesystem::path databaseFile);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// The schema version this build writes.
    static constexpr int kSchemaVersion = 1;
    /// Default location: $BERT_STUDIO_DB, else $XDG_DATA_HOME (~/.local/share)/bert-studio/runs.sqlite.
    static std::filesystem::path defaultLocation();

    const std::filesystem::path& file() const { return file_; }
    /// Where a run's checkpoints and exports go: <database folder>/runs/<id>.
    std::filesystem::path runFolder(std::int64_t runId) const;

    std::int64_t createRun(const NewRun& run);
    void finishRun(std::int64_t runId, const RunResult& result);
    void setStarted(std::int64_t runId, const RunStart& start);
    /// Marks a stopped run as running again in this process (resume).
    void reopen(std::int64_t runId);
    void rename(std::int64_t runId, const std::string& name);
    void setNotes(std::int64_t runId, const std::string& notes);
    /// Deletes the run's rows and its folder of checkpoints.
    void remove(std::int64_t runId);

    std::vector<RunRecord> runs();
    std::optional<RunRecord> run(std::int64_t runId);
    std::vector<StepMetrics> steps(std::int64_t runId);
    std::vector<EvalMetrics> evaluations(std::int64_t runId);
    std::vector<TrainerEvent> events(std::int64_t runId);
    std::vector<EpochSummary> epochs(std::int64_t runId);
    std::vector<CheckpointRecord> checkpoints(std::int64_t runId);

    /// Runs found interrupted when this store was opened.
    const std::vector<std::int64_t>& interruptedAtOpen() const { return interrupted_; }

    SQLite::Database& database() { return *db_; }

private:
    void migrate();
    void markInterruptedRuns();

    std::filesystem::path file_;
    std::unique_ptr<SQLite::Database> db_;
    std::vector<std::int64_t> interrupted_;
};

/// Records one run into the store as a TrainerObserver. Callbacks only queue (the training
/// thread never waits on the disk); a writer thread with its own connection commits the queue
/// in one transaction every flush interval or batch, and at the end of the run. Metrics written
/// before a crash or kill -9 are therefore on disk, up to the last flush.
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
    void onEpochEnd(const EpochSummary& summary) override;
    void onEvent(const TrainerEvent& event) override;
    void onFinished(const RunResult& result) override;
    /// Commits every metric so far before the checkpoint exists (see TrainerObserver).
    void beforeCheckpoint(std::size_t step) override;

    /// Blocks until everything queued so far is committed.
    void flush();
    /// The last error of the writer thread (disk full, locked database), or empty.
    std::string lastError() const;

private:
    using Item = std::variant<RunStart, StepMetrics, EvalMetrics, EpochSummary, TrainerEvent, RunResult>;
    void writerLoop();
    void write(const std::vector<Item>& items);
    void push(Item item);

    std::filesystem::path file_;
    std::int64_t runId_;
    std::unique_ptr<SQLite::Database> db_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable drained_;
    std::deque<Item> queue_;
    std::size_t inFlight_ = 0;
    bool stopping_ = false;
    std::string error_;
    std::thread writer_;
};

}  // namespace bert
