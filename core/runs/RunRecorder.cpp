#include "runs/RunRecorder.h"

#include "runs/StoreSql.h"

namespace bert {

RunRecorder::RunRecorder(const std::filesystem::path& databaseFile, std::int64_t runId)
    : file_(databaseFile),
      runId_(runId),
      db_(store::openDatabase(databaseFile, /*readOnly=*/false)) {
    store::checkAndMigrate(*db_, file_, /*readOnly=*/false);
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

void RunRecorder::onStarted(const RunStart& start) {
    push(start);
}
void RunRecorder::onStep(const StepMetrics& metrics) {
    push(metrics);
}
void RunRecorder::onEvaluation(const EvalMetrics& metrics) {
    push(metrics);
}
void RunRecorder::onEpochEnd(const EpochSummary& summary) {
    push(summary);
}
void RunRecorder::onEvent(const TrainerEvent& event) {
    push(event);
}
void RunRecorder::onFinished(const RunResult& result) {
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
            batch.assign(std::make_move_iterator(queue_.begin()),
                         std::make_move_iterator(queue_.end()));
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
    SQLite::Statement step(
        db,
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
                                     "INSERT OR REPLACE INTO evaluations (run_id, step, epoch, "
                                     "loss, accuracy, macro_f1, "
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
        }
    }
    transaction.commit();
}

}  // namespace bert
