#pragma once

#include <filesystem>

#include <QElapsedTimer>
#include <QWidget>

#include "train/TrainerEvents.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
QT_END_NAMESPACE

namespace bert::ui {

class MetricsCharts;

/// Training tab: what Start will train on (one line, with warnings about the columns); start,
/// cancel and resume; a progress bar that shows the preparation (tokenising, forecast, trial
/// step) and then the steps with an ETA; live charts, which a resumed run continues from the
/// steps in the store; an event log (out-of-memory recovered, steps skipped, checkpoints). It
/// only displays: MainWindow connects the worker's queued signals to its slots. GUI thread only.
class TrainingPage : public QWidget {
    Q_OBJECT

public:
    explicit TrainingPage(QWidget* parent = nullptr);

    void setRunning(bool running);
    void setResumable(qint64 runId);
    /// The run database, from which a resumed run's earlier steps are drawn.
    void setDatabase(std::filesystem::path database) { database_ = std::move(database); }
    /// Called when a run is requested: clears the previous run's charts and status (a new run)
    /// or keeps the log (a resume), and shows the preparation phase.
    void prepareRun(qint64 resumedRun = 0);
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
    void onEvent(const bert::TrainerEvent& event);
    void onFinished(qint64 runId, const bert::RunResult& result);
    void onFailed(const QString& message);

Q_SIGNALS:
    void startRequested();
    void cancelRequested();
    void resumeRequested(qint64 runId);

private:
    void appendLog(const QString& line, bool important = false);

    QPushButton* startButton_;
    QPushButton* cancelButton_;
    QPushButton* resumeButton_;
    QProgressBar* progress_;
    QLabel* statusLabel_;
    QLabel* planLabel_;
    QLabel* planWarnings_;
    std::filesystem::path database_;
    bool cancelling_ = false;
    qint64 resumingRun_ = 0;  ///< the run prepareRun was asked to resume (0: a new run)
    MetricsCharts* charts_;
    QListWidget* log_;
    QPushButton* enlargeLog_;
    QElapsedTimer clock_;
    std::size_t totalSteps_ = 0;
    std::size_t firstStep_ = 0;
    qint64 resumable_ = 0;
    qint64 currentRun_ = 0;
};

}  // namespace bert::ui
