#include "worker/TrainingWorker.h"

#include <QMetaType>

#include "Error.h"

Q_DECLARE_METATYPE(bert::TrainingJob)
Q_DECLARE_METATYPE(bert::RunStart)
Q_DECLARE_METATYPE(bert::StepMetrics)
Q_DECLARE_METATYPE(bert::EvalMetrics)
Q_DECLARE_METATYPE(bert::EpochSummary)
Q_DECLARE_METATYPE(bert::TrainerEvent)
Q_DECLARE_METATYPE(bert::RunResult)

namespace bert::ui {

namespace {

/// Forwards trainer callbacks as the worker's signals (emitted on the training thread).
class SignalObserver final : public TrainerObserver {
public:
    explicit SignalObserver(TrainingWorker& worker) : worker_(worker) {}
    void onStarted(const RunStart& s) override { Q_EMIT worker_.started(s); }
    void onStep(const StepMetrics& m) override { Q_EMIT worker_.stepDone(m); }
    void onEvaluation(const EvalMetrics& m) override { Q_EMIT worker_.evaluated(m); }
    void onEpochEnd(const EpochSummary& s) override { Q_EMIT worker_.epochDone(s); }
    void onEvent(const TrainerEvent& e) override { Q_EMIT worker_.event(e); }

private:
    TrainingWorker& worker_;
};

}  // namespace

void registerMetaTypes() {
    qRegisterMetaType<bert::TrainingJob>();
    qRegisterMetaType<bert::RunStart>();
    qRegisterMetaType<bert::StepMetrics>();
    qRegisterMetaType<bert::EvalMetrics>();
    qRegisterMetaType<bert::EpochSummary>();
    qRegisterMetaType<bert::TrainerEvent>();
    qRegisterMetaType<bert::RunResult>();
}

TrainingWorker::TrainingWorker(std::filesystem::path database, QObject* parent)
    : QObject(parent), database_(std::move(database)) {}

void TrainingWorker::start(const bert::TrainingJob& job) {
    cancel_.store(false);
    SignalObserver observer(*this);
    try {
        const auto session = runTrainingJob(job, database_, &observer, cancel_,
                                            [this](std::int64_t runId) { Q_EMIT runCreated(runId); });
        Q_EMIT finished(session.runId, session.result);
    } catch (const std::exception& error) {
        Q_EMIT failed(QString::fromStdString(error.what()));
    }
}

void TrainingWorker::resume(qint64 runId) {
    cancel_.store(false);
    SignalObserver observer(*this);
    Q_EMIT runCreated(runId);
    try {
        const auto session = resumeTrainingRun(runId, database_, &observer, cancel_);
        Q_EMIT finished(session.runId, session.result);
    } catch (const std::exception& error) {
        Q_EMIT failed(QString::fromStdString(error.what()));
    }
}

}  // namespace bert::ui
