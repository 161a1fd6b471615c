#include "store/RunStore.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>

#include "Error.h"

namespace bert {

namespace {

// One entry per schema version; entry k migrates version k to k + 1. Append, never edit.
const char* const kMigrations[] = {
    R"SQL(
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        status TEXT NOT NULL,
        config_json TEXT NOT NULL,
        dataset_path TEXT NOT NULL DEFAULT '',
        dataset_fingerprint TEXT NOT NULL DEFAULT '',
        base_model TEXT NOT NULL DEFAULT '',
        labels_json TEXT NOT NULL DEFAULT '[]',
        techniques TEXT NOT NULL DEFAULT '',
        final_metrics_json TEXT NOT NULL DEFAULT '{}',
        best_accuracy REAL NOT NULL DEFAULT 0,
        peak_memory_bytes INTEGER NOT NULL DEFAULT 0,
        forecast_bytes INTEGER NOT NULL DEFAULT 0,
        forecast_json TEXT NOT NULL DEFAULT '{}',
        trial_peak_bytes INTEGER NOT NULL DEFAULT 0,
        measured_json TEXT NOT NULL DEFAULT '{}',
        device TEXT NOT NULL DEFAULT '',
        seconds REAL NOT NULL DEFAULT 0,
        error TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        resumed_from INTEGER NOT NULL DEFAULT 0,
        pid INTEGER NOT NULL DEFAULT 0,
        host TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE steps (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL NOT NULL,
        learning_rate REAL NOT NULL,
        memory_current INTEGER NOT NULL,
        memory_peak INTEGER NOT NULL,
        memory_reserved INTEGER NOT NULL,
        samples_per_second REAL NOT NULL,
        tokens_per_second REAL NOT NULL,
        padding_share REAL NOT NULL,
        loss_scale REAL NOT NULL,
        grad_norm REAL NOT NULL,
        micro_batch INTEGER NOT NULL,
        accumulation INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        PRIMARY KEY (run_id, step)
    );
    CREATE TABLE evaluations (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL NOT NULL,
        accuracy REAL NOT NULL,
        macro_f1 REAL NOT NULL,
        confusion_json TEXT NOT NULL
    );
    CREATE INDEX evaluations_run ON evaluations(run_id, step);
    CREATE TABLE epochs (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        epoch INTEGER NOT NULL,
        real_tokens INTEGER NOT NULL,
        padded_tokens INTEGER NOT NULL,
        padding_share REAL NOT NULL,
        seconds REAL NOT NULL,
        PRIMARY KEY (run_id, epoch)
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        time TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        data_json TEXT NOT NULL
    );
    CREATE INDEX events_run ON events(run_id, id);
    CREATE TABLE checkpoints (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        metric REAL NOT NULL,
        created_at TEXT NOT NULL
    );
    )SQL",
};
static_assert(std::size(kMigrations) == RunStore::kSchemaVersion);

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

std::unique_ptr<SQLite::Database> openDatabase(const std::filesystem::path& file) {
    // SQLite opens "" as a private temporary database: runs would vanish with the process.
    if (file.empty()) {
        throw InputError("no run database given (an empty path)");
    }
    std::error_code ignored;
    if (file.has_parent_path()) {
        std::filesystem::create_directories(file.parent_path(), ignored);
    }
    try {
        auto db = std::make_unique<SQLite::Database>(file.string(),
                                                     SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db->setBusyTimeout(10000);  // another process (studio, command line) may be writing
        db->exec("PRAGMA journal_mode = WAL");
        db->exec("PRAGMA synchronous = NORMAL");  // WAL: durable at checkpoints, never corrupt
        db->exec("PRAGMA foreign_keys = ON");
        return db;
    } catch (const SQLite::Exception& error) {
        throw InputError(file, std::string("cannot be opened as a run database: ") + error.what());
    }
}

nlohmann::json parseJson(const std::string& text, nlohmann::json fallback) {
    auto json = nlohmann::json::parse(text, nullptr, false);
    return json.is_discarded() ? fallback : json;
}

EventKind eventKindFromString(const std::string& text) {
    for (const auto kind : {EventKind::OomRecovered, EventKind::EvalOomRecovered, EventKind::StepSkipped,
                            EventKind::CheckpointSaved, EventKind::Cancelled, EventKind::Interrupted,
                            EventKind::Error, EventKind::Info}) {
        if (toString(kind) == text) {
            return kind;
        }
    }
    return EventKind::Info;
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

nlohmann::json evalJson(const EvalMetrics& m);

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
    SQLite::Statement update(db,
                             "UPDATE runs SET status = ?, finished_at = ?, final_metrics_json = ?, "
                             "best_accuracy = ?, peak_memory_bytes = ?, measured_json = ?, seconds = ?, "
                             "error = ? WHERE id = ?");
    update.bind(1, toString(result.status));
    update.bind(2, nowIso());
    const nlohmann::json metrics = {{"final", evalJson(result.finalEval)},
                                    {"best", evalJson(result.bestEval)},
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
}

RunRecord readRun(SQLite::Statement& query) {
    RunRecord run;
    run.id = query.getColumn("id").getInt64();
    run.name = query.getColumn("name").getString();
    run.createdAt = query.getColumn("created_at").getString();
    run.finishedAt = query.getColumn("finished_at").isNull() ? "" : query.getColumn("finished_at").getString();
    run.status = runStatusFromString(query.getColumn("status").getString());
    run.config = parseJson(query.getColumn("config_json").getString(), nlohmann::json::object());
    run.datasetPath = query.getColumn("dataset_path").getString();
    run.datasetFingerprint = query.getColumn("dataset_fingerprint").getString();
    run.baseModel = query.getColumn("base_model").getString();
    const auto labels = parseJson(query.getColumn("labels_json").getString(), nlohmann::json::array());
    for (const auto& label : labels) {
        run.labels.push_back(label.is_string() ? label.get<std::string>() : label.dump());
    }
    run.techniques = query.getColumn("techniques").getString();
    run.finalMetrics = parseJson(query.getColumn("final_metrics_json").getString(), nlohmann::json::object());
    run.bestAccuracy = query.getColumn("best_accuracy").getDouble();
    run.peakMemoryBytes = query.getColumn("peak_memory_bytes").getInt64();
    run.forecastBytes = query.getColumn("forecast_bytes").getInt64();
    run.trialPeakBytes = query.getColumn("trial_peak_bytes").getInt64();
    run.device = query.getColumn("device").getString();
    run.seconds = query.getColumn("seconds").getDouble();
    run.error = query.getColumn("error").getString();
    run.notes = query.getColumn("notes").getString();
    run.resumedFrom = query.getColumn("resumed_from").getInt64();
    return run;
}

nlohmann::json evalJson(const EvalMetrics& m) {
    return {{"step", m.step}, {"epoch", m.epoch}, {"loss", m.loss}, {"accuracy", m.accuracy},
            {"macro_f1", m.macroF1}, {"confusion", m.confusion}};
}

}  // namespace

// ---- store -----------------------------------------------------------------------------------

RunStore::RunStore(std::filesystem::path databaseFile)
    : file_(std::move(databaseFile)), db_(openDatabase(file_)) {
    migrate();
    markInterruptedRuns();
}

RunStore::~RunStore() = default;

std::filesystem::path RunStore::defaultLocation() {
    if (const char* explicitFile = std::getenv("BERT_STUDIO_DB"); explicitFile && *explicitFile) {
        return explicitFile;
    }
    std::filesystem::path base;
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home) {
        base = std::filesystem::path(home) / ".local" / "share";
    } else {
        base = std::filesystem::temp_directory_path();
    }
    return base / "bert-studio" / "runs.sqlite";
}

std::filesystem::path RunStore::runFolder(std::int64_t runId) const {
    return file_.parent_path() / "runs" / std::to_string(runId);
}

void RunStore::migrate() {
    try {
        const int version = db_->execAndGet("PRAGMA user_version").getInt();
        if (version > kSchemaVersion) {
            throw InputError(file_, "was written by a newer BERT Studio (schema " + std::to_string(version) +
                                        ", this build reads up to " + std::to_string(kSchemaVersion) + ")");
        }
        if (version == 0 && db_->execAndGet("SELECT count(*) FROM sqlite_master").getInt() > 0 &&
            !db_->tableExists("runs")) {
            throw InputError(file_, "is an SQLite database of another application");
        }
        for (int v = version; v < kSchemaVersion; ++v) {
            SQLite::Transaction transaction(*db_);
            db_->exec(kMigrations[v]);
            db_->exec("PRAGMA user_version = " + std::to_string(v + 1));
            transaction.commit();
        }
    } catch (const SQLite::Exception& error) {
        throw InputError(file_, std::string("is not a usable run database: ") + error.what());
    }
}

void RunStore::markInterruptedRuns() {
    SQLite::Statement query(*db_, "SELECT id, pid, host FROM runs WHERE status = 'running'");
    const std::string host = hostName();
    std::vector<std::int64_t> dead;
    while (query.executeStep()) {
        const auto pid = static_cast<pid_t>(query.getColumn(1).getInt64());
        const std::string runHost = query.getColumn(2).getString();
        // Another machine's run (a shared folder) cannot be checked: leave it.
        if (runHost != host) {
            continue;
        }
        if (pid <= 0 || (::kill(pid, 0) != 0 && errno == ESRCH)) {
            dead.push_back(query.getColumn(0).getInt64());
        }
    }
    for (const auto id : dead) {
        SQLite::Transaction transaction(*db_);
        SQLite::Statement update(*db_,
                                 "UPDATE runs SET status = 'interrupted', finished_at = ?, "
                                 "error = 'the process ended during training (killed or crashed)' "
                                 "WHERE id = ?");
        update.bind(1, nowIso());
        update.bind(2, id);
        update.exec();
        SQLite::Statement lastStep(*db_, "SELECT coalesce(max(step), 0) FROM steps WHERE run_id = ?");
        lastStep.bind(1, id);
        lastStep.executeStep();
        TrainerEvent event{EventKind::Interrupted,
                           static_cast<std::size_t>(lastStep.getColumn(0).getInt64()),
                           "the process ended during training; found at the next start",
                           nlohmann::json::object()};
        insertEvent(*db_, id, event);
        transaction.commit();
        interrupted_.push_back(id);
    }
}

std::int64_t RunStore::createRun(const NewRun& run) {
    SQLite::Statement insert(*db_,
                             "INSERT INTO runs (name, created_at, started_at, status, config_json, dataset_path, "
                             "dataset_fingerprint, base_model, labels_json, techniques, resumed_from, pid, host) "
                             "VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    const auto now = nowIso();
    insert.bind(1, run.name);
    insert.bind(2, now);
    insert.bind(3, now);
    insert.bind(4, run.config.dump());
    insert.bind(5, run.datasetPath);
    insert.bind(6, run.datasetFingerprint);
    insert.bind(7, run.baseModel);
    insert.bind(8, nlohmann::json(run.labels).dump());
    insert.bind(9, run.techniques);
    insert.bind(10, run.resumedFrom);
    insert.bind(11, static_cast<std::int64_t>(::getpid()));
    insert.bind(12, hostName());
    insert.exec();
    return db_->getLastInsertRowid();
}

void RunStore::setStarted(std::int64_t runId, const RunStart& start) { writeRunStart(*db_, runId, start); }

void RunStore::finishRun(std::int64_t runId, const RunResult& result) { writeRunResult(*db_, runId, result); }

void RunStore::reopen(std::int64_t runId) {
    SQLite::Statement update(*db_,
                             "UPDATE runs SET status = 'running', finished_at = NULL, error = '', pid = ?, "
                             "host = ? WHERE id = ?");
    update.bind(1, static_cast<std::int64_t>(::getpid()));
    update.bind(2, hostName());
    update.bind(3, runId);
    update.exec();
}

void RunStore::rename(std::int64_t runId, const std::string& name) {
    SQLite::Statement update(*db_, "UPDATE runs SET name = ? WHERE id = ?");
    update.bind(1, name);
    update.bind(2, runId);
    update.exec();
}

void RunStore::setNotes(std::int64_t runId, const std::string& notes) {
    SQLite::Statement update(*db_, "UPDATE runs SET notes = ? WHERE id = ?");
    update.bind(1, notes);
    update.bind(2, runId);
    update.exec();
}

void RunStore::remove(std::int64_t runId) {
    SQLite::Statement erase(*db_, "DELETE FROM runs WHERE id = ?");
    erase.bind(1, runId);
    erase.exec();
    std::error_code ignored;
    std::filesystem::remove_all(runFolder(runId), ignored);
}

std::vector<RunRecord> RunStore::runs() {
    std::vector<RunRecord> result;
    SQLite::Statement query(*db_, "SELECT * FROM runs ORDER BY id");
    while (query.executeStep()) {
        result.push_back(readRun(query));
    }
    return result;
}

std::optional<RunRecord> RunStore::run(std::int64_t runId) {
    SQLite::Statement query(*db_, "SELECT * FROM runs WHERE id = ?");
    query.bind(1, runId);
    if (!query.executeStep()) {
        return std::nullopt;
    }
    return readRun(query);
}

std::vector<StepMetrics> RunStore::steps(std::int64_t runId) {
    std::vector<StepMetrics> result;
    SQLite::Statement query(*db_,
                            "SELECT step, epoch, loss, learning_rate, memory_current, memory_peak, "
                            "memory_reserved, samples_per_second, tokens_per_second, padding_share, "
                            "loss_scale, grad_norm, micro_batch, accumulation, skipped "
                            "FROM steps WHERE run_id = ? ORDER BY step");
    query.bind(1, runId);
    while (query.executeStep()) {
        StepMetrics m;
        m.step = static_cast<std::size_t>(query.getColumn(0).getInt64());
        m.epoch = query.getColumn(1).getDouble();
        m.loss = query.getColumn(2).getDouble();
        m.learningRate = query.getColumn(3).getDouble();
        m.memory = {query.getColumn(4).getInt64(), query.getColumn(5).getInt64(), query.getColumn(6).getInt64()};
        m.samplesPerSecond = query.getColumn(7).getDouble();
        m.tokensPerSecond = query.getColumn(8).getDouble();
        m.paddingShare = query.getColumn(9).getDouble();
        m.lossScale = query.getColumn(10).getDouble();
        m.gradNorm = query.getColumn(11).getDouble();
        m.microBatch = static_cast<std::size_t>(query.getColumn(12).getInt64());
        m.accumulation = static_cast<std::size_t>(query.getColumn(13).getInt64());
        m.skipped = query.getColumn(14).getInt() != 0;
        result.push_back(m);
    }
    return result;
}

std::vector<EvalMetrics> RunStore::evaluations(std::int64_t runId) {
    std::vector<EvalMetrics> result;
    SQLite::Statement query(*db_,
                            "SELECT step, epoch, loss, accuracy, macro_f1, confusion_json FROM evaluations "
                            "WHERE run_id = ? ORDER BY step, rowid");
    query.bind(1, runId);
    while (query.executeStep()) {
        EvalMetrics m;
        m.step = static_cast<std::size_t>(query.getColumn(0).getInt64());
        m.epoch = query.getColumn(1).getDouble();
        m.loss = query.getColumn(2).getDouble();
        m.accuracy = query.getColumn(3).getDouble();
        m.macroF1 = query.getColumn(4).getDouble();
        const auto confusion = parseJson(query.getColumn(5).getString(), nlohmann::json::array());
        if (confusion.is_array()) {
            m.confusion = confusion.get<std::vector<std::vector<std::int64_t>>>();
        }
        result.push_back(m);
    }
    return result;
}

std::vector<TrainerEvent> RunStore::events(std::int64_t runId) {
    std::vector<TrainerEvent> result;
    SQLite::Statement query(*db_, "SELECT step, kind, message, data_json FROM events WHERE run_id = ? ORDER BY id");
    query.bind(1, runId);
    while (query.executeStep()) {
        result.push_back({eventKindFromString(query.getColumn(1).getString()),
                          static_cast<std::size_t>(query.getColumn(0).getInt64()),
                          query.getColumn(2).getString(),
                          parseJson(query.getColumn(3).getString(), nlohmann::json::object())});
    }
    return result;
}

std::vector<EpochSummary> RunStore::epochs(std::int64_t runId) {
    std::vector<EpochSummary> result;
    SQLite::Statement query(*db_,
                            "SELECT epoch, real_tokens, padded_tokens, seconds FROM epochs WHERE run_id = ? "
                            "ORDER BY epoch");
    query.bind(1, runId);
    while (query.executeStep()) {
        EpochSummary e;
        e.epoch = static_cast<std::size_t>(query.getColumn(0).getInt64());
        e.realTokens = query.getColumn(1).getInt64();
        e.paddedTokens = query.getColumn(2).getInt64();
        e.seconds = query.getColumn(3).getDouble();
        result.push_back(e);
    }
    return result;
}

std::vector<CheckpointRecord> RunStore::checkpoints(std::int64_t runId) {
    std::vector<CheckpointRecord> result;
    SQLite::Statement query(*db_,
                            "SELECT step, kind, path, metric FROM checkpoints WHERE run_id = ? ORDER BY rowid");
    query.bind(1, runId);
    while (query.executeStep()) {
        result.push_back({runId, static_cast<std::size_t>(query.getColumn(0).getInt64()),
                          query.getColumn(1).getString(), query.getColumn(2).getString(),
                          query.getColumn(3).getDouble()});
    }
    return result;
}

// ---- recorder --------------------------------------------------------------------------------

RunRecorder::RunRecorder(const std::filesystem::path& databaseFile, std::int64_t runId)
    : file_(databaseFile), runId_(runId), db_(openDatabase(databaseFile)) {
    writer_ = std::thread([this] { writerLoop(); });
}

RunRecorder::~RunRecorder() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    writer_.join();
}

void RunRecorder::push(Item item) {
    {
        const std::lock_guard lock(mutex_);
        queue_.push_back(std::move(item));
    }
    wake_.notify_one();
}

void RunRecorder::onStarted(const RunStart& start) { push(start); }
void RunRecorder::onStep(const StepMetrics& metrics) { push(metrics); }
void RunRecorder::onEvaluation(const EvalMetrics& metrics) { push(metrics); }
void RunRecorder::onEpochEnd(const EpochSummary& summary) { push(summary); }
void RunRecorder::onEvent(const TrainerEvent& event) { push(event); }
void RunRecorder::onFinished(const RunResult& result) {
    push(result);
    flush();  // the run's end is on disk before the trainer returns
}

void RunRecorder::beforeCheckpoint(std::size_t /*step*/) { flush(); }

void RunRecorder::flush() {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [&] { return queue_.empty() && inFlight_ == 0; });
}

