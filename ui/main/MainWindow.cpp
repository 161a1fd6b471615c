#include "main/MainWindow.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include "Error.h"
#include "common/Format.h"
#include "common/Guard.h"
#include "common/Language.h"
#include "common/Names.h"
#include "data/TrainingPlan.h"
#include "data/UnknownTokens.h"
#include "dataset/DatasetPage.h"
#include "hf/ModelCache.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "task/TaskView.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"
#include "tryit/TryItPage.h"
#include "worker/TrainingWorker.h"

namespace bert::ui {

namespace {
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 860;
}  // namespace

MainWindow::MainWindow(std::filesystem::path database, QWidget* parent)
    : QMainWindow(parent), database_(std::move(database)) {
    setWindowTitle(tr("BERT Studio"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/bert-studio.svg")));
    // The one read-write open of a session that is not a run: create or migrate the database
    // and mark runs whose process died. The pages read it read-only from here on.
    guarded(this, tr("Run database"), [this] { RunStore store(database_); });
    tabs_ = new QTabWidget(this);
    dataset_ = new DatasetPage(this);
    techniques_ = new TechniquesPage(this);
    training_ = new TrainingPage(this);
    training_->setDatabase(database_);
    runs_ = new RunsPage(database_, this);
    tryIt_ = new TryItPage(database_, this);
    tabs_->addTab(dataset_, tr("&1 Dataset"));
    tabs_->addTab(techniques_, tr("&2 Model && techniques"));
    tabs_->addTab(training_, tr("&3 Training"));
    tabs_->addTab(runs_, tr("&4 Runs"));
    tabs_->addTab(tryIt_, tr("&5 Try it"));
    setCentralWidget(tabs_);

    // The dataset's lengths feed the forecast; the techniques feed the padding estimates.
    auto syncDataset = [this] {
        const auto config = techniques_->config();
        dataset_->setBatching(config.maxLength, config.batchSize, config.longTextSpec());
        techniques_->setExampleLengths(dataset_->exampleLengths());
    };
    connect(techniques_, &TechniquesPage::modelChanged, this, [this, syncDataset] {
        QSettings settings;
        settings.setValue(QStringLiteral("model/last"),
                          QString::fromStdString(techniques_->modelFolder().string()));
        settings.setValue(QStringLiteral("model/preset"),
                          QString::fromStdString(techniques_->preset()));
        dataset_->setTokenizer(techniques_->tokenizer());
        syncDataset();
        updatePlan();
    });
    // The form remembers its last values (and the model) for the next start.
    {
        QSettings settings;
        const auto model = settings.value(QStringLiteral("model/last")).toString();
        if (!model.isEmpty() && QFileInfo::exists(model)) {
            techniques_->setModel(model, settings.value(QStringLiteral("model/preset")).toString());
        }
        const auto last = settings.value(QStringLiteral("training/last")).toString().toStdString();
        if (!last.empty()) {
            try {
                techniques_->setConfig(TrainingConfig::fromJson(nlohmann::json::parse(last)));
            } catch (const std::exception&) {
                // Settings of another version: the defaults stand.
            }
        }
    }
    connect(techniques_, &TechniquesPage::configChanged, this, [this] {
        const auto config = techniques_->config();
        dataset_->setBatching(config.maxLength, config.batchSize, config.longTextSpec());
        dataset_->setRareShare(config.rareLabelShare / 100.0);
        QSettings().setValue(QStringLiteral("training/last"),
                             QString::fromStdString(config.toJson().dump()));
        updatePlan();
        forgetSettingsMessage();
    });
    connect(techniques_, &TechniquesPage::adviceApplied, this, [this](const QString& change) {
        showSettingsMessage(change.isEmpty()
                                ? tr("The suggested change was undone.")
                                : tr("Applied: %1. “Undo the change” restores the settings "
                                     "before it.")
                                      .arg(change));
    });
    connect(dataset_, &DatasetPage::datasetChanged, this, [this] {
        techniques_->setExampleLengths(dataset_->exampleLengths());
        QSettings().setValue(QStringLiteral("dataset/last"), dataset_->currentFile());
        updatePlan();
        forgetSettingsMessage();
    });
    dataset_->setTokenizer(techniques_->tokenizer());

    // The worker lives on its own thread; its signals arrive here queued.
    registerMetaTypes();
    worker_ = new TrainingWorker(database_);
    worker_->moveToThread(&workerThread_);
    connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    workerThread_.setObjectName(QStringLiteral("training"));
    workerThread_.start();
    connect(worker_, &TrainingWorker::runCreated, training_, &TrainingPage::onRunCreated);
    connect(worker_, &TrainingWorker::runCreated, this, &MainWindow::onRunCreated);
    connect(worker_, &TrainingWorker::started, training_, &TrainingPage::onStarted);
    connect(worker_, &TrainingWorker::started, this, &MainWindow::onRunStarted);
    connect(worker_, &TrainingWorker::stepDone, training_, &TrainingPage::onStep);
    connect(worker_, &TrainingWorker::evaluated, training_, &TrainingPage::onEvaluation);
    connect(worker_, &TrainingWorker::evaluationProgress, training_,
            &TrainingPage::onEvaluationProgress);
    connect(worker_, &TrainingWorker::event, training_, &TrainingPage::onEvent);
    connect(worker_, &TrainingWorker::finished, training_, &TrainingPage::onFinished);
    connect(worker_, &TrainingWorker::failed, training_, &TrainingPage::onFailed);
    connect(worker_, &TrainingWorker::finished, this, [this](qint64 runId) { onFinished(runId); });
    connect(worker_, &TrainingWorker::failed, this, [this](const QString& message) {
        training_active_ = false;
        if (closeAfterRun_) {
            close();  // cancelled by closing before the run started
            return;
        }
        showNotice(this, tr("Training could not start"), message, /*warning=*/true);
        settingsMessage_ = statusBar()->currentMessage();  // true until the settings change
    });
    connect(techniques_, &TechniquesPage::largestBatchRequested, this,
            &MainWindow::findLargestBatch);
    connect(worker_, &TrainingWorker::largestBatchFound, this, &MainWindow::onLargestBatchFound);
    connect(worker_, &TrainingWorker::largestBatchFailed, this, [this](const QString& message) {
        batchSearchActive_ = false;
        techniques_->setLargestBatchSearching(false);
        if (closeAfterRun_) {
            close();
            return;
        }
        showNotice(this, tr("Largest batch that fits"), message);
        settingsMessage_ = statusBar()->currentMessage();
    });
    connect(training_, &TrainingPage::startRequested, this, &MainWindow::startTraining);
    connect(training_, &TrainingPage::cancelRequested, this, &MainWindow::cancelTraining);
    connect(training_, &TrainingPage::resumeRequested, this, &MainWindow::resumeRun);
    // The warning names its run, as every run's status line does ("Run 2 is training." before
    // it); once it goes, that line comes back, and after the run it leaves the run's outcome.
    connect(training_, &TrainingPage::cpuContention, this, [this](const QString& warning) {
        if (!warning.isEmpty()) {
            statusBar()->showMessage(tr("Run %1: %2").arg(training_->currentRun()).arg(warning));
        } else if (training_active_) {
            statusBar()->showMessage(tr("Run %1 is training.").arg(training_->currentRun()));
        }
    });
    connect(runs_, &RunsPage::runsChanged, tryIt_, &TryItPage::refreshRuns);
    // "Train again": the run's dataset, model and settings into the form.
    connect(runs_, &RunsPage::trainAgainRequested, this, &MainWindow::trainAgain);
    // An example double-clicked in a run's Examples opens in Try it with the run's model.
    connect(runs_, &RunsPage::tryRequested, this,
            [this](qint64 runId, const QString& text, const QString& pair) {
                tabs_->setCurrentWidget(tryIt_);
                tryIt_->tryExample(runId, text, pair);
            });

    createMenus();
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateShortcuts);
    statusBar()->showMessage(
        tr("Runs are stored in %1").arg(QString::fromStdString(database_.string())));
    QSettings settings;
    // The size and place the window had when it was closed; the default size the first time.
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        resize(kDefaultWidth, kDefaultHeight);
    }
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    tabs_->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    if (settings.value(QStringLiteral("view/dark"), false).toBool()) {
        setDarkPalette(true, false);
    }
}

void MainWindow::openDatasetAtStart(const QString& file) {
    // A large file took 22 s to reopen, with a black window meanwhile: now the window comes
    // first, and the file is read off the GUI thread.
    QTimer::singleShot(0, this, [this, file] { dataset_->openInBackground(file); });
}

MainWindow::~MainWindow() {
    if (cancel_) {
        cancel_->store(true);
    }
    workerThread_.quit();
    workerThread_.wait();
}

void MainWindow::showSettingsMessage(const QString& text) {
    statusBar()->showMessage(text);
    settingsMessage_ = text;
}

void MainWindow::forgetSettingsMessage() {
    // What the status bar said about the earlier data or settings is no longer true.
    if (!settingsMessage_.isEmpty() && statusBar()->currentMessage() == settingsMessage_) {
        statusBar()->clearMessage();
    }
    settingsMessage_.clear();
}

void MainWindow::updatePlan() {
    if (!dataset_->hasData()) {
        training_->setPlan(tr("Open a dataset to see what a run will train on."), {});
        return;
    }
    QStringList warnings;
    QString line;
    if (taskView(dataset_->task()).hasClasses()) {
        line = singleLabelPlan(warnings);
    } else {
        // The class checks are single-label's; the other tasks are split at random (the size
        // of the held-out part as in randomValidationRows). A tagged file's examples are its
        // sentences, whose lengths the dataset page measured.
        const auto* examples = dataset_->examples();
        const auto count =
            examples != nullptr ? examples->examples.size() : dataset_->exampleLengths().size();
        const auto validation = stratifiedValidationCount(count, dataset_->validationFraction());
        line = tr("Task: %1. %2 examples for training, %3 for validation.")
                   .arg(Names::task(dataset_->task()))
                   .arg(count - validation)
                   .arg(validation);
    }
    // Whether the model can read the text at all (issue 27: 70% of a Chinese review set was
    // [UNK] for the English default model, and nothing said so), for every task.
    const auto& unknown = dataset_->unknownTokens();
    if (unknown.tokens > 0) {
        line +=
            QLatin1Char(' ') + tr("Unknown tokens: %1%.").arg(100.0 * unknown.share(), 0, 'f', 1);
        if (unknown.warns()) {
            warnings << dataset_->unknownTokenText();
        }
    }
    training_->setPlan(line, warnings.join(QLatin1Char('\n')));
}

QString MainWindow::singleLabelPlan(QStringList& warnings) const {
    const auto job = currentJob();
    const auto* examples = dataset_->examples();
    const auto plan = planTraining(*examples, job.data.columns, job.training.validationFraction,
                                   techniques_->modelLabels());
    QStringList classes;
    for (const auto& [name, count] : plan.classes) {
        classes << tr("%1 (%2)").arg(QString::fromStdString(name)).arg(count);
    }
    QStringList texts;
    for (const auto& column : plan.textColumns) {
        texts << QString::fromStdString(column);
    }
    constexpr int kClassesShown = 8;  // a mis-chosen column may have thousands of values
    if (classes.size() > kClassesShown) {
        const auto more = classes.size() - kClassesShown;
        classes = classes.mid(0, kClassesShown);
        classes << tr("and %n more", nullptr, static_cast<int>(more));
    }
    const auto line =
        tr("Label column “%1”: %n classes, %2. Text: %3. %4 examples for training, %5 for "
           "validation.",
           nullptr, static_cast<int>(plan.classes.size()))
            .arg(QString::fromStdString(plan.labelColumn), classes.join(QStringLiteral(", ")),
                 texts.join(QStringLiteral(" + ")))
            .arg(plan.trainExamples)
            .arg(plan.validationExamples);
    for (const auto& warning : plan.warnings) {
        switch (warning.kind) {
            case PlanWarning::Kind::OneClass:
                warnings << tr(
                    "The label column has a single value: there is nothing to learn. "
                    "Choose another label column.");
                break;
            case PlanWarning::Kind::LabelIsText:
                warnings << tr(
                    "The label column is also a text column: the model would read "
                    "the answer. Choose different columns.");
                break;
            case PlanWarning::Kind::LabelLooksUnique:
                warnings << tr("The label column has %1 different values in %2 rows: is it an id "
                               "or a text column? Choose the column that holds the classes.")
                                .arg(warning.count)
                                .arg(warning.rows);
                break;
            case PlanWarning::Kind::HeadHasOtherLabels: {
                QStringList names;
                for (const auto& name : warning.modelLabels) {
                    names << QString::fromStdString(name);
                }
                warnings << tr("The model's head was trained for %1 labels (%2); this column has "
                               "%3 values, so the head will be made anew. Is this the right "
                               "label column?")
                                .arg(warning.modelLabels.size())
                                .arg(names.join(QStringLiteral(", ")))
                                .arg(warning.count);
                break;
            }
        }
    }
    return line;
}

bool MainWindow::applyJob(const TrainingJob& job) {
    techniques_->setModel(QString::fromStdString(job.modelFolder.string()),
                          QString::fromStdString(job.preset));
    const bool dataOpened = job.data.trainFile.empty() ||
                            dataset_->setDataSpec(job.data, job.training.validationFraction);
    techniques_->setConfig(job.training);
    tabs_->setCurrentWidget(dataOpened ? static_cast<QWidget*>(techniques_) : dataset_);
    return dataOpened;
}

void MainWindow::trainAgain(qint64 runId) {
    guarded(this, tr("Train again"), [&] {
        RunStore store(database_, RunStore::Access::ReadOnly);
        const auto run = store.run(runId);
        if (!run) {
            throw InputError(database_, "has no run " + std::to_string(runId));
        }
        if (applyJob(jobOfRun(*run))) {
            statusBar()->showMessage(
                tr("Run %1's dataset, model and settings are in the form: change what you want "
                   "to compare, then Start.")
                    .arg(runId));
        }
    });
}

bool MainWindow::saveJobFile(const QString& file) {
    return guarded(this, tr("Save job"), [&] {
        writeFileAtomically(file.toStdString(), currentJob().toJson().dump(2) + "\n");
        statusBar()->showMessage(
            tr("Saved to %1; bert-studio-cli train --config reads it too.").arg(file));
    });
}

bool MainWindow::openJobFile(const QString& file) {
    return guarded(this, tr("Open job"), [&] {
        const std::filesystem::path path = file.toStdString();
        std::string problem;
        const auto json = parseJson(readInputFile(path, input_limits::kSmallJson), problem);
        if (!problem.empty()) {
            throw InputError(path, problem);
        }
        if (!json.is_object() || !json.contains("data") || !json.contains("training")) {
            throw InputError(path,
                             "is not a job file (a JSON object with \"data\" and \"training\")");
        }
        TrainingJob job;
        try {
            job = TrainingJob::fromJson(json);
        } catch (const InputError& error) {
            throw InputError(path, error.problem());
        }
        if (job.modelFolder.empty()) {
            job.modelFolder = techniques_->modelFolder();
        }
        applyJob(job);
    });
}

TrainingJob MainWindow::currentJob() const {
    TrainingJob job;
    job.modelFolder = techniques_->modelFolder();
    job.preset = techniques_->preset();
    job.data = dataset_->dataSpec();
    job.training = techniques_->config();
    job.training.validationFraction = dataset_->validationFraction();
    return job;
}

bool MainWindow::readyToTrain(const QString& action) {
    if (!dataset_->hasData()) {
        tabs_->setCurrentWidget(dataset_);
        showNotice(
            this, action,
            dataset_->errorText().isEmpty() ? tr("Open a dataset first.") : dataset_->errorText());
        settingsMessage_ = statusBar()->currentMessage();
        return false;
    }
    if (!techniques_->modelError().isEmpty()) {
        tabs_->setCurrentWidget(techniques_);
        showNotice(this, action, techniques_->modelError());
        settingsMessage_ = statusBar()->currentMessage();
        return false;
    }
    return true;
}

void MainWindow::findLargestBatch() {
    if (training_active_ || batchSearchActive_ || !readyToTrain(tr("Largest batch that fits"))) {
        return;
    }
    // The worker runs one thing at a time; Start waits until the search is done.
    batchSearchActive_ = true;
    techniques_->setLargestBatchSearching(true);
    statusBar()->showMessage(
        tr("Finding the largest micro-batch that fits: forecast, then a trial step…"));
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, job = currentJob(), cancel = cancel_] {
            worker->findLargestBatch(job, cancel);
        },
        Qt::QueuedConnection);
}

