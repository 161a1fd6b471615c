#include "worker/TrainingWorker.h"

#include <cstdlib>
#include <unistd.h>

#include <QMetaType>

#include "Error.h"
#include "common/Guard.h"
#include "io/AtomicFile.h"
#include "runs/RunStore.h"
#include "worker/WorkerProcesses.h"

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

/// The job as a --config file for the command line, removed when it goes out of scope.
class ScratchJobFile {
public:
    explicit ScratchJobFile(const TrainingJob& job) {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "bert-studio-job-XXXXXX.json").string();
        const int fd = ::mkstemps(pattern.data(), 5);
        if (fd < 0) {
            throw StoreError(std::filesystem::temp_directory_path(),
                             "cannot write the job for the command line");
        }
        ::close(fd);
        path_ = pattern;
        writeFileAtomically(path_, job.toJson().dump(2) + "\n");
    }
    ScratchJobFile(const ScratchJobFile&) = delete;
    ScratchJobFile& operator=(const ScratchJobFile&) = delete;
    ~ScratchJobFile() {
        std::error_code ignored;
        std::filesystem::remove(path_, ignored);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// Forwards trainer callbacks as the worker's signals (emitted on the training thread).
class SignalObserver final : public TrainerObserver {
public:
    explicit SignalObserver(TrainingWorker& worker) : worker_(worker) {}
    void onStarted(const RunStart& s) override { Q_EMIT worker_.started(s); }
    void onStep(const StepMetrics& m) override { Q_EMIT worker_.stepDone(m); }
    void onEvaluation(const EvalMetrics& m) override { Q_EMIT worker_.evaluated(m); }
    void onEvaluationProgress(std::size_t done, std::size_t batches) override {
        Q_EMIT worker_.evaluationProgress(static_cast<int>(done), static_cast<int>(batches));
    }
    void onEpochEnd(const EpochSummary& s) override { Q_EMIT worker_.epochDone(s); }
    void onEvent(const TrainerEvent& e) override { Q_EMIT worker_.event(e); }

private:
    TrainingWorker& worker_;
};

}  // namespace

void TrainingWorker::runInProcesses(const std::vector<std::string>& arguments,
                                    std::optional<qint64> knownRunId, const CancelToken& cancel) {
    SignalObserver observer(*this);
    const auto launched = runCommandLine(
        arguments, database_, observer,
        [this, knownRunId](std::int64_t runId) {
            if (!knownRunId) {
                Q_EMIT runCreated(runId);
            }
        },
        *cancel);
    const auto runId = launched.runId.value_or(knownRunId.value_or(0));
    if (launched.result) {
        Q_EMIT finished(runId, *launched.result);
        return;
    }
    // No finished line: the launcher or a rank failed before or outside the run's own ending.
    const QString why = launched.errorMessage.empty()
                            ? tr("the command line exited with code %1").arg(launched.exitCode)
                            : QString::fromStdString(launched.errorMessage);
    if (runId == 0) {
        Q_EMIT failed(why);
        return;
    }
    RunResult result;
    result.status =
        launched.exitCode == exit_code::kCancelled ? RunStatus::Cancelled : RunStatus::Failed;
    result.error = why.toStdString();
    Q_EMIT finished(runId, result);
}

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
    if (job.training.processes > 1) {
        // Data parallel: the command line's launcher starts the ranks (WorkerProcesses.h).
        try {
            ScratchJobFile file(job);
            runInProcesses({"train", "--config", file.path().string()}, std::nullopt, cancel);
        } catch (...) {
            Q_EMIT failed(describeError(std::current_exception()));
        }
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
    Q_EMIT runCreated(runId);
    try {
        int processes = 1;
        {
            RunStore store(database_, RunStore::Access::ReadOnly);
            if (const auto run = store.run(runId)) {
                processes = run->config.value("world_size", 1);
            }
        }
        if (processes > 1) {
            runInProcesses({"resume", std::to_string(runId), "--nproc", std::to_string(processes)},
                           runId, cancel);
            return;
        }
    } catch (...) {
        Q_EMIT failed(describeError(std::current_exception()));
        return;
    }
    SignalObserver observer(*this);
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
