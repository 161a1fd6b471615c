#pragma once

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

/// Training tab: start, cancel and resume; a progress bar with ETA; live charts; an event log
/// (out-of-memory recovered, steps skipped, checkpoints). It only displays: MainWindow connects
/// the worker's queued signals to its slots. GUI thread only.
class TrainingPage : public QWidget {
    Q_OBJECT

public:
    explicit TrainingPage(QWidget* parent = nullptr);

    void setRunning(bool running);
    void setResumable(qint64 runId);
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
    MetricsCharts* charts_;
    QListWidget* log_;
    QElapsedTimer clock_;
    std::size_t totalSteps_ = 0;
    std::size_t firstStep_ = 0;
    qint64 resumable_ = 0;
    qint64 currentRun_ = 0;
};

}  // namespace bert::ui