void MainWindow::onLargestBatchFound(const BatchFit& fit) {
    batchSearchActive_ = false;
    techniques_->setLargestBatchSearching(false);
    if (closeAfterRun_) {
        close();
        return;
    }
    if (cancel_ && cancel_->load()) {
        return;
    }
    if (!fit.fits) {
        showNotice(this, tr("Largest batch that fits"),
                   tr("Not even a micro-batch of 1 fits in %1. Turn on memory techniques or "
                      "shorten the max length.")
                       .arg(mib(fit.budgetBytes)));
        settingsMessage_ = statusBar()->currentMessage();
        return;
    }
    auto config = techniques_->config();
    config.batchSize = fit.config.batchSize;
    config.accumulationSteps = fit.config.accumulationSteps;
    config.evalBatchSize = fit.config.evalBatchSize;  // lowered when evaluation would not fit
    techniques_->setConfig(config);
    showSettingsMessage(
        tr("Micro-batch %1 × accumulation %2 (effective batch %3): forecast "
           "%4, trial step %5 of %6")
            .arg(fit.config.batchSize)
            .arg(fit.config.accumulationSteps)
            .arg(fit.config.stepExamples())
            .arg(mib(fit.forecastBytes), mib(fit.trialPeakBytes), mib(fit.budgetBytes)));
    Q_EMIT largestBatchApplied(fit);
}

