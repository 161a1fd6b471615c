// The newcomer's findings 4 and 5: the training tab's line above Start is its own (examples for
// training and validation, the task) with the dataset tab's unknown-token warning, for every
// task; the mouse wheel over the Model & techniques page's fields scrolls the page unless the
// field has the focus.
#include <fstream>

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <QWheelEvent>

#include "StudioFixture.h"
#include "common/Names.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

using TrainingTab = StudioFixture;

// Finding 4: for multi-label, the training tab said "The table counts the examples that have
// both labels" (the dataset tab's line; no table there), and no warning of 57% unknown tokens.
TEST_F(TrainingTab, ItsPlanLineIsItsOwnAndWarnsOfUnknownTokensForEveryTask) {
    chooseTinyModel();
    {
        // Chinese text, which the tiny model's English vocabulary cannot read; labels
        // separated by '|'.
        std::ofstream csv(dir_ / "topics.csv");
        csv << "text,labels\n";
        const char* const texts[] = {"这部电影非常好看", "剧情无聊演员很差", "值得一看的好电影",
                                     "浪费时间太难看了"};
        for (int i = 0; i < 40; ++i) {
            csv << texts[i % 4] << "," << (i % 2 == 0 ? "good|film" : "film") << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "topics.csv");
    auto* dataset = window_->datasetPage();
    ASSERT_TRUE(dataset->hasData()) << dataset->errorText().toStdString();
    ASSERT_EQ(dataset->task(), TaskKind::MultiLabel);
    ASSERT_TRUE(dataset->unknownTokens().warns()) << "the dataset tab does not warn";
    ASSERT_DOUBLE_EQ(dataset->validationFraction(), 0.2);
    auto* training = window_->trainingPage();
    bringToFront(training);
    const auto plan = training->planText();
    EXPECT_FALSE(plan.contains(QStringLiteral("table"))) << plan.toStdString();
    EXPECT_TRUE(plan.contains(ui::Names::task(TaskKind::MultiLabel))) << plan.toStdString();
    EXPECT_TRUE(plan.contains(QStringLiteral("32 examples for training, 8 for validation")))
        << plan.toStdString();
    EXPECT_TRUE(plan.contains(QStringLiteral("Unknown tokens:"))) << plan.toStdString();
    EXPECT_EQ(training->planWarnings(), dataset->unknownTokenText())
        << training->planWarnings().toStdString();
}

// Finding 5: scrolling the Model & techniques page over "CPU threads" set it from 0 to 3.
TEST_F(TrainingTab, TheWheelChangesNoFieldThatHasNotTheFocus) {
    auto* page = window_->techniquesPage();
    auto* threads = page->findChild<QSpinBox*>(QStringLiteral("threads"));
    auto* precision = page->findChild<QComboBox*>(QStringLiteral("precision"));
    ASSERT_NE(threads, nullptr);
    ASSERT_NE(precision, nullptr);
    bringToFront(threads);
    // The model folder has the focus, as after typing a model's path.
    auto* folder = findLineEdit(window_.get(), QStringLiteral("modelFolder"));
    folder->setFocus();
    ASSERT_FALSE(threads->hasFocus());
    const auto wheelDown = [](QWidget* field) {
        const QPointF at = QRectF(field->rect()).center();
        QWheelEvent wheel(at, field->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(field, &wheel);
    };
    const int threadsBefore = threads->value();
    const int precisionBefore = precision->currentIndex();
    ASSERT_LT(threadsBefore, threads->maximum());
    wheelDown(threads);
    wheelDown(precision);
    EXPECT_EQ(threads->value(), threadsBefore) << "the wheel changed a field it only passed";
    EXPECT_EQ(precision->currentIndex(), precisionBefore);
    // Clicked into, the field takes the wheel.
    QTest::mouseClick(threads, Qt::LeftButton, {}, threads->rect().center());
    ASSERT_TRUE(threads->hasFocus());
    const QPointF at = QRectF(threads->rect()).center();
    QWheelEvent up(at, threads->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                   Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(threads, &up);
    EXPECT_EQ(threads->value(), threadsBefore + 1);
}

}  // namespace
}  // namespace bert::test
