#include "runs/RunRecorder.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "Error.h"
#include "io/WaitNotice.h"
#include "runs/StoreSql.h"
#include "train/Metrics.h"

namespace bert {

RunRecorder::RunRecorder(const std::filesystem::path& databaseFile, std::int64_t runId)
    : file_(store::realPathOf(databaseFile)),
      runId_(runId),
      db_(store::openDatabase(file_, /*readOnly=*/false)) {
    store::checkAndMigrate(*db_, file_, /*readOnly=*/false);
    runsFolder_ = store::runsFolderOf(*db_, file_).path;
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
        if (failed_) {
            // The store refused for good (full disk, damaged or read-only file): training on
            // would only lose more; the trainer ends the run as failed by the store (exit 4).
            throw StoreError(
                file_, "run " + std::to_string(runId_) + " can no longer be recorded: " + failure_);
        }
        queue_.push_back(std::move(item));
    }
    wake_.notify_one();
}

void RunRecorder::onStarted(const RunStart& start) {
    push(start);
}
void RunRecorder::onStep(const StepMetrics& metrics) {
    push(metrics);
}
void RunRecorder::onEvaluation(const EvalMetrics& metrics) {
    push(metrics);
}
void RunRecorder::onBestExamples(std::shared_ptr<const EvaluationExamples> examples) {
    push(std::move(examples));
}
void RunRecorder::onEpochEnd(const EpochSummary& summary) {
    push(summary);
}
void RunRecorder::onEvent(const TrainerEvent& event) {
    push(event);
}
void RunRecorder::onFinished(const RunResult& result) {
    {
        const std::lock_guard lock(mutex_);
        if (failed_) {
            // The end cannot go in either; keep it beside the checkpoints if the disk allows,
            // and let lastError() say what happened.
            store::saveResultBeside(runsFolder_ / std::to_string(runId_), result);
            return;
        }
    }
    push(result);
    flush();  // the run's end is on disk before the trainer returns
}

void RunRecorder::beforeCheckpoint(std::size_t /*step*/) {
    flush();
}
void RunRecorder::onCheckpoint(const CheckpointInfo& checkpoint) {
    push(checkpoint);
}

void RunRecorder::flush() {
    std::unique_lock lock(mutex_);
    drained_.wait(lock, [&] { return queue_.empty() && inFlight_ == 0; });
}

std::string RunRecorder::lastError() const {
    const std::lock_guard lock(mutex_);
    return error_;
}

namespace {

// Retries of a batch that could not be written (database locked, disk full): the wait doubles
// from the first to the longest, until kGiveUp has passed since the first failure.
constexpr std::chrono::milliseconds kFirstRetry{50};
constexpr std::chrono::milliseconds kLongestRetry{2000};
constexpr std::chrono::seconds kGiveUp{300};

std::chrono::milliseconds giveUpAfter() {
    // BERT_STUDIO_RECORDER_GIVE_UP_S shortens the bound (tests; a session that must end).
    if (const char* text = std::getenv("BERT_STUDIO_RECORDER_GIVE_UP_S");
        text != nullptr && *text != '\0') {
        char* end = nullptr;
        const double seconds = std::strtod(text, &end);
        if (*end == '\0' && seconds >= 0) {
            return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
        }
    }
    return kGiveUp;
}

}  // namespace

