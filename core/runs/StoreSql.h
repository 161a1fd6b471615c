#pragma once

// What RunStore and RunRecorder share: opening the database, the schema's statements, and the
// translation of SQLite and file-system failures into StoreError. Internal to core/runs.

#include <filesystem>
#include <memory>
#include <optional>
#include <sqlite3.h>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>

#include "Error.h"
#include "task/ExampleResults.h"
#include "train/TrainerEvents.h"

namespace bert::store {

/// The database file's absolute path with every symbolic link resolved (of the folders, and of
/// the file itself when it exists); empty stays empty.
/// The statements that migrate the schema from version to version + 1, for version in
/// [0, RunStore::kSchemaVersion) (runs/StoreSchema.cpp). Append a migration, never edit one.
const char* migrationFrom(int version);

/// Replaces the run's stored per-example results with examples (runs/StoreExamples.cpp).
void writeExamples(SQLite::Database& db, std::int64_t runId, const EvaluationExamples& examples);
/// The run's stored per-example results; nullopt when it has none or the schema predates them.
std::optional<EvaluationExamples> readExamples(SQLite::Database& db, std::int64_t runId);

std::filesystem::path realPathOf(const std::filesystem::path& databaseFile);

/// Opens the database, changing nothing in it; ReadWrite creates the file and its folder. Throws
/// InputError naming the file when it is not a database (or does not exist, read-only), StoreError
/// when it cannot be opened (locked, disk full, damaged).
std::unique_ptr<SQLite::Database> openDatabase(const std::filesystem::path& file, bool readOnly);

/// Checks the schema and, read-write, switches to WAL and migrates it to kSchemaVersion (a file
/// that is not ours is refused before anything is written to it). Throws InputError naming the
/// file for another application's database or a newer schema than RunStore::kSchemaVersion; a
/// read-only open of an older schema throws InputError too (it would have to be migrated).
void checkAndMigrate(SQLite::Database& db, const std::filesystem::path& file, bool readOnly);

/// Now, as ISO 8601 UTC.
std::string nowIso();
std::string hostName();
/// Whether the process pid on host may still be running (another host's runs cannot be checked).
/// Only for runs without a lease (written by an older version): a lease says it better.
bool processMayBeAlive(std::int64_t pid, const std::string& host);

/// Where a pid can be checked: this boot of this machine and this pid namespace (a container
/// has its own). Empty when the system does not say.
std::string machineId();

/// A claim on a run (the leases table): one process trains a run. The holder renews it
/// (RunLease); it is live while it has not expired and, when the holder is on this machine and
/// in this pid namespace, while that process exists. Liveness is the lease: a database moved to
/// another machine or container sees its leases expire, not its pids vanish.
struct LeaseHolder {
    std::string token;    ///< this claim's, random
    std::string purpose;  ///< "trained" or "resumed"
    std::int64_t pid = 0;
    std::string host;
    std::string machine;  ///< machineId() of the holder
    std::string claimedAt;
    double expiresAt = 0.0;  ///< seconds since the epoch
    bool live() const;
    /// "process 1234 on host (since 2025-01-01T10:00:00Z)".
    std::string describe() const;
};
/// How long a lease lasts unrenewed; its holder renews it four times as often.
double leaseSeconds();
double nowSeconds();
/// The run's lease, or nullopt (none, or a database without the table: read-only, older).
std::optional<LeaseHolder> leaseOf(SQLite::Database& db, std::int64_t runId);
/// Writes this process's lease on the run (replacing any), with a fresh token; returns it.
std::string writeLease(SQLite::Database& db, std::int64_t runId, const std::string& purpose);
/// Whether a run that the store marks running still runs: its lease is live; a run without a
/// lease (an older version's, or one whose lease was released before its end was recorded) by
/// its pid and host.
bool runningRunIsAlive(SQLite::Database& db, std::int64_t runId, std::int64_t pid,
                       const std::string& host);

/// Where a database's runs keep their checkpoints: <database folder>/<runs_folder>/<id>, and the
/// id that marks the folder as this database's (a marker file inside it).
struct RunsFolder {
    std::filesystem::path path;
    std::string storeId;  ///< empty for a database opened read-only before it had one
};
RunsFolder runsFolderOf(SQLite::Database& db, const std::filesystem::path& databaseFile);

/// Makes sure the runs folder is this database's before anything is written or deleted in it:
/// marks an unmarked one, refuses (InputError) one that another database marked.
void claimRunsFolder(const RunsFolder& runs, const std::filesystem::path& databaseFile);

/// Saves a finished run's result as result.json in its run folder, for when the database cannot
/// take it (RunRecorder gave up); takeResultBeside reads it back, consumeResultBeside removes it
/// once recorded. Failures to save are ignored: there is nowhere left to record them.
void saveResultBeside(const std::filesystem::path& runFolder, const RunResult& result);
std::optional<RunResult> takeResultBeside(const std::filesystem::path& runFolder);
void consumeResultBeside(const std::filesystem::path& runFolder);

void insertEvent(SQLite::Database& db, std::int64_t runId, const TrainerEvent& event);
/// Records a checkpoint; its folder is stored relative to databaseFolder when it lies inside it,
/// so that the database and its runs folder can move together (resolveStoredPath reads it back).
void insertCheckpoint(SQLite::Database& db, std::int64_t runId, const CheckpointInfo& checkpoint,
                      const std::filesystem::path& databaseFolder);
/// A stored path: relative ones are relative to databaseFolder.
std::filesystem::path resolveStoredPath(const std::string& stored,
                                        const std::filesystem::path& databaseFolder);
void writeRunStart(SQLite::Database& db, std::int64_t runId, const RunStart& start);
void writeRunResult(SQLite::Database& db, std::int64_t runId, const RunResult& result);

/// Whether an SQLite failure is another process's lock (SQLITE_BUSY, SQLITE_LOCKED), the only
/// one worth waiting out; a full disk, a damaged or read-only database fail at once.
bool isBusy(const SQLite::Exception& error);

/// Runs fn, turning SQLite, file-system and stored-JSON failures into StoreError naming the
/// database file and the operation ("renaming run 3: database is locked"). Other errors pass
/// unchanged.
template <typename Fn>
auto guarded(const std::filesystem::path& file, const std::string& operation, Fn&& fn)
    -> decltype(fn()) {
    try {
        return fn();
    } catch (const SQLite::Exception& error) {
        // A full disk (or a file size limit) fails whichever statement writes next: say so in
        // the words every write failure of the store uses.
        const bool writeFailed = error.getErrorCode() == SQLITE_FULL ||
                                 error.getExtendedErrorCode() == SQLITE_IOERR_WRITE;
        throw StoreError(
            file, operation + (writeFailed ? ": could not be written: " : ": ") + error.what());
    } catch (const std::filesystem::filesystem_error& error) {
        throw StoreError(file, operation + ": " + error.what());
    } catch (const nlohmann::json::exception& error) {
        throw StoreError(file, operation + ": a stored value is malformed (" + error.what() + ")");
    }
}

}  // namespace bert::store
