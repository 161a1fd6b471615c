// Issue 27, point 13: what a desktop user expects. A Help menu with a guide to the techniques
// and the shortcuts; Delete removes the selected runs after a question whose default is No;
// Resume in the Training menu; the window's size and splitter kept; each run's disk use shown,
// and a finished run's checkpoints removed with its record kept. (Undoing the suggested change
// is in ForecastTest.) Quitting while a run trains, a stopped run resumed from the Runs tab
// after a restart, and Cancel only while a run trains (the newcomer's findings 1 to 3).
#include <atomic>

#include <QAction>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSplitter>
#include <QTableView>
#include <QTest>

#include "StudioFixture.h"
#include "common/MetricsCharts.h"
#include "help/HelpDialog.h"
#include "main/MainWindow.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TrainingJob.h"
#include "training/TrainingPage.h"
#include "tryit/TryItPage.h"

namespace bert::test {
namespace {

class Desktop : public StudioFixture {
protected:
    ui::HelpDialog* openHelp() const {
        for (auto* dialog : window_->findChildren<ui::HelpDialog*>()) {
            if (dialog->isVisible()) {
                return dialog;
            }
        }
        return nullptr;
    }
    QString cell(qint64 runId, int column) const {
        auto* model = window_->runsPage()->table()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(Qt::UserRole).toLongLong() == runId) {
                return model->index(row, column).data().toString();
            }
        }
        return {};
    }
    double cellNumber(qint64 runId, int column) const {
        auto* model = window_->runsPage()->table()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(Qt::UserRole).toLongLong() == runId) {
                return model->index(row, column).data(Qt::UserRole).toDouble();
            }
        }
        return -1.0;
    }
};

TEST_F(Desktop, TheHelpMenuGuidesThroughTheTechniquesAndTheShortcuts) {
    // F1 opens the guide on the techniques.
    QTest::keyClick(window_.get(), Qt::Key_F1);
    auto* guide = openHelp();
    ASSERT_NE(guide, nullptr) << "F1 opened no guide";
    EXPECT_EQ(guide->currentPage(), 0);
    for (const char* technique : {"Gradient checkpointing", "Memory cap", "Precision"}) {
        EXPECT_TRUE(guide->techniquesText().contains(QString::fromLatin1(technique)))
            << technique << " is not in the guide";
    }
    guide->close();
    auto* shortcuts = window_->menuAction(QStringLiteral("Keyboard shortcuts"));
    ASSERT_NE(shortcuts, nullptr);
    shortcuts->trigger();
    guide = openHelp();
    ASSERT_NE(guide, nullptr);
    EXPECT_EQ(guide->currentPage(), 1);
    const auto text = guide->shortcutsText();
    for (const char* line : {"Ctrl+Return", "Start training", "Classify", "Ctrl+.", "Del"}) {
        EXPECT_TRUE(text.contains(QString::fromLatin1(line))) << line << " missing:\n"
                                                              << text.toStdString();
    }
}

TEST_F(Desktop, DeleteAsksWithNoAsTheDefaultAndDeletesOnYes) {
    const auto first = storedRun("first");
    const auto second = storedRun("second");
    auto* runs = window_->runsPage();
    runs->refresh();
    clickRuns(runs, {first});
    // Enter answers the question with its default: No.
    bool defaultIsNo = false;
    auto answered = whenModal([&](QWidget* dialog) {
        auto* box = qobject_cast<QMessageBox*>(dialog);
        ASSERT_NE(box, nullptr);
        defaultIsNo =
            static_cast<QAbstractButton*>(box->defaultButton()) == box->button(QMessageBox::No);
        QTest::keyClick(box, Qt::Key_Return);
    });
    runs->table()->setFocus();  // the click on the row gave it the focus
    QTest::keyClick(runs->table(), Qt::Key_Delete);
    ASSERT_TRUE(waitUntil([&] { return *answered; }, 30000)) << "Delete asked nothing";
    EXPECT_TRUE(defaultIsNo);
    EXPECT_EQ(runs->rowCount(), 2) << "Enter deleted the run";
    answered = whenModal([](QWidget* dialog) {
        QTest::mouseClick(qobject_cast<QMessageBox*>(dialog)->button(QMessageBox::Yes),
                          Qt::LeftButton);
    });
    runs->table()->setFocus();
    QTest::keyClick(runs->table(), Qt::Key_Delete);
    ASSERT_TRUE(waitUntil([&] { return *answered; }, 30000));
    EXPECT_EQ(runs->rowCount(), 1);
    EXPECT_FALSE(RunStore(dir_ / "runs.sqlite", RunStore::Access::ReadOnly).run(first));
    EXPECT_TRUE(RunStore(dir_ / "runs.sqlite", RunStore::Access::ReadOnly).run(second));
}

