#include "training/TrainingPage.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTime>
#include <QVBoxLayout>

#include "common/Format.h"
#include "common/MetricsCharts.h"
#include "runs/RunStore.h"

namespace bert::ui {

TrainingPage::TrainingPage(QWidget* parent) : QWidget(parent) {
    startButton_ = new QPushButton(tr("&Start training"), this);
    startButton_->setToolTip(
        tr("Train with the dataset, model and techniques chosen (Ctrl+Return)"));
    cancelButton_ = new QPushButton(tr("&Cancel"), this);
    cancelButton_->setToolTip(
        tr("Stop after the current micro-batch; a checkpoint is saved so the run can resume"));
    resumeButton_ = new QPushButton(tr("&Resume"), this);
    resumeButton_->setToolTip(
        tr("Continue the last cancelled or interrupted run from its checkpoint"));
    connect(startButton_, &QPushButton::clicked, this, &TrainingPage::startRequested);
    connect(cancelButton_, &QPushButton::clicked, this, &TrainingPage::cancelRequested);
    connect(resumeButton_, &QPushButton::clicked, this,
            [this] { Q_EMIT resumeRequested(resumable_); });
    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(tr("idle"));
    statusLabel_ = new QLabel(this);
    statusLabel_->setWordWrap(true);
    planLabel_ = new QLabel(tr("Open a dataset to see what a run will train on."), this);
    planLabel_->setWordWrap(true);
    planWarnings_ = new QLabel(this);
    planWarnings_->setWordWrap(true);
    planWarnings_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    planWarnings_->hide();
    charts_ = new MetricsCharts(this);
    log_ = new QListWidget(this);
    log_->setMinimumHeight(80);
    enlargeLog_ = new QPushButton(tr("Enlarge &log"), this);
    enlargeLog_->setCheckable(true);
    enlargeLog_->setToolTip(
        tr("Give the whole page to the event log (the charts come back when "
           "it is pressed again); the bar above the log also drags."));
    connect(enlargeLog_, &QPushButton::toggled, this, [this](bool large) {
        charts_->setVisible(!large);
        enlargeLog_->setText(large ? tr("Show the &charts") : tr("Enlarge &log"));
    });

    auto* buttons = new QHBoxLayout();
    buttons->addWidget(startButton_);
    buttons->addWidget(cancelButton_);
    buttons->addWidget(resumeButton_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(enlargeLog_);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(charts_);
    splitter->addWidget(log_);
    splitter->setStretchFactor(0, 4);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(planLabel_);
    layout->addWidget(planWarnings_);
    layout->addLayout(buttons);
    layout->addWidget(statusLabel_);
    layout->addWidget(splitter, 1);
    setRunning(false);
    setResumable(0);
}

void TrainingPage::setRunning(bool running) {
    startButton_->setEnabled(!running);
    cancelButton_->setEnabled(running);
    resumeButton_->setEnabled(!running && resumable_ > 0);
}

void TrainingPage::prepareRun(qint64 resumedRun) {
    cancelling_ = false;
    resumingRun_ = resumedRun;
    if (resumedRun == 0) {
        charts_->clear();
        statusLabel_->clear();
    }
    totalSteps_ = 0;
    progress_->setRange(0, 0);  // busy: the preparation has no step count yet
    progress_->setFormat(resumedRun > 0
                             ? tr("resuming run %1: loading the checkpoint…").arg(resumedRun)
                             : tr("preparing: reading and tokenising the data…"));
    setRunning(true);
}

void TrainingPage::markCancelling() {
    cancelling_ = true;
}

void TrainingPage::setPlan(const QString& plan, const QString& warnings) {
    planLabel_->setText(plan);
    planWarnings_->setText(warnings);
    planWarnings_->setVisible(!warnings.isEmpty());
}

QString TrainingPage::planText() const {
    return planLabel_->text();
}

QString TrainingPage::planWarnings() const {
    return planWarnings_->text();
}

bool TrainingPage::logEnlarged() const {
    return enlargeLog_->isChecked();
}

void TrainingPage::setLogEnlarged(bool enlarged) {
    enlargeLog_->setChecked(enlarged);
}

QString TrainingPage::progressText() const {
    // A busy bar (the preparation) draws no text; its format is what it says.
    return progress_->maximum() == 0 ? progress_->format() : progress_->text();
}

void TrainingPage::setResumable(qint64 runId) {
    resumable_ = runId;
    resumeButton_->setEnabled(runId > 0 && startButton_->isEnabled());
}

QStringList TrainingPage::log() const {
    QStringList lines;
    for (int i = 0; i < log_->count(); ++i) {
        lines << log_->item(i)->text();
    }
    return lines;
}

QString TrainingPage::status() const {
    return statusLabel_->text();
}

void TrainingPage::appendLog(const QString& line, bool important) {
    auto* item = new QListWidgetItem(QTime::currentTime().toString("HH:mm:ss  ") + line, log_);
    if (important) {
        item->setForeground(QColor(0xc0, 0x39, 0x2b));
    }
    log_->scrollToBottom();
}

void TrainingPage::onRunCreated(qint64 runId) {
    const bool resumed = runId == resumingRun_;
    currentRun_ = runId;
    appendLog(resumed ? tr("run %1 resumed").arg(runId) : tr("run %1 created").arg(runId));
    progress_->setFormat(tr("preparing run %1: memory forecast and a trial step…").arg(runId));
}

void TrainingPage::onStarted(const RunStart& start) {
    charts_->clear();
    if (start.resumedFromStep > 0 && !database_.empty() && currentRun_ > 0) {
        // Continue the curves: the earlier steps and evaluations come from the store.
        try {
            RunStore store(database_, RunStore::Access::ReadOnly);
            charts_->loadRun(store, currentRun_);
        } catch (const std::exception& error) {
            appendLog(
                tr("the earlier steps could not be read: %1").arg(QString::fromUtf8(error.what())),
                true);
        }
        appendLog(tr("run %1 resumed at step %2").arg(currentRun_).arg(start.resumedFromStep));
    }
    charts_->setForecast(start.forecast.total());
    charts_->setMemoryCap(start.memoryCapBytes);
    totalSteps_ = start.totalSteps;
    firstStep_ = start.resumedFromStep;
    clock_.start();
    progress_->setRange(0, static_cast<int>(totalSteps_));
    progress_->setValue(static_cast<int>(firstStep_));
    progress_->setFormat(tr("%p% — starting"));
    statusLabel_->setText(
        tr("Training on %1: %2 examples, %3 for validation, %4 steps. Forecast peak %5%6.")
            .arg(QString::fromStdString(start.device))
            .arg(start.trainExamples)
            .arg(start.validationExamples)
            .arg(start.totalSteps)
            .arg(mib(start.forecast.total()))
            .arg(start.trialPeakBytes > 0 ? tr(", trial step %1").arg(mib(start.trialPeakBytes))
                                          : QString()));
    appendLog(statusLabel_->text());
}

void TrainingPage::onStep(const StepMetrics& m) {
    charts_->addStep(m);
    const double elapsed = static_cast<double>(clock_.elapsed()) / 1000.0;
    const double done = static_cast<double>(m.step - firstStep_);
    const double eta = done > 0 ? elapsed / done * static_cast<double>(totalSteps_ - m.step) : 0.0;
    progress_->setValue(static_cast<int>(m.step));
    progress_->setFormat(tr("%p% — step %1/%2 — loss %3 — ETA %4")
                             .arg(m.step)
                             .arg(totalSteps_)
                             .arg(m.loss, 0, 'f', 4)
                             .arg(duration(eta)));
}

void TrainingPage::onEvaluation(const EvalMetrics& m) {
    charts_->addEvaluation(m);
    appendLog(tr("evaluation at step %1: loss %2, accuracy %3, macro-F1 %4")
                  .arg(m.step)
                  .arg(m.loss, 0, 'f', 4)
                  .arg(m.accuracy, 0, 'f', 4)
                  .arg(m.macroF1, 0, 'f', 4));
}

void TrainingPage::onEvent(const TrainerEvent& event) {
    const bool important = event.kind == EventKind::OomRecovered ||
                           event.kind == EventKind::EvalOomRecovered ||
                           event.kind == EventKind::StepSkipped || event.kind == EventKind::Error;
    appendLog(QString::fromStdString(event.message), important);
}

void TrainingPage::onFinished(qint64 runId, const RunResult& result) {
    setRunning(false);
    QString text;
    switch (result.status) {
        case RunStatus::Completed:
            text = tr("Run %1 completed: accuracy %2, peak memory %3, %4.")
                       .arg(runId)
                       .arg(result.finalEval.accuracy, 0, 'f', 4)
                       .arg(mib(result.peakMemoryBytes), duration(result.seconds));
            setResumable(0);
            break;
        case RunStatus::Cancelled:
            text = tr("Run %1 cancelled after %2 steps; it can resume from its checkpoint.")
                       .arg(runId)
                       .arg(result.steps);
            setResumable(runId);
            break;
        default:
            text = tr("Run %1 failed: %2").arg(runId).arg(QString::fromStdString(result.error));
            setResumable(0);
            break;
    }
    progress_->setRange(0, std::max(1, static_cast<int>(totalSteps_)));
    progress_->setFormat(result.status == RunStatus::Completed   ? tr("done")
                         : result.status == RunStatus::Cancelled ? tr("cancelled")
                                                                 : tr("failed"));
    cancelling_ = false;
    statusLabel_->setText(text);
    appendLog(text, result.status == RunStatus::Failed);
}

void TrainingPage::onFailed(const QString& message) {
    setRunning(false);
    progress_->setRange(0, 1);
    if (cancelling_) {
        progress_->setFormat(tr("cancelled"));
        statusLabel_->setText(tr("Cancelled before training started; no run was created."));
        appendLog(statusLabel_->text());
    } else {
        progress_->setFormat(tr("not started"));
        statusLabel_->setText(tr("Training could not start: %1").arg(message));
        appendLog(statusLabel_->text(), true);
    }
    cancelling_ = false;
}

}  // namespace bert::ui