void RunRecorder::writerLoop() {
    using Clock = std::chrono::steady_clock;
    const auto giveUp = giveUpAfter();
    std::vector<Item> batch;  // what is being written; kept across failed attempts
    bool failing = false;     // the batch has failed since failingSince
    bool noticed = false;     // the wait was announced
    Clock::time_point failingSince{};
    std::string lastFailure;
    auto retryWait = kFirstRetry;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            if (failing) {
                // Wait before the next attempt; new items join the batch meanwhile.
                wake_.wait_for(lock, retryWait, [&] { return false; });
            } else {
                wake_.wait_for(lock, kFlushInterval, [&] { return stopping_ || !queue_.empty(); });
                // Gather what arrives within the interval into one transaction.
                if (!stopping_ && !queue_.empty()) {
                    wake_.wait_for(lock, kFlushInterval / 5, [&] { return stopping_; });
                }
            }
            batch.insert(batch.end(), std::make_move_iterator(queue_.begin()),
                         std::make_move_iterator(queue_.end()));
            queue_.clear();
            inFlight_ = batch.size();
            if (batch.empty() && stopping_) {
                drained_.notify_all();
                return;
            }
        }
        if (batch.empty()) {
            continue;
        }
        std::string failure;
        bool permanent = false;
        try {
            if (failing) {
                // Say in the run how late its metrics are: the batch's first row and the reason.
                const double late =
                    std::chrono::duration<double>(Clock::now() - failingSince).count();
                char seconds[32];
                std::snprintf(seconds, sizeof seconds, "%.1f", late);
                batch.insert(batch.begin(),
                             TrainerEvent{EventKind::Info,
                                          0,
                                          std::string("metrics were written ") + seconds +
                                              " s late: " + lastFailure,
                                          {{"delay_seconds", late}, {"reason", lastFailure}}});
            }
            write(batch);
        } catch (const SQLite::Exception& error) {
            failure = error.what();
            // Only another process's lock is worth waiting out (issue 26: a full disk once
            // waited 300 s, twice, and a damaged table 301 s, in silence).
            permanent = !store::isBusy(error);
        } catch (const std::exception& error) {
            failure = error.what();
            permanent = true;
        }
        if (!failure.empty() && failing) {
            batch.erase(batch.begin());  // the delay event is made afresh on the next attempt
        }
        if (failure.empty()) {
            batch.clear();
            failing = false;
            noticed = false;
            retryWait = kFirstRetry;
        } else {
            const auto now = Clock::now();
            if (!failing) {
                failing = true;
                failingSince = now;
            }
            lastFailure = failure;
            retryWait = std::min(kLongestRetry, retryWait * 2);
            const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(giveUp).count();
            if (!permanent && !noticed) {
                noticeWait("run " + std::to_string(runId_) +
                           "'s metrics wait in memory: " + file_.string() +
                           " is locked by another process (" + failure + "); retrying for up to " +
                           std::to_string(seconds) + " s (BERT_STUDIO_RECORDER_GIVE_UP_S)");
                noticed = true;
            }
            if (permanent || now - failingSince >= giveUp) {
                // The rows go, with a clear error; a finished run's result is kept beside its
                // checkpoints so that the next open does not call it crashed.
                for (const auto& item : batch) {
                    if (const auto* result = std::get_if<RunResult>(&item)) {
                        store::saveResultBeside(runsFolder_ / std::to_string(runId_), *result);
                    }
                }
                const std::lock_guard lock(mutex_);
                error_ = file_.string() + ": " + std::to_string(batch.size()) +
                         " records could not be written" +
                         (permanent
                              ? std::string()
                              : " for " +
                                    std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                                       now - failingSince)
                                                       .count()) +
                                    " s") +
                         " and are lost: " + failure;
                if (permanent) {
                    failed_ = true;
                    failure_ = failure;
                    // What arrived meanwhile cannot go in either.
                    queue_.clear();
                }
                batch.clear();
                failing = false;
                noticed = false;
                retryWait = kFirstRetry;
            }
        }
        {
            const std::lock_guard lock(mutex_);
            inFlight_ = batch.size();
        }
        drained_.notify_all();
    }
}

void RunRecorder::write(const std::vector<Item>& items) {
    auto& db = *db_;
    SQLite::Transaction transaction(db);
    SQLite::Statement step(
        db,
        "INSERT OR REPLACE INTO steps (run_id, step, epoch, loss, learning_rate, memory_current, "
        "memory_peak, memory_reserved, samples_per_second, tokens_per_second, padding_share, "
        "loss_scale, grad_norm, micro_batch, accumulation, skipped, rank_memory_json) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
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
            if (m->rankMemory.empty()) {
                step.bind(17);  // NULL: one process
            } else {
                auto ranks = nlohmann::json::array();
                for (const auto& rank : m->rankMemory) {
                    ranks.push_back({rank.current, rank.peak, rank.reserved});
                }
                step.bind(17, ranks.dump());
            }
            step.exec();
        } else if (const auto* e = std::get_if<EvalMetrics>(&item)) {
            SQLite::Statement insert(db,
                                     "INSERT OR REPLACE INTO evaluations (run_id, step, epoch, "
                                     "loss, accuracy, macro_f1, "
                                     "confusion_json, task_json, calibration_json) VALUES (?, ?, "
                                     "?, ?, ?, ?, ?, ?, ?)");
            insert.bind(1, runId_);
            insert.bind(2, static_cast<std::int64_t>(e->step));
            insert.bind(3, e->epoch);
            insert.bind(4, e->loss);
            insert.bind(5, e->accuracy);
            insert.bind(6, e->macroF1);
            insert.bind(7, confusionToJson(e->confusion).dump());
            if (!e->task.is_null()) {
                insert.bind(8, e->task.dump());
            }
            if (!e->calibration.is_null()) {
                insert.bind(9, e->calibration.dump());
            }
            insert.exec();
        } else if (const auto* s = std::get_if<EpochSummary>(&item)) {
            SQLite::Statement insert(
                db,
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
            store::insertEvent(db, runId_, *event);
        } else if (const auto* checkpoint = std::get_if<CheckpointInfo>(&item)) {
            store::insertCheckpoint(db, runId_, *checkpoint, file_.parent_path());
        } else if (const auto* start = std::get_if<RunStart>(&item)) {
            store::writeRunStart(db, runId_, *start);
        } else if (const auto* result = std::get_if<RunResult>(&item)) {
            store::writeRunResult(db, runId_, *result);
        } else if (const auto* examples = std::get_if<BestExamples>(&item)) {
            store::writeExamples(db, runId_, **examples);
        }
    }
    transaction.commit();
}

}  // namespace bert
