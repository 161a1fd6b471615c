#include "runs/RunStore.h"

#include <cstdlib>
#include <limits>

#include "io/Json.h"
#include "runs/StoreSql.h"
#include "train/Metrics.h"

namespace bert {

namespace {

/// A REAL column that may hold NULL for a value that was not finite (SQLite stores NaN so).
double finiteOrNaN(const SQLite::Column& column) {
    return column.isNull() ? std::numeric_limits<double>::quiet_NaN() : column.getDouble();
}

/// A stored JSON column, or fallback when it is not valid (bounded like every JSON we read).
nlohmann::json storedJson(const std::string& text, nlohmann::json fallback) {
    std::string problem;
    auto json = parseJson(text, problem);
    return problem.empty() ? json : fallback;
}

RunRecord readRun(SQLite::Statement& query) {
    RunRecord run;
    run.id = query.getColumn("id").getInt64();
    run.name = query.getColumn("name").getString();
    run.createdAt = query.getColumn("created_at").getString();
    run.finishedAt =
        query.getColumn("finished_at").isNull() ? "" : query.getColumn("finished_at").getString();
    run.status = runStatusFromString(query.getColumn("status").getString());
    run.config = storedJson(query.getColumn("config_json").getString(), nlohmann::json::object());
    run.datasetPath = query.getColumn("dataset_path").getString();
    run.datasetFingerprint = query.getColumn("dataset_fingerprint").getString();
    run.baseModel = query.getColumn("base_model").getString();
    const auto labels =
        storedJson(query.getColumn("labels_json").getString(), nlohmann::json::array());
    for (const auto& label : labels) {
        run.labels.push_back(label.is_string() ? label.get<std::string>() : label.dump());
    }
    run.techniques = query.getColumn("techniques").getString();
    run.finalMetrics =
        storedJson(query.getColumn("final_metrics_json").getString(), nlohmann::json::object());
    run.bestAccuracy = query.getColumn("best_accuracy").getDouble();
    run.peakMemoryBytes = query.getColumn("peak_memory_bytes").getInt64();
    run.forecastBytes = query.getColumn("forecast_bytes").getInt64();
    run.trialPeakBytes = query.getColumn("trial_peak_bytes").getInt64();
    run.device = query.getColumn("device").getString();
    run.seconds = query.getColumn("seconds").getDouble();
    run.error = query.getColumn("error").getString();
    run.notes = query.getColumn("notes").getString();
    run.resumedFrom = query.getColumn("resumed_from").getInt64();
    run.inputs = storedJson(query.getColumn("inputs_json").getString(), nlohmann::json::object());
    // A run whose lease is gone was interrupted, whether or not a read-write open marked it yet.
    if (run.status == RunStatus::Running) {
        bool alive = false;
        if (!query.getColumn("lease_token").isNull()) {
            store::LeaseHolder lease;
            lease.pid = query.getColumn("lease_pid").getInt64();
            lease.host = query.getColumn("lease_host").getString();
            lease.machine = query.getColumn("lease_machine").getString();
            lease.claimedAt = query.getColumn("lease_claimed_at").getString();
            lease.expiresAt = query.getColumn("lease_expires_at").getDouble();
            alive = lease.live();
            run.holder = lease.describe();
        } else {
            // A run of an older version, or whose lease went before its end was recorded.
            const auto pid = query.getColumn("pid").getInt64();
            const auto host = query.getColumn("host").getString();
            alive = store::processMayBeAlive(pid, host);
            run.holder = "process " + std::to_string(pid) + " on " + host;
        }
        if (!alive) {
            run.status = RunStatus::Interrupted;
            run.error = "the process ended during training (killed or crashed)";
            run.holder.clear();
        }
    }
    return run;
}

/// Every run column, with its lease's (NULL without one) and, for a read-only older schema,
/// defaults for the columns it lacks.
std::string runsQuery(bool hasLeases) {
    if (hasLeases) {
        return "SELECT runs.*, l.token AS lease_token, l.pid AS lease_pid, l.host AS lease_host, "
               "l.machine AS lease_machine, l.claimed_at AS lease_claimed_at, "
               "l.expires_at AS lease_expires_at FROM runs LEFT JOIN leases l ON l.run_id = "
               "runs.id";
    }
    return "SELECT runs.*, '{}' AS inputs_json, NULL AS lease_token, NULL AS lease_pid, "
           "NULL AS lease_host, NULL AS lease_machine, NULL AS lease_claimed_at, "
           "NULL AS lease_expires_at FROM runs";
}

}  // namespace

RunStore::RunStore(std::filesystem::path databaseFile, Access access)
    // Absolute: run folders and checkpoints must not depend on the working directory; and real:
    // a --db through a symbolic link once put checkpoints beside the link, where export and
    // delete through the real path missed them (issue 26).
    : file_(store::realPathOf(databaseFile)),
      access_(access),
      db_(store::openDatabase(file_, access == Access::ReadOnly)) {
    store::checkAndMigrate(*db_, file_, readOnly());
    hasLeases_ =
        store::guarded(file_, "reading its schema", [&] { return db_->tableExists("leases"); });
    const auto runs = store::guarded(file_, "reading where its runs are",
                                     [&] { return store::runsFolderOf(*db_, file_); });
    runsFolder_ = runs.path;
    storeId_ = runs.storeId;
    if (!readOnly()) {
        store::guarded(file_, "marking interrupted runs", [&] { markInterruptedRuns(); });
    }
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
    return runsFolder_ / std::to_string(runId);
}

void RunStore::claimRunsFolder() {
    store::guarded(file_, "claiming its runs folder", [&] {
        store::claimRunsFolder({runsFolder_, storeId_}, file_);
    });
}

void RunStore::markInterruptedRuns() {
    SQLite::Statement query(*db_, "SELECT id, pid, host FROM runs WHERE status = 'running'");
    std::vector<std::int64_t> running;
    std::vector<std::pair<std::int64_t, std::string>> owners;
    while (query.executeStep()) {
        running.push_back(query.getColumn(0).getInt64());
        owners.emplace_back(query.getColumn(1).getInt64(), query.getColumn(2).getString());
    }
    query.reset();
    std::vector<std::int64_t> dead;
    for (std::size_t i = 0; i < running.size(); ++i) {
        if (!store::runningRunIsAlive(*db_, running[i], owners[i].first, owners[i].second)) {
            dead.push_back(running[i]);
        }
    }
    for (const auto id : dead) {
        // A run that finished but could not record it (RunRecorder gave up) left its result
        // beside its checkpoints: it ended, it did not crash.
        if (const auto result = store::takeResultBeside(runFolder(id))) {
            SQLite::Transaction transaction(*db_);
            store::writeRunResult(*db_, id, *result);
            store::insertEvent(
                *db_, id,
                {EventKind::Info, result->steps,
                 "the run's end was recorded late, from result.json beside its checkpoints",
                 nlohmann::json::object()});
            transaction.commit();
            store::consumeResultBeside(runFolder(id));
            continue;
        }
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        // Under the write lock, once more: another process may have claimed the run meanwhile.
        SQLite::Statement status(*db_, "SELECT status, pid, host FROM runs WHERE id = ?");
        status.bind(1, id);
        if (!status.executeStep() || status.getColumn(0).getString() != "running" ||
            store::runningRunIsAlive(*db_, id, status.getColumn(1).getInt64(),
                                     status.getColumn(2).getString())) {
            continue;
        }
        status.reset();
        SQLite::Statement update(*db_,
                                 "UPDATE runs SET status = 'interrupted', finished_at = ?, "
                                 "error = 'the process ended during training (killed or crashed)' "
                                 "WHERE id = ?");
        update.bind(1, store::nowIso());
        update.bind(2, id);
        update.exec();
        if (hasLeases_) {
            SQLite::Statement release(*db_, "DELETE FROM leases WHERE run_id = ?");
            release.bind(1, id);
            release.exec();
        }
        SQLite::Statement lastStep(*db_,
                                   "SELECT coalesce(max(step), 0) FROM steps WHERE run_id = ?");
        lastStep.bind(1, id);
        lastStep.executeStep();
        const TrainerEvent event{
            EventKind::Interrupted, static_cast<std::size_t>(lastStep.getColumn(0).getInt64()),
            "the process ended during training; found at the next start", nlohmann::json::object()};
        store::insertEvent(*db_, id, event);
        transaction.commit();
        interrupted_.push_back(id);
    }
}

std::int64_t RunStore::createRun(const NewRun& run) {
    return store::guarded(file_, "creating a run", [&] {
        // The run and this process's lease on it in one transaction: no other process ever sees
        // it running without a holder.
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        SQLite::Statement insert(
            *db_,
            "INSERT INTO runs (name, created_at, started_at, status, config_json, dataset_path, "
            "dataset_fingerprint, base_model, labels_json, techniques, resumed_from, pid, host, "
            "inputs_json) VALUES (?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        const auto now = store::nowIso();
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
        insert.bind(12, store::hostName());
        insert.bind(13, run.inputs.dump());
        insert.exec();
        const auto id = db_->getLastInsertRowid();
        store::writeLease(*db_, id, "trained");
        transaction.commit();
        return id;
    });
}

void RunStore::setStarted(std::int64_t runId, const RunStart& start) {
    store::guarded(file_, "recording the start of run " + std::to_string(runId),
                   [&] { store::writeRunStart(*db_, runId, start); });
}

void RunStore::finishRun(std::int64_t runId, const RunResult& result) {
    store::guarded(file_, "recording the end of run " + std::to_string(runId),
                   [&] { store::writeRunResult(*db_, runId, result); });
}

void RunStore::reopen(std::int64_t runId) {
    store::guarded(file_, "reopening run " + std::to_string(runId), [&] {
        SQLite::Statement update(
            *db_,
            "UPDATE runs SET status = 'running', finished_at = NULL, error = '', pid = ?, "
            "host = ? WHERE id = ?");
        update.bind(1, static_cast<std::int64_t>(::getpid()));
        update.bind(2, store::hostName());
        update.bind(3, runId);
        update.exec();
    });
}

void RunStore::rename(std::int64_t runId, const std::string& name) {
    store::guarded(file_, "renaming run " + std::to_string(runId), [&] {
        SQLite::Statement update(*db_, "UPDATE runs SET name = ? WHERE id = ?");
        update.bind(1, name);
        update.bind(2, runId);
        if (update.exec() == 0) {
            throw InputError(file_, "has no run " + std::to_string(runId));
        }
    });
}

void RunStore::setNotes(std::int64_t runId, const std::string& notes) {
    store::guarded(file_, "writing the notes of run " + std::to_string(runId), [&] {
        SQLite::Statement update(*db_, "UPDATE runs SET notes = ? WHERE id = ?");
        update.bind(1, notes);
        update.bind(2, runId);
        if (update.exec() == 0) {
            throw InputError(file_, "has no run " + std::to_string(runId));
        }
    });
}

void RunStore::remove(std::int64_t runId, bool force) {
    store::guarded(file_, "deleting run " + std::to_string(runId), [&] {
        SQLite::Statement owner(*db_, "SELECT status, pid, host FROM runs WHERE id = ?");
        owner.bind(1, runId);
        if (!owner.executeStep()) {
            throw InputError(file_, "has no run " + std::to_string(runId));
        }
        // Deleting a run that trains breaks it: its checkpoints and rows vanish under it.
        if (!force && owner.getColumn(0).getString() == "running" &&
            store::runningRunIsAlive(*db_, runId, owner.getColumn(1).getInt64(),
                                     owner.getColumn(2).getString())) {
            const auto lease = store::leaseOf(*db_, runId);
            const auto holder = lease ? lease->describe()
                                      : "process " + std::to_string(owner.getColumn(1).getInt64()) +
                                            " on " + owner.getColumn(2).getString();
            throw InputError(file_, "run " + std::to_string(runId) + " is training (" + holder +
                                        "); cancel it before deleting it, or delete it with "
                                        "--force if that process is gone");
        }
        owner.reset();
        // Its folder must be this database's: another database's run <id> is not this one
        // (runsFolderOf refuses a runs folder that is not beside the database).
        store::claimRunsFolder({runsFolder_, storeId_}, file_);
        SQLite::Statement erase(*db_, "DELETE FROM runs WHERE id = ?");
        erase.bind(1, runId);
        erase.exec();
        std::filesystem::remove_all(runFolder(runId));
    });
}

std::vector<RunRecord> RunStore::runs() {
    return store::guarded(file_, "listing runs", [&] {
        std::vector<RunRecord> result;
        SQLite::Statement query(*db_, runsQuery(hasLeases_) + " ORDER BY runs.id");
        while (query.executeStep()) {
            result.push_back(readRun(query));
        }
        return result;
    });
}

std::optional<RunRecord> RunStore::run(std::int64_t runId) {
    return store::guarded(
        file_, "reading run " + std::to_string(runId), [&]() -> std::optional<RunRecord> {
            SQLite::Statement query(*db_, runsQuery(hasLeases_) + " WHERE runs.id = ?");
            query.bind(1, runId);
            if (!query.executeStep()) {
                return std::nullopt;
            }
            return readRun(query);
        });
}

std::vector<StepMetrics> RunStore::steps(std::int64_t runId) {
    return store::guarded(file_, "reading the steps of run " + std::to_string(runId), [&] {
        std::vector<StepMetrics> result;
        const bool hasRankMemory = db_->execAndGet(
                                          "SELECT count(*) FROM pragma_table_info('steps') WHERE "
                                          "name = 'rank_memory_json'")
                                       .getInt() > 0;
        // A read-only database of schema 3 has no per-rank column: NULL stands in for it.
        const std::string sql =
            std::string(
                "SELECT step, epoch, loss, learning_rate, memory_current, memory_peak, "
                "memory_reserved, samples_per_second, tokens_per_second, padding_share, "
                "loss_scale, grad_norm, micro_batch, accumulation, skipped, ") +
            (hasRankMemory ? "rank_memory_json " : "NULL ") +
            "FROM steps WHERE run_id = ? ORDER BY step";
        SQLite::Statement query(*db_, sql);
        query.bind(1, runId);
        while (query.executeStep()) {
            StepMetrics m;
            m.step = static_cast<std::size_t>(query.getColumn(0).getInt64());
            m.epoch = query.getColumn(1).getDouble();
            m.loss = finiteOrNaN(query.getColumn(2));
            m.learningRate = query.getColumn(3).getDouble();
            m.memory = {query.getColumn(4).getInt64(), query.getColumn(5).getInt64(),
                        query.getColumn(6).getInt64()};
            m.samplesPerSecond = query.getColumn(7).getDouble();
            m.tokensPerSecond = query.getColumn(8).getDouble();
            m.paddingShare = query.getColumn(9).getDouble();
            m.lossScale = query.getColumn(10).getDouble();
            m.gradNorm = finiteOrNaN(query.getColumn(11));
            m.microBatch = static_cast<std::size_t>(query.getColumn(12).getInt64());
            m.accumulation = static_cast<std::size_t>(query.getColumn(13).getInt64());
            m.skipped = query.getColumn(14).getInt() != 0;
            if (!query.getColumn(15).isNull()) {
                const auto ranks = nlohmann::json::parse(query.getColumn(15).getString(), nullptr,
                                                         /*allow_exceptions=*/false);
                if (ranks.is_array()) {
                    for (const auto& rank : ranks) {
                        if (rank.is_array() && rank.size() == 3 && rank[0].is_number_integer() &&
                            rank[1].is_number_integer() && rank[2].is_number_integer()) {
                            m.rankMemory.push_back({rank[0].get<std::int64_t>(),
                                                    rank[1].get<std::int64_t>(),
                                                    rank[2].get<std::int64_t>()});
                        }
                    }
                }
            }
            result.push_back(m);
        }
        return result;
    });
}

std::vector<EvalMetrics> RunStore::evaluations(std::int64_t runId) {
    return store::guarded(file_, "reading the evaluations of run " + std::to_string(runId), [&] {
        std::vector<EvalMetrics> result;
        SQLite::Statement query(
            *db_,
            "SELECT step, epoch, loss, accuracy, macro_f1, confusion_json, task_json, "
            "calibration_json "
            "FROM evaluations "
            "WHERE run_id = ? ORDER BY step, rowid");
        query.bind(1, runId);
        while (query.executeStep()) {
            EvalMetrics m;
            m.step = static_cast<std::size_t>(query.getColumn(0).getInt64());
            m.epoch = query.getColumn(1).getDouble();
            m.loss = finiteOrNaN(query.getColumn(2));
            m.accuracy = query.getColumn(3).getDouble();
            m.macroF1 = query.getColumn(4).getDouble();
            m.confusion = confusionFromJson(
                storedJson(query.getColumn(5).getString(), nlohmann::json::array()));
            if (!query.getColumn(6).isNull()) {
                m.task = storedJson(query.getColumn(6).getString(), nlohmann::json());
            }
            if (!query.getColumn(7).isNull()) {
                m.calibration = storedJson(query.getColumn(7).getString(), nlohmann::json());
            }
            result.push_back(m);
        }
        return result;
    });
}

std::vector<TrainerEvent> RunStore::events(std::int64_t runId) {
    return store::guarded(file_, "reading the events of run " + std::to_string(runId), [&] {
        std::vector<TrainerEvent> result;
        SQLite::Statement query(
            *db_, "SELECT step, kind, message, data_json FROM events WHERE run_id = ? ORDER BY id");
        query.bind(1, runId);
        while (query.executeStep()) {
            result.push_back(
                {eventKindFromString(query.getColumn(1).getString()),
                 static_cast<std::size_t>(query.getColumn(0).getInt64()),
                 query.getColumn(2).getString(),
                 storedJson(query.getColumn(3).getString(), nlohmann::json::object())});
        }
        return result;
    });
}

std::vector<EpochSummary> RunStore::epochs(std::int64_t runId) {
    return store::guarded(file_, "reading the epochs of run " + std::to_string(runId), [&] {
        std::vector<EpochSummary> result;
        SQLite::Statement query(
            *db_,
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
    });
}

std::vector<CheckpointRecord> RunStore::checkpoints(std::int64_t runId) {
    return store::guarded(file_, "reading the checkpoints of run " + std::to_string(runId), [&] {
        std::vector<CheckpointRecord> result;
        SQLite::Statement query(
            *db_,
            "SELECT step, kind, path, metric FROM checkpoints WHERE run_id = ? ORDER BY rowid");
        query.bind(1, runId);
        while (query.executeStep()) {
            result.push_back(
                {runId, static_cast<std::size_t>(query.getColumn(0).getInt64()),
                 checkpointKindFromString(query.getColumn(1).getString()),
                 store::resolveStoredPath(query.getColumn(2).getString(), file_.parent_path())
                     .string(),
                 query.getColumn(3).getDouble()});
        }
        return result;
    });
}

}  // namespace bert
