// Issue 27, points 7, 8 and 11: what the studio says during and after runs is true now. The runs
// table and the status bar follow a resumed or a new run; evaluation shows its batches and the
// ETA counts the evaluations to come; the threads a run uses are shown, and a run that gets much
// less processor time than they ask for says so.
#include <algorithm>

#include <QCheckBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

#include "../core/TinyModel.h"
#include "StudioFixture.h"
#include "common/MetricsCharts.h"
#include "main/MainWindow.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "training/OptionForm.h"
#include "training/RunClock.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

class RunProgress : public StudioFixture {
protected:
    /// The runs table's status cell of a run.
    QString statusInTable(qint64 runId) const {
        auto* model = window_->runsPage()->table()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, 0).data(Qt::UserRole).toLongLong() == runId) {
                return model->index(row, 3).data().toString();
            }
        }
        return {};
    }
    QString statusBar() const { return window_->statusBar()->currentMessage(); }
};

// Point 7: "cancelled" in the runs table for a run that was resumed; "Run 1 finished" in the
// status bar during later runs; an old "doesn't fit" after the fix was applied.
TEST_F(RunProgress, TheRunsTableAndTheStatusBarSayWhatIsTrueNow) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    const auto first = trainThroughTheStartButton();
    ASSERT_GT(first, 0);
    EXPECT_TRUE(statusBar().contains(QStringLiteral("Run %1 completed").arg(first)))
        << statusBar().toStdString();

    // A second, long run: the status bar leaves run 1 behind.
    setConfig(quickConfig(400));
    auto* training = window_->trainingPage();
    clickButton(window_.get(), QStringLiteral("Start training"));
    EXPECT_FALSE(statusBar().contains(QStringLiteral("Run %1").arg(first)))
        << statusBar().toStdString();
    ASSERT_TRUE(waitUntil([&] { return training->charts()->stepPoints() >= 3; }, 60000));
    const auto second = training->currentRun();
    EXPECT_NE(second, first);
    EXPECT_TRUE(statusBar().contains(QStringLiteral("Run %1").arg(second)))
        << statusBar().toStdString();
    EXPECT_EQ(statusInTable(second), QStringLiteral("running"));
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    clickButton(training, QStringLiteral("Cancel"));
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60000));
    EXPECT_EQ(statusInTable(second), QStringLiteral("cancelled"));

    // Resumed: "running" in the table while it trains.
    QSignalSpy started(window_->worker(), &ui::TrainingWorker::started);
    clickButton(training, QStringLiteral("Resume"));
    ASSERT_TRUE(waitUntil([&] { return started.count() == 1; }, 60000));
    QCoreApplication::processEvents();
    EXPECT_EQ(statusInTable(second), QStringLiteral("running"))
        << "the table still shows the resumed run as it was";
    EXPECT_TRUE(statusBar().contains(QStringLiteral("Run %1").arg(second)));
    clickButton(training, QStringLiteral("Cancel"));
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 2; }, 60000));

    // "Not even a micro-batch fits" goes once the settings change. A model whose embeddings
    // alone (4 MiB) pass a 1 MiB cap.
    auto bundle = makeModel(2, 32, 4, 0.1, 3, {"neg", "pos"}, 30522);
    exportModelFolder(dir_ / "big-vocabulary", *bundle.model, *bundle.tokenizer);
    typeInto(findLineEdit(window_.get(), QStringLiteral("modelFolder")),
             QString::fromStdString((dir_ / "big-vocabulary").string()));
    auto config = window_->techniquesPage()->config();
    config.memoryCapBytes = 1LL << 20;
    setConfig(config);
    auto* largest = findButton(window_.get(), QStringLiteral("Largest batch that fits"));
    click(largest);
    ASSERT_TRUE(waitUntil([&] { return statusBar().contains(QStringLiteral("Not even")); }, 60000))
        << statusBar().toStdString();
    auto* cap =
        window_->techniquesPage()->findChild<QSpinBox*>(QStringLiteral("memory_cap_bytes_mib"));
    ASSERT_NE(cap, nullptr);
    bringToFront(cap);
    cap->setFocus();
    QTest::keyClick(cap, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(cap, QStringLiteral("600"));
    QTest::keyClick(cap, Qt::Key_Tab);
    EXPECT_EQ(window_->techniquesPage()->config().memoryCapBytes, 600LL << 20);
    EXPECT_FALSE(statusBar().contains(QStringLiteral("Not even"))) << statusBar().toStdString();
}

