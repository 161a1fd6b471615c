#include "training/TrainingPage.h"

#include <algorithm>

#include <ATen/Parallel.h>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTime>
#include <QVBoxLayout>

#include "common/EngineText.h"
#include "common/Format.h"
#include "common/MetricsCharts.h"
#include "common/Names.h"
#include "runs/RunStore.h"
#include "task/Calibration.h"

namespace bert::ui {

namespace {
/// The task's headline figure of an evaluation: accuracy for single-label.
double headlineOf(const EvalMetrics& eval) {
    if (!eval.task.is_object()) {
        return eval.accuracy;
    }
    const auto figures = eval.task.value("figures", nlohmann::json::object());
    const auto found = figures.find(eval.task.value("main", std::string()));
    return found != figures.end() && found->is_number() ? found->get<double>() : std::nan("");
}
}  // namespace

namespace {
const char* kSplitterKey = "training/splitter";
// Below this share of the processor time the threads ask for, the run is starved (another
// program computes too); the warning ends above the second, so it does not flicker.
constexpr double kStarvedShare = 0.5;
constexpr double kFedShare = 0.7;
}  // namespace

TrainingPage::TrainingPage(QWidget* parent) : QWidget(parent) {
    startButton_ = new QPushButton(tr("&Start training"), this);
    startButton_->setObjectName(QStringLiteral("startTraining"));
    startButton_->setToolTip(
        tr("Train with the dataset, model and techniques chosen (Ctrl+Return)"));
    cancelButton_ = new QPushButton(tr("&Cancel"), this);
    cancelButton_->setObjectName(QStringLiteral("cancelTraining"));
    cancelButton_->setToolTip(
        tr("Stop after the current micro-batch; a checkpoint is saved so the run can resume"));
    resumeButton_ = new QPushButton(tr("&Resume"), this);
    resumeButton_->setObjectName(QStringLiteral("resumeTraining"));
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
    cpuLabel_ = new QLabel(this);
    cpuLabel_->setWordWrap(true);
    cpuLabel_->setObjectName(QStringLiteral("cpuShare"));
    cpuLabel_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    cpuLabel_->hide();
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
    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->setObjectName(QStringLiteral("chartsAndLog"));
    splitter_->addWidget(charts_);
    splitter_->addWidget(log_);
    splitter_->setStretchFactor(0, 4);
    splitter_->setStretchFactor(1, 1);
    // Where the user put the bar between charts and log is kept for the next start.
    splitter_->restoreState(QSettings().value(QString::fromLatin1(kSplitterKey)).toByteArray());
    connect(splitter_, &QSplitter::splitterMoved, this, [this] {
        QSettings().setValue(QString::fromLatin1(kSplitterKey), splitter_->saveState());
    });
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(planLabel_);
    layout->addWidget(planWarnings_);
    layout->addLayout(buttons);
    layout->addWidget(statusLabel_);
    layout->addWidget(cpuLabel_);
    layout->addWidget(splitter_, 1);
    setRunning(false);
    setResumable(0);
}

void TrainingPage::setRunning(bool running) {
    startButton_->setEnabled(!running);
    cancelButton_->setEnabled(running);
    resumeButton_->setEnabled(!running && resumable_ > 0);
    Q_EMIT resumableChanged(resumeButton_->isEnabled() ? resumable_ : 0);
    Q_EMIT runningChanged(running);
}

void TrainingPage::prepareRun(qint64 resumedRun, std::optional<TrainingConfig> config) {
    cancelling_ = false;
    resumingRun_ = resumedRun;
    config_ = std::move(config);
    evaluating_ = false;
    cpuWindow_.reset();
    threads_ = 0;
    clearCpuWarning();
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
    Q_EMIT resumableChanged(resumeButton_->isEnabled() ? runId : 0);
}

QString TrainingPage::cpuText() const {
    return cpuLabel_->text();
}

double TrainingPage::now() const {
    return static_cast<double>(clock_.elapsed()) / 1000.0;
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
    step_ = firstStep_;
    clock_.start();
    runClock_.start(config_.value_or(TrainingConfig()), start.trainExamples,
                    start.validationExamples, firstStep_, totalSteps_, now());
    progress_->setRange(0, static_cast<int>(totalSteps_));
    progress_->setValue(static_cast<int>(firstStep_));
    progress_->setFormat(tr("%p% — starting"));
    // The threads it computes with; a data-parallel run's processes each use the configured
    // count.
    const int processes = config_ ? std::max(1, config_->processes) : 1;
    QString threads;
    if (processes > 1) {
        threads = config_->threads > 0
                      ? tr("%1 processes × %2 threads").arg(processes).arg(config_->threads)
                      : tr("%1 processes").arg(processes);
    } else {
        // The configured count, else LibTorch's default (read here: OpenMP keeps the count the
        // trainer sets per thread, so another thread's reading would not see it).
        threads_ = config_ && config_->threads > 0 ? config_->threads : at::get_num_threads();
        threads = threads_ == 1 ? tr("1 thread") : tr("%1 threads").arg(threads_);
    }
    statusLabel_->setText(
        tr("Training on %1 with %2: %3 examples, %4 for validation, %5 steps. Forecast peak "
           "%6%7.")
            .arg(QString::fromStdString(start.device), threads)
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
    step_ = m.step;
    lastLoss_ = m.loss;
    runClock_.stepDone(m.step, now());
    progress_->setValue(static_cast<int>(m.step));
    showProgress();
    checkCpuShare();
}

void TrainingPage::onEvaluationProgress(int done, int batches) {
    evaluating_ = true;
    evaluationDone_ = done;
    evaluationBatches_ = batches;
    runClock_.evaluationProgress(static_cast<std::size_t>(std::max(0, done)),
                                 static_cast<std::size_t>(std::max(0, batches)), now());
    showProgress();
}

void TrainingPage::showProgress() {
    const double left = runClock_.remaining(now());
    const QString eta = left < 0.0 ? tr("ETA —") : tr("ETA %1").arg(duration(left));
    if (evaluating_) {
        progress_->setFormat(tr("%p% — step %1/%2 — evaluating: batch %3 of %4 — %5")
                                 .arg(step_)
                                 .arg(totalSteps_)
                                 .arg(evaluationDone_)
                                 .arg(evaluationBatches_)
                                 .arg(eta));
        return;
    }
    progress_->setFormat(tr("%p% — step %1/%2 — loss %3 — %4")
                             .arg(step_)
                             .arg(totalSteps_)
                             .arg(lastLoss_, 0, 'f', 4)
                             .arg(eta));
}

void TrainingPage::checkCpuShare() {
    if (threads_ <= 0 || !cpuClock_) {
        return;  // another process's threads (data parallel) are not measured here
    }
    const CpuTimes times = cpuClock_();
    if (!cpuWindow_) {
        cpuWindow_ = times;
        return;
    }
    const double wall = times.wall - cpuWindow_->wall;
    if (wall < kCpuWindowSeconds) {
        return;
    }
    const double cores = (times.cpu - cpuWindow_->cpu) / wall;
    const double share = cores / static_cast<double>(threads_);
    cpuWindow_ = times;
    if (share < kStarvedShare || (cpuStarved_ && share < kFedShare)) {
        cpuStarved_ = true;
        cpuLabel_->setText(
            tr("The run gets %1 of the %2 cores it asked for: other programs are using the "
               "processor, so it runs slower. Close them, or lower Threads.")
                .arg(cores, 0, 'f', 1)
                .arg(threads_));
        cpuLabel_->show();
        Q_EMIT cpuContention(cpuLabel_->text());
    } else {
        clearCpuWarning();
    }
}

void TrainingPage::clearCpuWarning() {
    if (cpuStarved_) {
        cpuStarved_ = false;
        cpuLabel_->hide();
        cpuLabel_->clear();
        Q_EMIT cpuContention(QString());
    }
}

void TrainingPage::onEvaluation(const EvalMetrics& m) {
    charts_->addEvaluation(m);
    if (evaluating_) {
        runClock_.evaluationDone(now());
        evaluating_ = false;
        showProgress();
    }
    if (m.task.is_object()) {
        const auto main = m.task.value("main", std::string());
        appendLog(tr("evaluation at step %1: loss %2, %3 %4")
                      .arg(m.step)
                      .arg(m.loss, 0, 'f', 4)
                      .arg(Names::figure(main))
                      .arg(headlineOf(m), 0, 'f', 4));
        return;
    }
    // Whether its probabilities mean what they say (task/Calibration.h).
    const auto calibration = CalibrationReport::fromJson(m.calibration);
    appendLog(tr("evaluation at step %1: loss %2, accuracy %3, macro-F1 %4")
                  .arg(m.step)
                  .arg(m.loss, 0, 'f', 4)
                  .arg(m.accuracy, 0, 'f', 4)
                  .arg(m.macroF1, 0, 'f', 4) +
              (calibration ? tr(", ECE %1").arg(calibration->before.ece, 0, 'f', 4) : QString()));
}

void TrainingPage::onEvent(const TrainerEvent& event) {
    const bool important = event.kind == EventKind::OomRecovered ||
                           event.kind == EventKind::EvalOomRecovered ||
                           event.kind == EventKind::StepSkipped || event.kind == EventKind::Error;
    appendLog(EngineText::translate(event.message), important);
}

void TrainingPage::onFinished(qint64 runId, const RunResult& result) {
    setRunning(false);
    evaluating_ = false;
    threads_ = 0;
    clearCpuWarning();
    QString text;
    switch (result.status) {
        case RunStatus::Completed:
            text = tr("Run %1 completed: %2 %3, peak memory %4, %5.")
                       .arg(runId)
                       .arg(result.finalEval.task.is_object()
                                ? Names::figure(result.finalEval.task.value("main", std::string()))
                                : tr("accuracy"))
                       .arg(headlineOf(result.finalEval), 0, 'f', 4)
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
            text = tr("Run %1 failed: %2").arg(runId).arg(EngineText::translate(result.error));
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
    evaluating_ = false;
    threads_ = 0;
    clearCpuWarning();
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
