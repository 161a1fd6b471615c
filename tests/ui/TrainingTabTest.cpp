// The newcomer's finding 4: the training tab's line above Start is its own (examples for
// training and validation, the task) with the dataset tab's unknown-token warning, for every
// task.
#include <fstream>

#include <QTest>

#include "StudioFixture.h"
#include "common/Names.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
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

}  // namespace
}  // namespace bert::test
