// Issue 27, points 1 and 6: Try it classifies again and again, and Ctrl+Return there classifies
// instead of starting a run; on the tabs where a run is set up, Ctrl+Return starts it.
#include <QApplication>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTest>

#include "StudioFixture.h"
#include "common/MetricsCharts.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/RunStore.h"
#include "training/TrainingPage.h"
#include "tryit/TryItPage.h"

namespace bert::test {
namespace {

class TryIt : public StudioFixture {
protected:
    QPlainTextEdit* textBox() const { return window_->tryItPage()->findChild<QPlainTextEdit*>(); }
    /// Types text into Try it's box as a person does: a click into it, Ctrl+A, the keys.
    void typeText(const QString& text) {
        auto* box = textBox();
        ASSERT_NE(box, nullptr);
        // A dialog was open: the window is active again, as after a person's click into it.
        window_->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
        bringToFront(box);
        QTest::mouseClick(box->viewport(), Qt::LeftButton);
        QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(box, text);
        ASSERT_EQ(box->toPlainText(), text);
    }
    /// Chooses the tiny model folder with "Model folder…" and its dialog.
    void chooseModelFolder() {
        const auto chosen =
            chooseFileInNextDialog(QString::fromStdString((dir_ / "model").string()));
        clickButton(window_->tryItPage(), QStringLiteral("Model folder…"));
        ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000));
        ASSERT_TRUE(window_->tryItPage()->currentModelText().contains(
            QString::fromStdString((dir_ / "model").string())))
            << window_->tryItPage()->currentModelText().toStdString();
    }
};

// Point 1: the second Classify crashed the studio (a row's layout was deleted twice; its labels
// and bars were never deleted). Three texts in a row, each showing exactly its rows.
TEST_F(TryIt, ClassifyingAgainAndAgainReplacesTheResult) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(2));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    auto* tryIt = window_->tryItPage();
    ASSERT_TRUE(tryIt->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)))
        << tryIt->currentModelText().toStdString();
    QSignalSpy classified(tryIt, &ui::TryItPage::classified);
    const QStringList texts = {QStringLiteral("i loved it, a great film !"),
                               QStringLiteral("the film was very bad , awful"),
                               QStringLiteral("a great movie")};
    for (int i = 0; i < texts.size(); ++i) {
        typeText(texts[i]);
        clickButton(tryIt, QStringLiteral("Classify"));
        ASSERT_TRUE(waitUntil([&] { return classified.count() == i + 1; }, 60000))
            << "classification " << i + 1 << " did not end: " << tryIt->errorText().toStdString();
        EXPECT_EQ(tryIt->resultRows(), 2) << "after classification " << i + 1;
        EXPECT_EQ(tryIt->lastResult().size(), 2);
    }
    // The old rows are gone, not hidden under the new ones.
    EXPECT_EQ(tryIt->findChildren<QWidget*>(QStringLiteral("tryItResults")).size(), 1);
}

// Point 6: Ctrl+Return in Try it's text box started a training run.
TEST_F(TryIt, CtrlReturnClassifiesInTryItAndStartsARunOnlyWhereOneIsSetUp) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(400));
    chooseModelFolder();
    auto* tryIt = window_->tryItPage();
    QSignalSpy classified(tryIt, &ui::TryItPage::classified);
    typeText(QStringLiteral("i loved it"));
    QTest::keyClick(textBox(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_FALSE(window_->isTraining()) << "Ctrl+Return in Try it started a run";
    ASSERT_TRUE(waitUntil([&] { return classified.count() == 1; }, 60000))
        << "Ctrl+Return in Try it did not classify: " << tryIt->errorText().toStdString();
    EXPECT_EQ(tryIt->resultRows(), 2);
    EXPECT_EQ(textBox()->toPlainText(), QStringLiteral("i loved it")) << "the key edited the text";
    EXPECT_TRUE(RunStore(dir_ / "runs.sqlite", RunStore::Access::ReadOnly).runs().empty());

    // On the dataset tab the same keys start the run; Ctrl+. cancels it.
    bringToFront(window_->datasetPage());
    QTest::keyClick(window_->datasetPage(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_TRUE(window_->isTraining()) << "Ctrl+Return on the dataset tab did not start a run";
    EXPECT_EQ(classified.count(), 1);
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    QSignalSpy failed(window_->worker(), &ui::TrainingWorker::failed);
    QTest::keyClick(window_->trainingPage(), Qt::Key_Period, Qt::ControlModifier);
    ASSERT_TRUE(waitUntil([&] { return finished.count() + failed.count() > 0; }, 60000));
    EXPECT_FALSE(window_->isTraining());
}

}  // namespace
}  // namespace bert::test