TEST_F(Desktop, ResumeIsInTheTrainingMenu) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(400));
    auto* resume = window_->menuAction(QStringLiteral("Resume"));
    ASSERT_NE(resume, nullptr);
    EXPECT_FALSE(resume->isEnabled()) << "nothing to resume yet";
    auto* training = window_->trainingPage();
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    window_->menuAction(QStringLiteral("Start"))->trigger();
    ASSERT_TRUE(waitUntil([&] { return training->charts()->stepPoints() >= 3; }, 60000));
    EXPECT_FALSE(resume->isEnabled());
    window_->menuAction(QStringLiteral("Cancel"))->trigger();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60000));
    const auto run = finished.front().at(0).toLongLong();
    ASSERT_TRUE(resume->isEnabled()) << "a cancelled run cannot be resumed from the menu";
    QSignalSpy started(window_->worker(), &ui::TrainingWorker::started);
    resume->trigger();
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }, 60000));
    // QSignalSpy counts in the worker's thread as the signal is emitted; the window hears of it
    // through the GUI thread's queue, where it was posted first: deliver it before looking.
    QCoreApplication::processEvents();
    EXPECT_GT(started.front().at(0).value<RunStart>().resumedFromStep, 0U);
    EXPECT_EQ(training->currentRun(), run);
    window_->menuAction(QStringLiteral("Cancel"))->trigger();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }, 60000));
}

TEST_F(Desktop, TheWindowSizeAndTheSplitterAreRemembered) {
    EXPECT_EQ(window_->size(), QSize(1280, 860)) << "the first start's size";
    window_->resize(1100, 900);
    auto* splitter = window_->trainingPage()->findChild<QSplitter*>(QStringLiteral("chartsAndLog"));
    ASSERT_NE(splitter, nullptr);
    bringToFront(splitter);
    QCoreApplication::processEvents();
    const auto before = splitter->sizes();
    auto* handle = splitter->handle(1);
    const QPoint grip = handle->rect().center();
    QTest::mousePress(handle, Qt::LeftButton, {}, grip);
    QTest::mouseMove(handle, grip + QPoint(0, -60));
    QTest::mouseRelease(handle, Qt::LeftButton, {}, grip + QPoint(0, -60));
    const auto moved = splitter->sizes();
    ASSERT_NE(moved, before) << "the drag did not move the splitter";
    window_->close();
    window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
    window_->show();
    EXPECT_EQ(window_->size(), QSize(1100, 900));
    auto* again = window_->trainingPage()->findChild<QSplitter*>(QStringLiteral("chartsAndLog"));
    bringToFront(again);
    QCoreApplication::processEvents();
    EXPECT_EQ(again->sizes(), moved);
}

TEST_F(Desktop, EachRunShowsItsDiskUseAndItsCheckpointsCanGoWhileItsRecordStays) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    constexpr int kDisk = 9;
    EXPECT_GT(cellNumber(run, kDisk), 0.0);
    EXPECT_TRUE(cell(run, kDisk).contains(QStringLiteral("iB"))) << cell(run, kDisk).toStdString();
    const auto folder = RunStore(dir_ / "runs.sqlite", RunStore::Access::ReadOnly).runFolder(run);
    ASSERT_TRUE(std::filesystem::exists(folder));
    EXPECT_TRUE(
        window_->tryItPage()->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)));

    clickRuns(window_->runsPage(), {run});
    const auto answered = whenModal([](QWidget* dialog) {
        QTest::mouseClick(qobject_cast<QMessageBox*>(dialog)->button(QMessageBox::Yes),
                          Qt::LeftButton);
    });
    clickButton(window_->runsPage(), QStringLiteral("Remove checkpoints…"));
    ASSERT_TRUE(waitUntil([&] { return *answered; }, 30000));
    EXPECT_FALSE(std::filesystem::exists(folder));
    EXPECT_EQ(cellNumber(run, kDisk), 0.0);
    EXPECT_EQ(cell(run, 3), QStringLiteral("completed")) << "the record changed";
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    EXPECT_FALSE(store.steps(run).empty()) << "the metrics went with the checkpoints";
    EXPECT_FALSE(
        window_->tryItPage()->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)))
        << "Try it still offers a model that is gone";
    // The run still opens with its charts.
    clickRuns(window_->runsPage(), {run});
    clickButton(window_->runsPage(), QStringLiteral("Open"));
    EXPECT_FALSE(window_->runsPage()->findChildren<QDialog*>().isEmpty());
}

