#pragma once

#include <filesystem>

#include <QKeySequence>
#include <QList>
#include <QMainWindow>
#include <QPair>
#include <QThread>

#include "worker/TrainingWorker.h"

QT_BEGIN_NAMESPACE
class QAction;
class QTabWidget;
QT_END_NAMESPACE

namespace bert::ui {

class DatasetPage;
class HelpDialog;
class RunsPage;
class TechniquesPage;
class TrainingPage;
class TryItPage;

/// The studio's window: Dataset, Model & techniques, Training, Runs and Try it tabs over one
/// run database; a TrainingWorker on its own QThread does all training. Settings (window size
/// and layout, splitters, last dataset, database, palette, language) persist in QSettings; a
/// window with none saved opens at 1280 x 860.
///
/// Shortcuts belong to a context: Start (Ctrl+Return) works on the dataset, techniques and
/// training tabs, not on Runs or Try it (where Ctrl+Return classifies). The status bar says what
/// is true now: a message about the settings (a fit that failed, a largest batch found, a
/// change applied) goes when the settings change, and a run's start and end replace the last.
///
/// The database is opened read-write once, at start: it is created or migrated, and runs left
/// "running" by a process that died are marked interrupted. Every later read opens it read-only.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(std::filesystem::path database, QWidget* parent = nullptr);
    ~MainWindow() override;

    DatasetPage* datasetPage() const { return dataset_; }
    TechniquesPage* techniquesPage() const { return techniques_; }
    TrainingPage* trainingPage() const { return training_; }
    RunsPage* runsPage() const { return runs_; }
    TryItPage* tryItPage() const { return tryIt_; }
    QTabWidget* tabs() const { return tabs_; }
    bool isTraining() const { return training_active_; }
    /// Loads a job into the dataset and techniques pages (a job file, "Train again"). Returns
    /// false when its dataset cannot be opened (the dataset page then says why).
    bool applyJob(const TrainingJob& job);
    /// "Train again with these settings" for a stored run.
    void trainAgain(qint64 runId);
    /// File → Save job / Open job: the JSON of `bert-studio-cli train --config`. False, after a
    /// message naming the file, when it cannot be written or read.
    bool saveJobFile(const QString& file);
    bool openJobFile(const QString& file);
    /// The worker on the training thread (for tests: a queued call to it runs before the next job).
    TrainingWorker* worker() const { return worker_; }

    /// The dataset of the start (the one given, the last one, or the sample): read in the
    /// background once the window is shown, so that the window paints first.
    void openDatasetAtStart(const QString& file);
    /// Starts a run from the pages' settings; false (and a message) when something is missing.
    bool startTraining();
    void cancelTraining();
    /// Dark palette on or off (Fusion style), charts included; remember it in the settings.
    void setDarkPalette(bool dark, bool remember = true);
    /// The menu bar's action with this text (its & removed), searched in every menu; or null.
    QAction* menuAction(const QString& text) const;
    /// Help → Guide: the techniques (page 0) or the keyboard shortcuts (page 1). Non-modal.
    HelpDialog* showHelp(int page);
    /// Every shortcut of the window, with what it does (the guide lists them).
    QList<QPair<QString, QKeySequence>> shortcuts() const;

Q_SIGNALS:
    void trainingFinished(qint64 runId);
    /// A "Largest batch that fits" search ended and its result is in the form.
    void largestBatchApplied(const bert::BatchFit& fit);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    /// Binds Ctrl+Return to Start only on the tabs where a run is set up.
    void updateShortcuts();
    /// Shows a message about the settings in the status bar; it goes when they change.
    void showSettingsMessage(const QString& text);
    void forgetSettingsMessage();
    void onRunCreated(qint64 runId);
    void onRunStarted();
    /// A new run's automatic name in the interface's language (core names runs in English).
    void nameRunInLanguage(qint64 runId);
    void resumeRun(qint64 runId);
    /// The run selected in the Runs tab becomes what Resume continues, when it can resume.
    void offerSelectedRunToResume();
    /// Refreshes the training tab's line about what Start will train on.
    void updatePlan();
    /// The single-label line of it (columns, classes, split), with warnings about the columns.
    QString singleLabelPlan(QStringList& warnings) const;
    /// The job the dataset and techniques pages describe now.
    TrainingJob currentJob() const;
    /// False, after telling the user why (titled action), when there is no data or model.
    bool readyToTrain(const QString& action);
    void findLargestBatch();
    void onLargestBatchFound(const BatchFit& fit);
    void onFinished(qint64 runId);

    std::filesystem::path database_;
    QTabWidget* tabs_;
    DatasetPage* dataset_;
    TechniquesPage* techniques_;
    TrainingPage* training_;
    RunsPage* runs_;
    TryItPage* tryIt_;
    QThread workerThread_;
    TrainingWorker* worker_;
    CancelToken cancel_;  ///< of the job started last
    bool training_active_ = false;
    bool closeAfterRun_ = false;
    bool batchSearchActive_ = false;  ///< a "Largest batch that fits" search holds the worker
    QAction* startAction_ = nullptr;
    QAction* resumeAction_ = nullptr;
    QString settingsMessage_;  ///< the status bar's message about the settings, if shown
    TrainingJob startedJob_;   ///< the job of the run started last
    qint64 resumingRun_ = 0;   ///< the run a resume was asked for (0: a new run)
};

}  // namespace bert::ui
