#include "worker/TrainingWorker.h"

#include <QMetaType>

#include "common/Guard.h"

Q_DECLARE_METATYPE(bert::TrainingJob)
Q_DECLARE_METATYPE(bert::RunStart)
Q_DECLARE_METATYPE(bert::StepMetrics)
Q_DECLARE_METATYPE(bert::EvalMetrics)
Q_DECLARE_METATYPE(bert::EpochSummary)
Q_DECLARE_METATYPE(bert::TrainerEvent)
Q_DECLARE_METATYPE(bert::RunResult)
Q_DECLARE_METATYPE(bert::BatchFit)

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
    qRegisterMetaType<bert::BatchFit>();
}

TrainingWorker::TrainingWorker(std::filesystem::path database, QObject* parent)
    : QObject(parent), database_(std::move(database)) {}

void TrainingWorker::start(const bert::TrainingJob& job, const bert::ui::CancelToken& cancel) {
    if (cancel->load()) {
        Q_EMIT failed(tr("Cancelled before training started; no run was created."));
        return;
    }
    SignalObserver observer(*this);
    try {
        const auto session =
            runTrainingJob(job, database_, &observer, *cancel,
                           [this](std::int64_t runId) { Q_EMIT runCreated(runId); });
        Q_EMIT finished(session.runId, session.result);
    } catch (...) {
        Q_EMIT failed(describeError(std::current_exception()));
    }
}

void TrainingWorker::resume(qint64 runId, const bert::ui::CancelToken& cancel) {
    if (cancel->load()) {
        Q_EMIT failed(tr("Cancelled before the run resumed."));
        return;
    }
    SignalObserver observer(*this);
    Q_EMIT runCreated(runId);
    try {
        const auto session = resumeTrainingRun(runId, database_, &observer, *cancel);
        Q_EMIT finished(session.runId, session.result);
    } catch (...) {
        Q_EMIT failed(describeError(std::current_exception()));
    }
}

void TrainingWorker::findLargestBatch(const bert::TrainingJob& job,
                                      const bert::ui::CancelToken& cancel) {
    try {
        Q_EMIT largestBatchFound(bert::findLargestBatch(job, *cancel));
    } catch (...) {
        Q_EMIT largestBatchFailed(describeError(std::current_exception()));
    }
}

}  // namespace bert::ui