// Finding 1: Quit answered Yes once the run had ended left the window open, and the "close when
// stopped" it left closed the studio at the end of the next run. The question is answered here
// only after the run has ended (a person who leaves it open).
TEST_F(Desktop, QuitAnsweredAfterTheRunEndedClosesTheWindow) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    auto* start = window_->menuAction(QStringLiteral("Start"));
    auto* quit = window_->menuAction(QStringLiteral("Quit"));
    ASSERT_NE(start, nullptr);
    ASSERT_NE(quit, nullptr);
    const auto answerOnceTheRunEnded = [&finished](QMessageBox::StandardButton button) {
        const auto runs = finished.count() + 1;
        return whenModal([&finished, button, runs](QWidget* dialog) {
            auto* box = qobject_cast<QMessageBox*>(dialog);
            ASSERT_NE(box, nullptr);
            EXPECT_TRUE(box->text().contains(QStringLiteral("Stop the run and close?")))
                << box->text().toStdString();
            EXPECT_TRUE(waitUntil([&] { return finished.count() == runs; }, 180000))
                << "the run did not end";
            QTest::mouseClick(box->button(button), Qt::LeftButton);
        });
    };
    // No: the window stays, and nothing is left to close it later.
    start->trigger();
    ASSERT_TRUE(window_->isTraining());
    auto answered = answerOnceTheRunEnded(QMessageBox::No);
    quit->trigger();
    ASSERT_TRUE(*answered) << "Quit during a run asked nothing";
    EXPECT_TRUE(window_->isVisible());
    // A second run: Quit asks again; Yes after the run ended closes the window.
    start->trigger();
    ASSERT_TRUE(window_->isTraining());
    answered = answerOnceTheRunEnded(QMessageBox::Yes);
    quit->trigger();
    ASSERT_TRUE(*answered) << "the second Quit asked nothing";
    EXPECT_FALSE(window_->isVisible()) << "Yes left the window open";
    ASSERT_EQ(finished.count(), 2);
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    for (const auto& arguments : finished) {
        EXPECT_EQ(store.run(arguments.at(0).toLongLong())->status, RunStatus::Completed);
    }
}

namespace {
/// Cancels a run at its third step, as a Quit answered Yes during it does.
struct CancelAtThirdStep final : TrainerObserver {
    std::atomic<bool> cancel{false};
    void onStep(const StepMetrics& metrics) override {
        if (metrics.step >= 3) {
            cancel.store(true);
        }
    }
};
}  // namespace

// Finding 2: after a restart, a cancelled run could be resumed only from the command line.
TEST_F(Desktop, AStoppedRunSelectedInTheRunsTabResumesAfterARestart) {
    const auto job = reviewsJob();
    CancelAtThirdStep stopper;
    const auto stopped = runTrainingJob(job, dir_ / "runs.sqlite", &stopper, stopper.cancel).runId;
    {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        ASSERT_EQ(store.run(stopped)->status, RunStatus::Cancelled);
        ASSERT_FALSE(store.checkpoints(stopped).empty()) << "no checkpoint to resume from";
    }
    // The studio starts again over the same database.
    window_->close();
    window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
    window_->show();
    window_->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
    auto* resume = window_->menuAction(QStringLiteral("Resume"));
    ASSERT_NE(resume, nullptr);
    EXPECT_FALSE(resume->isEnabled()) << "nothing chosen to resume yet";
    const auto completed = storedRun("completed");
    window_->runsPage()->refresh();
    clickRuns(window_->runsPage(), {completed});
    EXPECT_FALSE(resume->isEnabled()) << "a completed run offered to resume";
    clickRuns(window_->runsPage(), {stopped});
    ASSERT_TRUE(resume->isEnabled()) << "the cancelled run selected cannot be resumed";
    EXPECT_TRUE(findButton(window_->trainingPage(), QStringLiteral("resumeTraining"))->isEnabled());
    QSignalSpy started(window_->worker(), &ui::TrainingWorker::started);
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    resume->trigger();
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 180000));
    ASSERT_EQ(started.count(), 1);
    EXPECT_GE(started.front().at(0).value<RunStart>().resumedFromStep, 3U);
    EXPECT_EQ(finished.front().at(0).toLongLong(), stopped);
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(stopped)->status, RunStatus::Completed);
    EXPECT_GT(store.steps(stopped).back().step, 3U) << "the resumed run trained no further";
}

// Finding 3: Training > Cancel was enabled with nothing to cancel.
TEST_F(Desktop, CancelIsEnabledOnlyWhileARunTrains) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    auto* cancel = window_->menuAction(QStringLiteral("Cancel"));
    ASSERT_NE(cancel, nullptr);
    EXPECT_FALSE(cancel->isEnabled()) << "Cancel is enabled with nothing training";
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    window_->menuAction(QStringLiteral("Start"))->trigger();
    EXPECT_TRUE(cancel->isEnabled());
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 180000));
    EXPECT_FALSE(cancel->isEnabled()) << "Cancel stayed enabled after the run";
}

}  // namespace
}  // namespace bert::test
