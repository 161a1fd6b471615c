#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QString>

#include "train/TrainerEvents.h"
#include "runs/TrainingJob.h"

namespace bert::ui {

/// Asks one job to stop. Created on the GUI thread with the job and handed to the worker with
/// it, so a cancel issued before the worker picks the job up is not lost.
using CancelToken = std::shared_ptr<std::atomic<bool>>;

/// Runs training jobs off the GUI thread. The one way the studio reaches the engine's training.
///
/// Threading contract (PlotJuggler style):
///  - Create the worker, moveToThread(thread), start the thread; call start()/resume() only
///    through queued invocation (QMetaObject::invokeMethod or a queued connection): they run on
///    the worker's thread and block it for the whole run.
///  - Each job comes with its CancelToken; the GUI thread sets it at any time (an atomic store);
///    the trainer reads it between micro-batches. A job whose token is set before it starts
///    creates no run and ends in failed().
///  - Every signal is emitted on the worker's thread; connect to GUI objects with the default
///    (auto) connection, which queues them to the GUI thread. No widget is touched here.
///  - Every failure ends in failed(message) (nothing could start, or an error escaped the run;
///    the run, when it existed, records it) or in finished() with a Failed status and its error:
///    no exception leaves the worker.
///  - A job with more than one data-parallel process runs as child processes of the command
///    line (WorkerProcesses.h): this thread reads their events and emits the same signals; a
///    cancel reaches them as SIGINT.
///  - Process-wide state during a run (memory cap, thread count) belongs to the run's Trainer;
///    engine work on other threads runs inside UncountedAllocations (common/AsyncTask.h).
class TrainingWorker : public QObject {
    Q_OBJECT

public:
    explicit TrainingWorker(std::filesystem::path database, QObject* parent = nullptr);

public Q_SLOTS:
    void start(const bert::TrainingJob& job, const bert::ui::CancelToken& cancel);
    void resume(qint64 runId, const bert::ui::CancelToken& cancel);
    /// Finds the largest micro-batch that fits for job (bert::findLargestBatch: forecast, then
    /// trial steps under the job's memory cap). Runs here, not in the thread pool, because trial
    /// steps must be counted and capped like a run's and never overlap one. Ends in
    /// largestBatchFound or largestBatchFailed.
    void findLargestBatch(const bert::TrainingJob& job, const bert::ui::CancelToken& cancel);

Q_SIGNALS:
    void runCreated(qint64 runId);
    void started(const bert::RunStart& start);
    void stepDone(const bert::StepMetrics& metrics);
    void evaluated(const bert::EvalMetrics& metrics);
    /// An evaluation's batches done and in all (0 of N as it begins).
    void evaluationProgress(int done, int batches);
    void epochDone(const bert::EpochSummary& summary);
    void event(const bert::TrainerEvent& event);
    void finished(qint64 runId, const bert::RunResult& result);
    void failed(const QString& message);
    void largestBatchFound(const bert::BatchFit& fit);
    void largestBatchFailed(const QString& message);

private:
    /// A data-parallel run: the command line with `arguments` starts the ranks; their events
    /// arrive as this worker's signals, as an in-process run's do (WorkerProcesses.h).
    void runInProcesses(const std::vector<std::string>& arguments, std::optional<qint64> knownRunId,
                        const CancelToken& cancel);

    std::filesystem::path database_;
};

/// Registers the engine types carried by queued signals. Call once before connecting.
void registerMetaTypes();

}  // namespace bert::ui