bool MainWindow::startTraining() {
    if (training_active_) {
        return false;
    }
    if (batchSearchActive_) {
        showSettingsMessage(tr("Wait until the largest batch is found, then start."));
        return false;
    }
    if (!readyToTrain(tr("Start training"))) {
        return false;
    }
    const auto job = currentJob();
    training_active_ = true;
    startedJob_ = job;
    resumingRun_ = 0;
    training_->prepareRun(0, job.training);
    tabs_->setCurrentWidget(training_);
    statusBar()->showMessage(tr("Starting a run: reading and tokenising the data…"));
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, job, cancel = cancel_] { worker->start(job, cancel); },
        Qt::QueuedConnection);
    return true;
}

void MainWindow::resumeRun(qint64 runId) {
    if (training_active_ || runId <= 0) {
        return;
    }
    // The run's own settings, for the ETA and the threads shown.
    std::optional<TrainingConfig> config;
    try {
        RunStore store(database_, RunStore::Access::ReadOnly);
        if (const auto run = store.run(runId)) {
            config = jobOfRun(*run).training;
        }
    } catch (const std::exception&) {
        // The worker reads the run again and says what is wrong with it.
    }
    training_active_ = true;
    resumingRun_ = runId;
    training_->prepareRun(runId, config);
    tabs_->setCurrentWidget(training_);
    statusBar()->showMessage(tr("Resuming run %1: loading its checkpoint…").arg(runId));
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, runId, cancel = cancel_] { worker->resume(runId, cancel); },
        Qt::QueuedConnection);
}

