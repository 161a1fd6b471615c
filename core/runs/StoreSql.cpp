#include "runs/StoreSql.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <signal.h>
#include <sqlite3.h>
#include <sys/statvfs.h>
#include <thread>
#include <unistd.h>

#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "io/WaitNotice.h"
#include "runs/RunStore.h"
#include "train/Metrics.h"

namespace bert::store {

constexpr int kSchemaVersion = RunStore::kSchemaVersion;

namespace {

// How long a statement waits for another process's lock before it fails with "database is
// locked". BERT_STUDIO_DB_BUSY_MS overrides it (a slow network file system, or tests).
constexpr int kDefaultBusyTimeoutMs = 10000;

int busyTimeoutMs() {
    if (const char* text = std::getenv("BERT_STUDIO_DB_BUSY_MS");
        text != nullptr && *text != '\0') {
        char* end = nullptr;
        const long value = std::strtol(text, &end, 10);
        if (*end == '\0' && value >= 0 && value <= 3600000) {
            return static_cast<int>(value);
        }
    }
    return kDefaultBusyTimeoutMs;
}

/// Runs work again while SQLite answers SQLITE_BUSY at once, until the busy timeout has passed.
/// SQLite answers so without waiting where waiting could deadlock: connections that all hold a
/// read lock on a new file and all ask for the write lock (the switch to WAL, the first
/// migration) cannot all wait; one has to give up its read lock and start over. Seen as "database
/// is locked" in the test that opens one new file from 8 processes, under load.
template <typename Work>
void retryWhileBusy(const std::filesystem::path& file, Work&& work) {
    constexpr int kLongestPauseMs = 20;  // random pauses, so the contenders do not meet again
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + std::chrono::milliseconds(busyTimeoutMs());
    std::minstd_rand pause(std::random_device{}());
    bool noticed = false;
    for (;;) {
        try {
            work();
            return;
        } catch (const SQLite::Exception& error) {
            // Only a lock is waited out: a full disk, a damaged or read-only file fail at once.
            if (!isBusy(error) || std::chrono::steady_clock::now() >= deadline) {
                throw;
            }
        }
        if (!noticed && std::chrono::steady_clock::now() - started >= kSilentWaitLimit) {
            noticeWait("waiting for " + file.string() + ": another process holds its lock (up to " +
                       std::to_string(busyTimeoutMs() / 1000) + " s, BERT_STUDIO_DB_BUSY_MS)");
            noticed = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1 + pause() % kLongestPauseMs));
    }
}

/// SQLite's busy handler for our connections: waits for another process's lock up to
/// busyTimeoutMs, as sqlite3_busy_timeout would, but says what it waits for once the wait
/// passes a second. The context is the connection, whose file the notice names.
extern "C" int waitForLock(void* connection, int attempt) {
    using Clock = std::chrono::steady_clock;
    thread_local Clock::time_point started;
    thread_local bool noticed = false;
    if (attempt == 0) {  // a new wait (one at a time per thread)
        started = Clock::now();
        noticed = false;
    }
    const auto waited = Clock::now() - started;
    const auto limit = std::chrono::milliseconds(busyTimeoutMs());
    if (waited >= limit) {
        return 0;  // give up: the statement fails with "database is locked"
    }
    if (!noticed && waited >= kSilentWaitLimit) {
        const char* file = sqlite3_db_filename(static_cast<sqlite3*>(connection), "main");
        noticeWait(std::string("waiting for ") + (file != nullptr ? file : "the run database") +
                   ": another process holds its lock (up to " +
                   std::to_string(limit.count() / 1000) + " s, BERT_STUDIO_DB_BUSY_MS)");
        noticed = true;
    }
    const auto pause = std::min<std::chrono::milliseconds>(
        std::chrono::milliseconds(attempt < 5 ? 1 + attempt * 2 : 25),
        std::chrono::duration_cast<std::chrono::milliseconds>(limit - waited) +
            std::chrono::milliseconds(1));
    std::this_thread::sleep_for(pause);
    return 1;
}

/// A failure to open or read the schema: a file that is not a database at all is the user's
/// (InputError); anything else (locked, disk full, read-only, damaged) is the store's.
[[noreturn]] void throwOpenFailure(const std::filesystem::path& file,
                                   const SQLite::Exception& error, const std::string& what) {
    if ((error.getErrorCode() & 0xff) == SQLITE_NOTADB) {
        throw InputError(file, what + error.what());
    }
    throw StoreError(file, what + error.what());
}

constexpr const char* kOwnerMarker = ".bert-studio-database";  // in a runs folder: whose it is
constexpr const char* kLegacyRunsFolder = "runs";

std::string metaValue(SQLite::Database& db, const char* key) {
    if (!db.tableExists("store_meta")) {
        return {};
    }
    SQLite::Statement query(db, "SELECT value FROM store_meta WHERE key = ?");
    query.bind(1, key);
    return query.executeStep() ? query.getColumn(0).getString() : std::string();
}

std::string ownerOf(const std::filesystem::path& runsFolder) {
    std::ifstream in(runsFolder / kOwnerMarker);
    std::string id;
    std::getline(in, id);
    return id;
}

/// Gives a database its id and its runs folder once: a database that already kept runs in the
/// shared runs/ (schema 1 and 2) keeps it unless another database has claimed it; any other
/// gets a folder of its own, named after it ("runs.sqlite" -> runs/, "b.sqlite" -> b-runs/).
void chooseRunsFolder(SQLite::Database& db, const std::filesystem::path& file,
                      int previousVersion) {
    if (!metaValue(db, "store_id").empty()) {
        return;
    }
    // Under the write lock, and only if no other process chose first.
    SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
    if (!metaValue(db, "store_id").empty()) {
        transaction.commit();
        return;
    }
    std::random_device entropy;
    char id[40];
    std::snprintf(id, sizeof id, "%08x%08x%08x%08x", entropy(), entropy(), entropy(), entropy());
    const auto base = file.parent_path();
    const std::string stem = file.stem().string();
    std::string folder = stem == kLegacyRunsFolder ? kLegacyRunsFolder : stem + "-runs";
    if (previousVersion >= 1 && std::filesystem::is_directory(base / kLegacyRunsFolder) &&
        ownerOf(base / kLegacyRunsFolder).empty()) {
        folder = kLegacyRunsFolder;
    }
    if (!ownerOf(base / folder).empty()) {
        folder = stem + "-" + std::string(id).substr(0, 8) + "-runs";  // taken by another database
    }
    for (const auto& [key, value] :
         {std::pair<std::string, std::string>{"store_id", id}, {"runs_folder", folder}}) {
        SQLite::Statement insert(db,
                                 "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)");
        insert.bind(1, key);
        insert.bind(2, value);
        insert.exec();
    }
    transaction.commit();
}

}  // namespace

