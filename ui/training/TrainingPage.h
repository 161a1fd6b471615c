#pragma once

#include <filesystem>
#include <functional>
#include <optional>

#include <QElapsedTimer>
#include <QWidget>

#include "train/TrainerEvents.h"
#include "train/TrainingConfig.h"
#include "training/RunClock.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSplitter;
QT_END_NAMESPACE

namespace bert::ui {

class MetricsCharts;

/// Training tab: what Start will train on (one line, with warnings about the columns and the
/// unknown tokens); start, cancel and resume; a progress bar that shows the preparation
/// (tokenising, forecast, trial step), then the steps and each evaluation's batches, with an
/// ETA that counts the evaluations still to come (RunClock); the threads the run uses, and a
/// warning when the process gets much less processor time than they ask for (other programs);
/// live charts, which a resumed run continues from the steps in the store; an event log in the
/// interface's language (EngineText). The split between charts and log is remembered. It only
/// displays: MainWindow connects the worker's queued signals to its slots. GUI thread only.
class TrainingPage : public QWidget {
    Q_OBJECT

public:
    explicit TrainingPage(QWidget* parent = nullptr);

    void setRunning(bool running);
    void setResumable(qint64 runId);
    /// The run database, from which a resumed run's earlier steps are drawn.
    void setDatabase(std::filesystem::path database) { database_ = std::move(database); }
    /// Called when a run is requested: clears the previous run's charts and status (a new run)
    /// or keeps the log (a resume), and shows the preparation phase. config: the run's settings,
    /// for the ETA's evaluations and the threads (none: unknown).
    void prepareRun(qint64 resumedRun = 0, std::optional<TrainingConfig> config = std::nullopt);
    /// The run being trained or resumed (0 before the first).
    qint64 currentRun() const { return currentRun_; }
    /// The run Resume continues (0: none).
    qint64 resumableRun() const { return resumable_; }
    /// The warning about processor time shown now (empty: none).
    QString cpuText() const;
    /// Where the processor times come from (tests give their own; processCpuTimes otherwise).
    void setCpuClock(std::function<CpuTimes()> clock) { cpuClock_ = std::move(clock); }
    /// Processor time is judged over windows of at least this many seconds of the clock.
    static constexpr double kCpuWindowSeconds = 3.0;
    /// The user asked to cancel: a run that then ends is reported as cancelled.
    void markCancelling();
    /// The line above Start: "Label column ... classes ...; text column ...; N for training, M
    /// for validation", and the warnings about the chosen columns (empty: none).
    void setPlan(const QString& plan, const QString& warnings);
    QString planText() const;
    QString planWarnings() const;
    QString progressText() const;
    /// Whether the event log has the page to itself ("Enlarge log").
    bool logEnlarged() const;
    void setLogEnlarged(bool enlarged);
    MetricsCharts* charts() const { return charts_; }
    QStringList log() const;
    QString status() const;

public Q_SLOTS:
    void onRunCreated(qint64 runId);
    void onStarted(const bert::RunStart& start);
    void onStep(const bert::StepMetrics& metrics);
    void onEvaluation(const bert::EvalMetrics& metrics);
    void onEvaluationProgress(int done, int batches);
    void onEvent(const bert::TrainerEvent& event);
    void onFinished(qint64 runId, const bert::RunResult& result);
    void onFailed(const QString& message);

Q_SIGNALS:
    void startRequested();
    void cancelRequested();
    void resumeRequested(qint64 runId);
    /// A run began (true) or ended (false): what Cancel can act on.
    void runningChanged(bool running);
    /// What Resume would continue changed (0: nothing).
    void resumableChanged(qint64 runId);
    /// The processor-time warning changed (empty: it ended).
    void cpuContention(const QString& text);

private:
    void appendLog(const QString& line, bool important = false);
    void showProgress();
    void checkCpuShare();
    void clearCpuWarning();
    double now() const;

    QPushButton* startButton_;
    QPushButton* cancelButton_;
    QPushButton* resumeButton_;
    QProgressBar* progress_;
    QLabel* statusLabel_;
    QLabel* cpuLabel_;
    QLabel* planLabel_;
    QLabel* planWarnings_;
    std::filesystem::path database_;
    bool cancelling_ = false;
    qint64 resumingRun_ = 0;  ///< the run prepareRun was asked to resume (0: a new run)
    MetricsCharts* charts_;
    QListWidget* log_;
    QSplitter* splitter_;
    QPushButton* enlargeLog_;
    QElapsedTimer clock_;
    std::size_t totalSteps_ = 0;
    std::size_t firstStep_ = 0;
    std::size_t step_ = 0;
    double lastLoss_ = 0.0;
    std::optional<TrainingConfig> config_;  ///< of the run in progress, when known
    RunClock runClock_;
    int evaluationDone_ = 0;
    int evaluationBatches_ = 0;
    bool evaluating_ = false;
    std::function<CpuTimes()> cpuClock_ = processCpuTimes;
    std::optional<CpuTimes> cpuWindow_;  ///< the start of the window being measured
    int threads_ = 0;                    ///< the run's threads in this process (0: unknown)
    bool cpuStarved_ = false;
    qint64 resumable_ = 0;
    qint64 currentRun_ = 0;
};

}  // namespace bert::ui