void MainWindow::cancelTraining() {
    if (training_active_ && cancel_) {
        cancel_->store(true);
        training_->markCancelling();
        statusBar()->showMessage(tr("Cancelling after the current micro-batch…"));
    }
}

void MainWindow::onRunCreated(qint64 runId) {
    statusBar()->showMessage(resumingRun_ == runId ? tr("Run %1 resumed: preparing…").arg(runId)
                                                   : tr("Run %1 created: preparing…").arg(runId));
    if (resumingRun_ != runId) {
        nameRunInLanguage(runId);
    }
}

void MainWindow::onRunStarted() {
    // The store says "running" now (a resumed run said "cancelled" until it ended).
    runs_->refresh();
    statusBar()->showMessage(tr("Run %1 is training.").arg(training_->currentRun()));
}

void MainWindow::nameRunInLanguage(qint64 runId) {
    if (!interfaceTranslated() || !startedJob_.name.empty()) {
        return;  // English, or a name the user chose: core's name stands
    }
    const auto& job = startedJob_;
    const QString model = job.preset.empty()
                              ? QString::fromStdString(modelFolderName(job.modelFolder))
                              : tr("%1 (from scratch)").arg(Names::preset(job.preset));
    QString name =
        tr("%1 on %2").arg(model, QString::fromStdString(job.data.trainFile.filename().string()));
    const auto techniques =
        Names::techniques(nlohmann::json{{"job", job.toJson()}}, job.training.techniquesSummary());
    if (!techniques.isEmpty()) {
        name += tr(", ") + techniques;
    }
    name += QStringLiteral(" #%1").arg(runId);
    guarded(this, tr("Rename run %1").arg(runId),
            [&] { RunStore(database_).rename(runId, name.toStdString()); });
}

void MainWindow::onFinished(qint64 runId) {
    training_active_ = false;
    runs_->refresh();
    tryIt_->refreshRuns();
    tryIt_->followRun(runId);  // unless the user chose a model in Try it
    statusBar()->showMessage(training_->status());
    Q_EMIT trainingFinished(runId);
    if (closeAfterRun_) {
        close();
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (batchSearchActive_) {
        // The trial step ends within a micro-batch; close when the worker reports back.
        closeAfterRun_ = true;
        cancel_->store(true);
        event->ignore();
        return;
    }
    if (training_active_ && !closeAfterRun_) {
        const auto answer =
            QMessageBox::question(this, tr("Training is running"),
                                  tr("Stop the run and close? The run keeps everything it "
                                     "recorded and can resume from its checkpoint."));
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        // The run may have ended while the question was open: then the window closes now, and
        // no "close when stopped" is left behind to close it at the end of a later run.
        if (training_active_) {
            closeAfterRun_ = true;
            cancelTraining();
        }
    }
    if (training_active_) {
        event->ignore();  // closes when the worker reports the run finished
        return;
    }
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"), tabs_->currentIndex());
    event->accept();
}

}  // namespace bert::ui
