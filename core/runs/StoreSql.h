#pragma once

// What RunStore and RunRecorder share: opening the database, the schema's statements, and the
// translation of SQLite and file-system failures into StoreError. Internal to core/runs.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>

#include "Error.h"
#include "train/TrainerEvents.h"

namespace bert::store {

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
bool processMayBeAlive(std::int64_t pid, const std::string& host);

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

/// Runs fn, turning SQLite, file-system and stored-JSON failures into StoreError naming the
/// database file and the operation ("renaming run 3: database is locked"). Other errors pass
/// unchanged.
template <typename Fn>
auto guarded(const std::filesystem::path& file, const std::string& operation, Fn&& fn)
    -> decltype(fn()) {
    try {
        return fn();
    } catch (const SQLite::Exception& error) {
        throw StoreError(file, operation + ": " + error.what());
    } catch (const std::filesystem::filesystem_error& error) {
        throw StoreError(file, operation + ": " + error.what());
    } catch (const nlohmann::json::exception& error) {
        throw StoreError(file, operation + ": a stored value is malformed (" + error.what() + ")");
    }
}

}  // namespace bert::store