RunsFolder runsFolderOf(SQLite::Database& db, const std::filesystem::path& databaseFile) {
    const auto folder = metaValue(db, "runs_folder");
    // Issue 26: the folder is always one beside the database, named as chooseRunsFolder names
    // them; a crafted or damaged value ("../photos", "/home") once made `runs delete` empty an
    // unrelated folder.
    const auto endsWith = [&](const std::string& suffix) {
        return folder.size() > suffix.size() &&
               folder.compare(folder.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (!folder.empty() && (folder.find('/') != std::string::npos || folder.front() == '.' ||
                            (folder != kLegacyRunsFolder && !endsWith("-runs")))) {
        throw InputError(databaseFile,
                         "says its runs are in \"" + folder +
                             "\" (store_meta.runs_folder), which is not a runs folder beside it "
                             "(runs/ or <name>-runs/); the database is damaged or was made by "
                             "hand, and is not used");
    }
    return {databaseFile.parent_path() / (folder.empty() ? std::string(kLegacyRunsFolder) : folder),
            metaValue(db, "store_id")};
}

void claimRunsFolder(const RunsFolder& runs, const std::filesystem::path& databaseFile) {
    std::string owner;
    std::string ownerFile;
    {
        std::ifstream in(runs.path / kOwnerMarker);
        std::getline(in, owner);
        std::getline(in, ownerFile);
    }
    if (!owner.empty() && owner != runs.storeId) {
        throw InputError(runs.path, "belongs to another run database (" + ownerFile + "), not to " +
                                        databaseFile.string() + "; its checkpoints are left alone");
    }
    if (!owner.empty()) {
        // The same id: this database, or a copy of it (a copy keeps the id). A copy beside the
        // original must not take the original's checkpoints; a database moved with its runs
        // folder finds its old path gone and takes the folder over.
        std::error_code error;
        if (ownerFile.empty() || ownerFile == databaseFile.string() ||
            std::filesystem::equivalent(ownerFile, databaseFile, error)) {
            return;
        }
        if (std::filesystem::exists(ownerFile, error)) {
            throw InputError(runs.path, "belongs to " + ownerFile + ", of which " +
                                            databaseFile.string() +
                                            " is a copy; a copy keeps its runs' rows but not their "
                                            "checkpoints, which are left alone");
        }
    }
    std::filesystem::create_directories(runs.path);
    writeFileAtomically(runs.path / kOwnerMarker,
                        runs.storeId + "\n" + databaseFile.string() + "\n");
}

namespace {

/// file as an SQLite URI ("file:/a%20b.sqlite?immutable=1"): the characters URIs give meaning to
/// are percent-encoded, so any path works.
std::string immutableUri(const std::filesystem::path& file) {
    std::string uri = "file:";
    for (const unsigned char c : std::filesystem::absolute(file).string()) {
        if (c == '%' || c == '?' || c == '#' || c == ' ' || c < 0x20) {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", c);
            uri += escaped;
        } else {
            uri.push_back(static_cast<char>(c));
        }
    }
    return uri + "?immutable=1";
}

/// Whether the file (or, before it exists, its folder) lives on a file system mounted read-only.
bool isOnReadOnlyFileSystem(const std::filesystem::path& file) {
    struct statvfs info {};
    const auto probe = std::filesystem::exists(file) ? file
                       : file.has_parent_path()      ? file.parent_path()
                                                     : std::filesystem::path(".");
    return ::statvfs(probe.c_str(), &info) == 0 && (info.f_flag & ST_RDONLY) != 0;
}

}  // namespace

bool isBusy(const SQLite::Exception& error) {
    const int code = error.getErrorCode() & 0xff;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

std::filesystem::path realPathOf(const std::filesystem::path& databaseFile) {
    if (databaseFile.empty()) {
        return databaseFile;
    }
    std::error_code error;
    auto real = std::filesystem::weakly_canonical(std::filesystem::absolute(databaseFile), error);
    return error ? std::filesystem::absolute(databaseFile).lexically_normal() : real;
}

std::unique_ptr<SQLite::Database> openDatabase(const std::filesystem::path& file, bool readOnly) {
    // SQLite opens "" as a private temporary database: runs would vanish with the process.
    if (file.empty()) {
        throw InputError("no run database given (an empty path)");
    }
    std::error_code ignored;
    if (std::filesystem::is_directory(file, ignored)) {
        // Issue 26: SQLite said "disk I/O error".
        throw InputError(file,
                         "is a folder, not a run database file; give --db a file (for "
                         "example " +
                             (file / "runs.sqlite").string() + ")");
    }
    if (readOnly && !std::filesystem::exists(file)) {
        throw InputError(file, "does not exist: no runs are recorded there");
    }
    if (readOnly && std::filesystem::is_regular_file(file, ignored) &&
        std::filesystem::file_size(file, ignored) == 0) {
        // Issue 26: it said "has an older or no schema".
        throw InputError(file, "is an empty file (0 bytes): no runs are recorded there yet");
    }
    if (!readOnly && file.has_parent_path()) {
        std::filesystem::create_directories(file.parent_path(), ignored);
    }
    if (!readOnly && isOnReadOnlyFileSystem(file)) {
        throw StoreError(file,
                         "is on a read-only file system: its runs can be listed, shown, "
                         "compared, predicted with and exported, not changed");
    }
    try {
        auto db = std::make_unique<SQLite::Database>(
            file.string(),
            readOnly ? SQLite::OPEN_READONLY : SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        // Another process (studio, command line) may be writing: wait for its lock, saying so.
        sqlite3_busy_handler(db->getHandle(), waitForLock, db->getHandle());
        db->exec("PRAGMA foreign_keys = ON");
        if (readOnly) {
            try {
                db->execAndGet("SELECT count(*) FROM sqlite_master");
            } catch (const SQLite::Exception& error) {
                if ((error.getErrorCode() & 0xff) != SQLITE_CANTOPEN) {
                    throw;
                }
                // A WAL database on a read-only mount (an archive, a CD, a read-only share):
                // SQLite cannot create the -shm file it reads WAL databases through. Nobody can
                // write there either, so the file is opened as immutable, without any locking
                // or shared memory. Issue 10: such a database could not even be listed.
                db = std::make_unique<SQLite::Database>(immutableUri(file),
                                                        SQLite::OPEN_READONLY | SQLite::OPEN_URI);
                db->execAndGet("SELECT count(*) FROM sqlite_master");
            }
        }
        return db;
    } catch (const SQLite::Exception& error) {
        throwOpenFailure(file, error, "cannot be opened as a run database: ");
    }
}

void checkAndMigrate(SQLite::Database& db, const std::filesystem::path& file, bool readOnly) {
    try {
        const int version = db.execAndGet("PRAGMA user_version").getInt();
        if (version > kSchemaVersion) {
            throw InputError(file, "was written by a newer BERT Studio (schema " +
                                       std::to_string(version) + ", this build reads up to " +
                                       std::to_string(kSchemaVersion) + ")");
        }
        if (version == 0 && db.execAndGet("SELECT count(*) FROM sqlite_master").getInt() > 0 &&
            !db.tableExists("runs")) {
            throw InputError(file, "is an SQLite database of another application");
        }
        if (readOnly) {
            // Every version from 1 on has the columns this build reads; only 0 (no schema) is not.
            if (version < 1) {
                throw InputError(
                    file,
                    "has an older or no schema; open it once with write access to upgrade it");
            }
            return;
        }
        // Only now, once the file is known to be ours, may anything be written to it.
        retryWhileBusy(file, [&] { db.exec("PRAGMA journal_mode = WAL"); });
        db.exec("PRAGMA synchronous = NORMAL");  // WAL: durable at checkpoints, never corrupt
        // Another process may open the same new file at this moment (the studio and the command
        // line, or a test watching a run): each migration takes the write lock first (IMMEDIATE)
        // and reads the version again under it, so it runs exactly once. Without this, the
        // second process failed with "table store_meta already exists".
        bool current = false;
        while (!current) {
            retryWhileBusy(file, [&] {
                SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
                const int schema = db.execAndGet("PRAGMA user_version").getInt();
                current = schema >= kSchemaVersion;
                if (!current) {
                    db.exec(migrationFrom(schema));
                    db.exec("PRAGMA user_version = " + std::to_string(schema + 1));
                }
                transaction.commit();
            });
        }
        retryWhileBusy(file, [&] { chooseRunsFolder(db, file, version); });
    } catch (const SQLite::Exception& error) {
        throwOpenFailure(file, error, "is not a usable run database: ");
    }
}

std::string nowIso() {
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string hostName() {
    char name[256] = {};
    ::gethostname(name, sizeof name - 1);
    return name;
}

void insertEvent(SQLite::Database& db, std::int64_t runId, const TrainerEvent& event) {
    SQLite::Statement insert(db,
                             "INSERT INTO events (run_id, step, time, kind, message, data_json) "
                             "VALUES (?, ?, ?, ?, ?, ?)");
    insert.bind(1, runId);
    insert.bind(2, static_cast<std::int64_t>(event.step));
    insert.bind(3, nowIso());
    insert.bind(4, toString(event.kind));
    insert.bind(5, event.message);
    insert.bind(6, event.data.dump());
    insert.exec();
}

std::filesystem::path resolveStoredPath(const std::string& stored,
                                        const std::filesystem::path& databaseFolder) {
    const std::filesystem::path path(stored);
    return path.is_relative() && !stored.empty() ? std::filesystem::absolute(databaseFolder) / path
                                                 : path;
}

void insertCheckpoint(SQLite::Database& db, std::int64_t runId, const CheckpointInfo& checkpoint,
                      const std::filesystem::path& databaseFolder) {
    // Relative to the database's folder, not to the working directory of the day (a relative
    // --db once stored paths that other directories could not find).
    const auto folder = std::filesystem::absolute(checkpoint.folder).lexically_normal();
    const auto base = std::filesystem::absolute(databaseFolder).lexically_normal();
    const auto relative = folder.lexically_relative(base);
    const bool inside = !relative.empty() && *relative.begin() != "..";
    SQLite::Statement insert(
        db,
        "INSERT INTO checkpoints (run_id, step, kind, path, metric, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)");
    insert.bind(1, runId);
    insert.bind(2, static_cast<std::int64_t>(checkpoint.step));
    insert.bind(3, toString(checkpoint.kind));
    insert.bind(4, inside ? relative.string() : folder.string());
    insert.bind(5, checkpoint.metric);
    insert.bind(6, nowIso());
    insert.exec();
}

void writeRunStart(SQLite::Database& db, std::int64_t runId, const RunStart& start) {
    SQLite::Statement update(db,
                             "UPDATE runs SET device = ?, forecast_bytes = ?, forecast_json = ?, "
                             "trial_peak_bytes = ? WHERE id = ?");
    update.bind(1, start.device);
    update.bind(2, start.forecast.total());
    update.bind(3, start.forecast.toJson().dump());
    update.bind(4, start.trialPeakBytes);
    update.bind(5, runId);
    update.exec();
}

void writeRunResult(SQLite::Database& db, std::int64_t runId, const RunResult& result) {
    SQLite::Statement update(
        db,
        "UPDATE runs SET status = ?, finished_at = ?, final_metrics_json = ?, "
        "best_accuracy = ?, peak_memory_bytes = ?, measured_json = ?, seconds = ?, "
        "error = ? WHERE id = ?");
    update.bind(1, toString(result.status));
    update.bind(2, nowIso());
    const nlohmann::json metrics = {{"final", toJson(result.finalEval)},
                                    {"best", toJson(result.bestEval)},
                                    {"steps", result.steps},
                                    {"last_checkpoint", result.lastCheckpoint.string()},
                                    {"best_checkpoint", result.bestCheckpoint.string()}};
    update.bind(3, metrics.dump());
    update.bind(4, std::max(result.bestEval.accuracy, result.finalEval.accuracy));
    update.bind(5, result.peakMemoryBytes);
    update.bind(6, result.measured.toJson().dump());
    update.bind(7, result.seconds);
    update.bind(8, result.error);
    update.bind(9, runId);
    update.exec();
    // The run has ended: nobody trains it now (its holder's RunLease finds the row gone).
    if (db.tableExists("leases")) {
        SQLite::Statement release(db, "DELETE FROM leases WHERE run_id = ?");
        release.bind(1, runId);
        release.exec();
    }
}

}  // namespace bert::store