// Point 8: the bar sat at "33% step 10/30" for 46 s while the e-mails were evaluated. Every
// evaluation shows its batches, and the ETA knows how many evaluations are to come.
TEST_F(RunProgress, EvaluationShowsItsBatchesAndTheEtaCountsEvaluations) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    auto config = quickConfig(2);
    config.evalBatchSize = 4;  // 20 validation reviews: 5 batches
    setConfig(config);
    auto* training = window_->trainingPage();
    std::size_t trainExamples = 0;
    QObject::connect(window_->worker(), &ui::TrainingWorker::started, training,
                     [&](const RunStart& start) { trainExamples = start.trainExamples; });
    QStringList duringEvaluation;
    QObject::connect(window_->worker(), &ui::TrainingWorker::evaluationProgress, training,
                     [&](int, int) { duringEvaluation << training->progressText(); });
    QStringList afterEvaluation;
    QObject::connect(window_->worker(), &ui::TrainingWorker::evaluated, training,
                     [&] { afterEvaluation << training->progressText(); });
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    ASSERT_FALSE(duringEvaluation.isEmpty()) << "no evaluation progress reached the page";
    EXPECT_TRUE(duringEvaluation.front().contains(QStringLiteral("evaluating: batch 0 of 5")))
        << duringEvaluation.front().toStdString();
    EXPECT_TRUE(std::any_of(duringEvaluation.begin(), duringEvaluation.end(),
                            [](const QString& text) { return text.contains("batch 3 of 5"); }))
        << duringEvaluation.join(QLatin1Char('\n')).toStdString();
    for (const auto& text : afterEvaluation) {
        EXPECT_FALSE(text.contains(QStringLiteral("evaluating"))) << text.toStdString();
    }
    // The ETA's count of evaluations is the trainer's: the stored run made exactly as many.
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    const auto stored = store.run(run);
    ASSERT_TRUE(stored);
    const auto steps = store.steps(run).size();
    const auto windows = ui::stepsPerEpoch(config, trainExamples);
    EXPECT_EQ(ui::evaluationsAfter(config, windows, 0, steps), store.evaluations(run).size());
    EXPECT_EQ(static_cast<std::size_t>(afterEvaluation.size()), store.evaluations(run).size());
}

// Point 8: the ETA adds the evaluations to come at the time one takes.
TEST(RunClockTest, TheEtaCountsTheEvaluationsToCome) {
    TrainingConfig config;
    config.batchSize = 10;
    config.evalsPerEpoch = 2;
    ui::RunClock clock;
    // 100 examples: 10 steps an epoch, 20 steps; evaluations after steps 5, 10, 15, 20.
    clock.start(config, 100, 50, 0, 20, 0.0);
    EXPECT_EQ(ui::evaluationsAfter(config, 10, 0, 20), 4U);
    for (std::size_t step = 1; step <= 5; ++step) {
        clock.stepDone(step, static_cast<double>(step));  // 1 s a step
    }
    clock.evaluationProgress(0, 10, 5.0);
    clock.evaluationProgress(5, 10, 15.0);  // 2 s a batch: this evaluation takes 20 s
    EXPECT_TRUE(clock.evaluating());
    // 15 steps at 1 s, 3 evaluations to come at 20 s, and 10 s left of this one.
    EXPECT_NEAR(clock.remaining(15.0), 15.0 + 60.0 + 10.0, 1e-9);
    clock.evaluationDone(25.0);
    EXPECT_NEAR(clock.remaining(25.0), 15.0 + 60.0, 1e-9);
    config.evalEverySteps = 3;
    // After steps 3, 6 and 9, the epoch's end (10), 12, 15, 18 and the run's end (20).
    EXPECT_EQ(ui::evaluationsAfter(config, 10, 0, 20), 8U);
}

// Point 11: with other programs on the processor, samples/s fell from 12 to under 1 and nothing
// said why. The run's threads are shown, and a run that gets far less processor time than its
// threads ask for says so in the status line, and stops saying it when it ends.
TEST_F(RunProgress, TheThreadsAreShownAndAStarvedRunSaysSo) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    auto config = quickConfig(400);
    config.threads = 1;
    setConfig(config);
    auto* training = window_->trainingPage();
    // The processor's clock as another busy program leaves it: 10 s pass, the run gets 1 s.
    ui::CpuTimes fake;
    double cpuPerCall = 1.0;
    training->setCpuClock([&] {
        fake.wall += 10.0;
        fake.cpu += cpuPerCall;
        return fake;
    });
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    clickButton(window_.get(), QStringLiteral("Start training"));
    ASSERT_TRUE(waitUntil([&] { return !training->cpuText().isEmpty(); }, 60000))
        << "no word about the processor: " << training->status().toStdString();
    EXPECT_TRUE(training->status().contains(QStringLiteral("with 1 thread")))
        << training->status().toStdString();
    EXPECT_TRUE(training->cpuText().contains(QStringLiteral("gets 0.1 of the 1 cores")))
        << training->cpuText().toStdString();
    // Named after its run: the status bar said "Run N ..." and still does (a loaded machine
    // starved TheRunsTableAndTheStatusBarSayWhatIsTrueNow's run, whose "Run N" then vanished).
    EXPECT_EQ(statusBar(), QStringLiteral("Run %1: %2")
                               .arg(training->currentRun())
                               .arg(training->cpuText()));
    // The other program ends: the warning goes, the run's line comes back.
    cpuPerCall = 10.0;
    ASSERT_TRUE(waitUntil([&] { return training->cpuText().isEmpty(); }, 60000));
    EXPECT_EQ(statusBar(), QStringLiteral("Run %1 is training.").arg(training->currentRun()));
    clickButton(training, QStringLiteral("Cancel"));
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 60000));
    EXPECT_TRUE(training->cpuText().isEmpty());
}

}  // namespace
}  // namespace bert::test
