// A run's Examples (Runs → Open → Examples): the validation examples of the best evaluation,
// highest loss first. Clicking a confusion-matrix cell lists that cell's examples; the search and
// "Wrong only" narrow them; double-clicking one answers it in Try it with the run's model, and
// the answer must be the one the list shows: a list that disagreed with the model would send the
// user to the wrong examples.
#include <cstdlib>
#include <fstream>

#include <QCheckBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include "StudioFixture.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/ExamplesView.h"
#include "runs/ModelReport.h"
#include "runs/RunDialog.h"
#include "runs/RunStore.h"
#include "tryit/TryItPage.h"

namespace bert::test {
namespace {

using RunExamples = StudioFixture;

/// How many stored rows are of true class truth predicted as predicted.
int rowsOfCell(const EvaluationExamples& examples, int truth, int predicted) {
    int count = 0;
    for (const auto& row : examples.rows) {
        count += row.truthClass == truth && row.predictedClass == predicted ? 1 : 0;
    }
    return count;
}

/// The first row the table shows (its order on screen).
int firstVisibleRow(const QTableWidget* table) {
    for (int r = 0; r < table->rowCount(); ++r) {
        if (!table->isRowHidden(r)) {
            return r;
        }
    }
    return -1;
}

void clickCell(QTableWidget* table, int row, int column) {
    const auto* item = table->item(row, column);
    ASSERT_NE(item, nullptr);
    table->scrollToItem(item);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualItemRect(item).center());
}

TEST_F(RunExamples, AConfusionCellListsItsExamplesAndADoubleClickAnswersOneInTryIt) {
    {
        // One review in five has the other label: the model gets those wrong, confidently.
        std::ofstream csv(dir_ / "noisy.csv");
        csv << "review,sentiment\n";
        for (int i = 0; i < 120; ++i) {
            const bool positive = i % 2 == 0;
            csv << (positive ? "\"i loved it, a great film ! number " + std::to_string(i) + "\""
                             : "\"the film was very bad , awful , take " + std::to_string(i) + "\"")
                << "," << ((positive != (i % 5 == 0)) ? "pos" : "neg") << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "noisy.csv");
    ASSERT_TRUE(waitUntil([&] { return window_->datasetPage()->hasData(); }, 30000));
    chooseTinyModel();
    // Long enough for the model to learn the two kinds: the flipped reviews are then its
    // confident mistakes.
    setConfig(quickConfig(8));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    std::optional<EvaluationExamples> stored;
    {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        stored = store.examples(run);
    }
    ASSERT_TRUE(stored) << "the run kept its best evaluation's examples";
    ASSERT_FALSE(stored->rows.empty());

    auto* report = openModelQualityOf(run);
    ASSERT_NE(report, nullptr);
    auto* dialog = qobject_cast<ui::RunDialog*>(report->window());
    ASSERT_NE(dialog, nullptr);
    auto* examples = dialog->examples();
    auto* tabs = dialog->findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    EXPECT_TRUE(
        examples->summaryText().contains(QStringLiteral("step %1 (the best)").arg(stored->step)))
        << examples->summaryText().toStdString();
    EXPECT_EQ(examples->visibleRows(), static_cast<int>(stored->rows.size()));

    // The diagonal cell of "pos": its examples, all right, so "Wrong only" leaves none.
    const int pos = 1;  // labels sorted: neg, pos
    clickCell(report->confusionTable(), pos, pos);
    EXPECT_EQ(tabs->currentWidget(), examples) << "the cell's examples are shown";
    EXPECT_EQ(examples->visibleRows(), rowsOfCell(*stored, pos, pos));
    EXPECT_GT(examples->visibleRows(), 0);
    examples->wrongOnly()->click();
    EXPECT_EQ(examples->visibleRows(), 0);

    // The cell of the flipped labels the model gets wrong most (true neg predicted pos, or the
    // other way), from the report again: its examples, highest loss first.
    tabs->setCurrentWidget(report);
    const int wrongTruth = rowsOfCell(*stored, 0, 1) >= rowsOfCell(*stored, 1, 0) ? 0 : 1;
    const int wrongCount = rowsOfCell(*stored, wrongTruth, 1 - wrongTruth);
    ASSERT_GT(wrongCount, 0) << "one review in five has the other label";
    clickCell(report->confusionTable(), wrongTruth, 1 - wrongTruth);
    EXPECT_FALSE(examples->wrongOnly()->isChecked()) << "a cell shows all of its examples";
    EXPECT_EQ(examples->visibleRows(), wrongCount);
    auto* table = examples->table();
    const int first = firstVisibleRow(table);
    ASSERT_GE(first, 0);
    const double firstLoss = table->item(first, 0)->data(Qt::UserRole + 2).toDouble();
    for (const auto& row : stored->rows) {
        if (row.truthClass == wrongTruth && row.predictedClass == 1 - wrongTruth) {
            EXPECT_LE(row.loss, firstLoss + 1e-12) << "the worst of the cell comes first";
        }
    }

    // The search narrows to texts holding what is typed.
    QTest::keyClicks(examples->search(), QStringLiteral("film"));
    EXPECT_EQ(examples->visibleRows(), wrongCount) << "every review says film";
    QTest::keyClicks(examples->search(), QStringLiteral(" was very"));
    for (int r = 0; r < table->rowCount(); ++r) {
        if (!table->isRowHidden(r)) {
            EXPECT_TRUE(table->item(r, 7)->text().contains(QStringLiteral("film was very")));
        }
    }
    examples->search()->clear();
    EXPECT_EQ(examples->visibleRows(), wrongCount);

    // With BERT_STUDIO_SCREENSHOTS=<folder>, the tab as a user sees it (for docs/).
    if (const char* shots = std::getenv("BERT_STUDIO_SCREENSHOTS"); shots && *shots) {
        dialog->resize(1100, 700);
        QTest::qWait(200);
        EXPECT_TRUE(
            dialog->grab().save(QString::fromLocal8Bit(shots) + QStringLiteral("/examples.png")));
    }

    // Double-clicking the worst example answers it in Try it with this run's model: the
    // prediction and the probability of its true label that the list shows.
    const auto text = table->item(first, 7)->toolTip();
    const auto truth = table->item(first, 2)->text();
    const auto predicted = table->item(first, 3)->text();
    const double truthProbability = table->item(first, 1)->data(Qt::UserRole + 2).toDouble();
    table->scrollToItem(table->item(first, 7));
    QSignalSpy asked(examples, &ui::ExamplesView::tryRequested);
    // A double-click as the window system delivers it: a click, then the second press as a
    // double-click (QTest's mouseDClick alone never reaches a view's double-click: the view
    // needs the first press).
    const auto at = table->visualItemRect(table->item(first, 7)).center();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
    EXPECT_EQ(asked.count(), 1) << "one double-click, one example tried";
    auto* tryIt = window_->tryItPage();
    EXPECT_EQ(window_->tabs()->currentWidget(), tryIt);
    ASSERT_TRUE(waitUntil([&] { return !tryIt->busy() && !tryIt->lastResult().isEmpty(); }, 120000))
        << tryIt->errorText().toStdString();
    EXPECT_TRUE(tryIt->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)))
        << tryIt->currentModelText().toStdString();
    const auto result = tryIt->lastResult();
    EXPECT_EQ(result.front().first, predicted);
    bool found = false;
    for (const auto& [label, probability] : result) {
        if (label == truth) {
            found = true;
            EXPECT_NEAR(probability, truthProbability, 1e-4);
        }
    }
    EXPECT_TRUE(found) << "Try it lists every class";
    EXPECT_FALSE(text.isEmpty());
}

}  // namespace
}  // namespace bert::test
