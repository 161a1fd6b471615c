#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "task/ExampleResults.h"
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
    /// What it was made of: absolute paths and fingerprints of its model and data files
    /// (runs/RunInputs.h); empty for runs of older versions.
    nlohmann::json inputs = nlohmann::json::object();
    /// Who trains it while status is Running: "process 1234 on host (since ...)"; else empty.
    std::string holder;
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
    nlohmann::json inputs = nlohmann::json::object();  ///< see RunRecord::inputs
};

/// A checkpoint as the store recorded it (train/TrainingState.h).
struct CheckpointRecord {
    std::int64_t runId = 0;
    std::size_t step = 0;
    CheckpointKind kind = CheckpointKind::Epoch;
    std::string path;
    double metric = 0.0;
};

/// Every run in one SQLite file (WAL mode), with a versioned schema migrated on open.
///
/// One process trains a run: it holds the run's lease (runs/RunLease.h), which createRun writes
/// with the run. Opened read-write, the store also finds runs left "running" whose lease is no
/// longer live (their process was killed, crashed, lost power, or the database moved to another
/// machine) and marks them interrupted, with an event; what they wrote stays as it was. Opened
/// read-only, it writes nothing (not even the WAL switch), so listing, showing and comparing work
/// on a read-only file and never change someone else's; such runs are then reported interrupted
/// without being marked.
///
/// Errors: opening throws InputError naming the file when it is not a BERT Studio database (or a
/// newer one), StoreError when it cannot be opened (locked, full disk, damaged); every later
/// SQLite or file-system failure throws StoreError naming the file and the operation
/// ("renaming run 3: database is locked"). A RunStore is one connection: use it
/// from one thread. RunRecorder (runs/RunRecorder.h) has its own connection.
class RunStore {
public:
    enum class Access { ReadWrite, ReadOnly };

    explicit RunStore(std::filesystem::path databaseFile, Access access = Access::ReadWrite);
    ~RunStore();
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;

    /// The schema version this build writes.
    static constexpr int kSchemaVersion = 8;
    /// Default location: $BERT_STUDIO_DB, else $XDG_DATA_HOME
    /// (~/.local/share)/bert-studio/runs.sqlite.
    static std::filesystem::path defaultLocation();

    const std::filesystem::path& file() const { return file_; }
    /// Where a run's checkpoints go: <database folder>/<this database's runs folder>/<id>. Each
    /// database has its own runs folder (runs/ for runs.sqlite, <name>-runs/ for others),
    /// marked as its own; see claimRunsFolder.
    std::filesystem::path runFolder(std::int64_t runId) const;
    /// Checks that the runs folder is this database's (marking it when nobody has), before a run
    /// writes checkpoints there. Throws InputError when another database marked it.
    void claimRunsFolder();

    /// Creates the run, running, with this process's lease on it, in one transaction (a
    /// RunLease constructed next takes the lease over and renews it).
    std::int64_t createRun(const NewRun& run);
    void finishRun(std::int64_t runId, const RunResult& result);
    void setStarted(std::int64_t runId, const RunStart& start);
    /// Marks a stopped run as running again in this process (resume).
    void reopen(std::int64_t runId);
    /// rename, setNotes and remove throw InputError for a run that does not exist.
    void rename(std::int64_t runId, const std::string& name);
    void setNotes(std::int64_t runId, const std::string& notes);
    /// Deletes the run's rows and its folder of checkpoints. Refuses (InputError) a run whose
    /// lease is live (it trains) unless force, for a holder known to be gone that the store
    /// cannot see die (another machine's, before its lease expires). A runs folder that another
    /// database marked is refused (InputError) and nothing is deleted.
    void remove(std::int64_t runId, bool force = false);

    std::vector<RunRecord> runs();
    std::optional<RunRecord> run(std::int64_t runId);
    std::vector<StepMetrics> steps(std::int64_t runId);
    std::vector<EvalMetrics> evaluations(std::int64_t runId);
    std::vector<TrainerEvent> events(std::int64_t runId);
    std::vector<EpochSummary> epochs(std::int64_t runId);
    std::vector<CheckpointRecord> checkpoints(std::int64_t runId);
    /// The per-example results of the run's best evaluation (task/ExampleResults.h), highest
    /// loss first; nullopt for a run that has none (stored before they were kept, or not yet
    /// evaluated).
    std::optional<EvaluationExamples> examples(std::int64_t runId);

    bool readOnly() const { return access_ == Access::ReadOnly; }
    /// Runs found interrupted (and marked so) when this store was opened read-write.
    const std::vector<std::int64_t>& interruptedAtOpen() const { return interrupted_; }

    SQLite::Database& database() { return *db_; }

private:
    void markInterruptedRuns();

    std::filesystem::path file_;
    Access access_;
    std::filesystem::path runsFolder_;
    std::string storeId_;
    std::unique_ptr<SQLite::Database> db_;
    std::vector<std::int64_t> interrupted_;
    bool hasLeases_ = false;  ///< schema 5 on (a read-only open of an older one has none)
};

}  // namespace bert