std::string RunRecorder::lastError() const {
    const std::lock_guard lock(mutex_);
    return error_;
}

void RunRecorder::writerLoop() {
    for (;;) {
        std::vector<Item> batch;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, kFlushInterval, [&] { return stopping_ || !queue_.empty(); });
            // Gather what arrives within the interval into one transaction.
            if (!stopping_ && !queue_.empty()) {
                wake_.wait_for(lock, kFlushInterval / 5, [&] { return stopping_; });
            }
            batch.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
            queue_.clear();
            inFlight_ = batch.size();
            if (batch.empty() && stopping_) {
                drained_.notify_all();
                return;
            }
        }
        if (!batch.empty()) {
            std::string failure;
            try {
                write(batch);
            } catch (const std::exception& error) {
                failure = error.what();
            }
            const std::lock_guard lock(mutex_);
            if (!failure.empty()) {
                error_ = file_.string() + ": " + failure;
            }
        }
        {
            const std::lock_guard lock(mutex_);
            inFlight_ = 0;
        }
        drained_.notify_all();
    }
}

void RunRecorder::write(const std::vector<Item>& items) {
    auto& db = *db_;
    SQLite::Transaction transaction(db);
    SQLite::Statement step(db,
                           "INSERT OR REPLACE INTO steps (run_id, step, epoch, loss, learning_rate, memory_current, "
                           "memory_peak, memory_reserved, samples_per_second, tokens_per_second, padding_share, "
                           "loss_scale, grad_norm, micro_batch, accumulation, skipped) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (const auto& item : items) {
        if (const auto* m = std::get_if<StepMetrics>(&item)) {
            step.reset();
            step.bind(1, runId_);
            step.bind(2, static_cast<std::int64_t>(m->step));
            step.bind(3, m->epoch);
            step.bind(4, m->loss);
            step.bind(5, m->learningRate);
            step.bind(6, m->memory.current);
            step.bind(7, m->memory.peak);
            step.bind(8, m->memory.reserved);
            step.bind(9, m->samplesPerSecond);
            step.bind(10, m->tokensPerSecond);
            step.bind(11, m->paddingShare);
            step.bind(12, m->lossScale);
            step.bind(13, m->gradNorm);
            step.bind(14, static_cast<std::int64_t>(m->microBatch));
            step.bind(15, static_cast<std::int64_t>(m->accumulation));
            step.bind(16, m->skipped ? 1 : 0);
            step.exec();
        } else if (const auto* e = std::get_if<EvalMetrics>(&item)) {
            SQLite::Statement insert(db,
                                     "INSERT INTO evaluations (run_id, step, epoch, loss, accuracy, macro_f1, "
                                     "confusion_json) VALUES (?, ?, ?, ?, ?, ?, ?)");
            insert.bind(1, runId_);
            insert.bind(2, static_cast<std::int64_t>(e->step));
            insert.bind(3, e->epoch);
            insert.bind(4, e->loss);
            insert.bind(5, e->accuracy);
            insert.bind(6, e->macroF1);
            insert.bind(7, nlohmann::json(e->confusion).dump());
            insert.exec();
        } else if (const auto* s = std::get_if<EpochSummary>(&item)) {
            SQLite::Statement insert(db,
                                     "INSERT OR REPLACE INTO epochs (run_id, epoch, real_tokens, padded_tokens, "
                                     "padding_share, seconds) VALUES (?, ?, ?, ?, ?, ?)");
            insert.bind(1, runId_);
            insert.bind(2, static_cast<std::int64_t>(s->epoch));
            insert.bind(3, s->realTokens);
            insert.bind(4, s->paddedTokens);
            insert.bind(5, s->paddingShare());
            insert.bind(6, s->seconds);
            insert.exec();
        } else if (const auto* event = std::get_if<TrainerEvent>(&item)) {
            insertEvent(db, runId_, *event);
            if (event->kind == EventKind::CheckpointSaved) {
                SQLite::Statement insert(db,
                                         "INSERT INTO checkpoints (run_id, step, kind, path, metric, created_at) "
                                         "VALUES (?, ?, ?, ?, ?, ?)");
                insert.bind(1, runId_);
                insert.bind(2, static_cast<std::int64_t>(event->data.value("step", std::size_t{0})));
                insert.bind(3, event->data.value("kind", std::string()));
                insert.bind(4, event->data.value("path", std::string()));
                insert.bind(5, event->data.value("metric", 0.0));
                insert.bind(6, nowIso());
                insert.exec();
            }
        } else if (const auto* start = std::get_if<RunStart>(&item)) {
            writeRunStart(db, runId_, *start);
        } else if (const auto* result = std::get_if<RunResult>(&item)) {
            writeRunResult(db, runId_, *result);
        }
    }
    transaction.commit();
}

}  // namespace bert
