#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <filesystem>

#include "train/TrainerEvents.h"
#include "train/TrainingJob.h"

namespace bert::ui {

/// Runs training jobs off the GUI thread. The one way the studio reaches the engine's training.
///
/// Threading contract (PlotJuggler style):
///  - Create the worker, moveToThread(thread), start the thread; call start()/resume() only
///    through queued invocation (QMetaObject::invokeMethod or a queued connection): they run on
///    the worker's thread and block it for the whole run.
///  - cancel() is the exception: call it from any thread; it only sets an atomic flag that the
///    trainer reads between micro-batches.
///  - Every signal is emitted on the worker's thread; connect to GUI objects with the default
///    (auto) connection, which queues them to the GUI thread. No widget is touched here.
///  - Every failure ends in failed(message) (bad input before training) or in finished() with a
///    Failed status and its error: no exception leaves the worker.
class TrainingWorker : public QObject {
    Q_OBJECT

public:
    explicit TrainingWorker(std::filesystem::path database, QObject* parent = nullptr);

    /// Thread-safe: asks the running job to stop at the next micro-batch (it saves a checkpoint).
    void cancel() { cancel_.store(true); }

public Q_SLOTS:
    void start(const bert::TrainingJob& job);
    void resume(qint64 runId);

Q_SIGNALS:
    void runCreated(qint64 runId);
    void started(const bert::RunStart& start);
    void stepDone(const bert::StepMetrics& metrics);
    void evaluated(const bert::EvalMetrics& metrics);
    void epochDone(const bert::EpochSummary& summary);
    void event(const bert::TrainerEvent& event);
    void finished(qint64 runId, const bert::RunResult& result);
    void failed(const QString& message);

private:
    std::filesystem::path database_;
    std::atomic<bool> cancel_{false};
};

/// Registers the engine types carried by queued signals. Call once before connecting.
void registerMetaTypes();

}  // namespace bert::ui
