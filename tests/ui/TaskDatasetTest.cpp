// Issue 29, point 6: the studio per task. Each file is opened through the Open dataset dialog,
// its task is guessed and said, the task's summary is shown (label co-occurrence, the target's
// histogram, entities per type), the task is changed with the combo box, and a short run trains
// on the tiny model with the task the page carries. The live charts show the task's metric, and
// the finished run's Model quality tab, opened from the Runs tab, shows the task's tables and
// charts, checked against the stored report.
#include <fstream>

#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTableWidget>
#include <QTest>

#include "StudioFixture.h"
#include "TaskDatasetFixture.h"
#include "common/MetricsCharts.h"
#include "common/Names.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/CompareDialog.h"
#include "runs/ModelReport.h"
#include "runs/RunDialog.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TaskReport.h"
#include "runs/TrainingJob.h"
#include "train/TrainingConfig.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

const char* const kWords[] = {
    "the cat sat on the mat", "a good film",     "i loved it", "a bad movie",
    "the dog was very good",  "i hated the film"};

TEST_F(TaskDataset, MultiLabelIsGuessedWithItsSeparatorShowsCoOccurrenceAndTrains) {
    // Labels separated by '|': good on every second row, film on two rows of three, cat on the
    // rest.
    std::map<std::pair<std::string, std::string>, int> together;
    {
        std::ofstream csv(dir_ / "topics.csv");
        csv << "text,labels\n";
        for (int i = 0; i < 48; ++i) {
            std::vector<std::string> labels;
            if (i % 2 == 0)
                labels.push_back("good");
            if (i % 3 != 0)
                labels.push_back("film");
            if (labels.empty())
                labels.push_back("cat");
            std::string cell;
            for (const auto& label : labels) {
                cell += (cell.empty() ? "" : "|") + label;
                for (const auto& other : labels) {
                    ++together[{label, other}];
                }
            }
            csv << kWords[i % 6] << " " << i << "," << cell << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "topics.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->task(), TaskKind::MultiLabel);
    EXPECT_EQ(taskCombo()->currentText(), ui::Names::task(TaskKind::MultiLabel));
    EXPECT_TRUE(page()->taskGuessText().contains(QStringLiteral("several labels per row")))
        << page()->taskGuessText().toStdString();
    auto* separator = page()->findChild<QLineEdit*>(QStringLiteral("labelSeparator"));
    EXPECT_EQ(separator->text(), QStringLiteral("|"));
    EXPECT_TRUE(separator->isEnabled());
    // The co-occurrence table: labels sorted (cat, film, good), each pair's count.
    auto* table = taskTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->rowCount(), 3);
    const std::vector<std::string> names = {"cat", "film", "good"};
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(table->verticalHeaderItem(i)->text().toStdString(), names[i]);
        for (int j = 0; j < 3; ++j) {
            EXPECT_EQ(table->item(i, j)->text().toInt(), (together[{names[i], names[j]}]))
                << names[i] << " with " << names[j];
        }
    }
    EXPECT_EQ(bars(), (std::vector<double>{8, 32, 24}));
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("48 examples with 3 labels")))
        << page()->summaryText().toStdString();

    // Single-label instead: the cells are classes (good, film, good|film, cat), no table.
    chooseTask(TaskKind::SingleLabel);
    EXPECT_EQ(page()->task(), TaskKind::SingleLabel);
    EXPECT_FALSE(taskTable()->isVisible());
    EXPECT_FALSE(separator->isEnabled());
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("48 examples in 4 classes")))
        << page()->summaryText().toStdString();
    chooseTask(TaskKind::MultiLabel);
    EXPECT_TRUE(taskTable()->isVisible());

    const auto run = trainOneEpoch();
    const auto job = jobOfRun(run);
    EXPECT_EQ(job.data.task.kind, TaskKind::MultiLabel);
    EXPECT_EQ(job.data.task.labelSeparator, "|");
    const auto task = lastEvaluationTask(run.id);
    ASSERT_EQ(task.value("task", ""), "multi-label");
    expectLiveHeadline(task);

    // Model quality: the per-label table and the threshold curve, as stored.
    auto* report = openModelQuality(run.id);
    ASSERT_NE(report, nullptr);
    const auto shownTask = shownEvaluationTask(run.id, report);
    auto* taskReport = report->taskReport();
    expectTableRows(taskReport->table(), shownTask["per_label"], "label");
    EXPECT_EQ(taskReport->table()->rowCount(), 3);
    const auto curves = taskReport->firstChart()->chart()->series();
    ASSERT_EQ(curves.size(), 4);
    auto* microF1 = qobject_cast<QLineSeries*>(curves.front());
    ASSERT_NE(microF1, nullptr);
    EXPECT_EQ(microF1->name(), ui::Names::figure("micro_f1"));
    const auto& curve = shownTask["threshold_curve"];
    ASSERT_EQ(microF1->count(), static_cast<int>(curve.size()));
    for (int i = 0; i < microF1->count(); ++i) {
        EXPECT_DOUBLE_EQ(microF1->at(i).x(), curve[i]["threshold"].get<double>());
        EXPECT_DOUBLE_EQ(microF1->at(i).y(), curve[i]["micro_f1"].get<double>());
    }
    EXPECT_TRUE(taskReport->figuresText().contains(shown(shownTask["figures"]["micro_f1"])))
        << taskReport->figuresText().toStdString();

    // Compare overlays the runs' micro-F1: a second run, both selected, Compare.
    setConfig(quickConfig(2));
    const auto second = trainThroughTheStartButton();
    ASSERT_GT(second, 0);
    clickRuns(window_->runsPage(), {run.id, second});
    clickButton(window_->runsPage(), QStringLiteral("Compare"));
    ui::CompareDialog* compare = nullptr;
    for (auto* dialog : window_->runsPage()->findChildren<ui::CompareDialog*>()) {
        compare = dialog;
    }
    ASSERT_NE(compare, nullptr);
    EXPECT_TRUE(compare->metricTitle().contains(ui::Names::figure("micro_f1")))
        << compare->metricTitle().toStdString();
    const qint64 ids[] = {run.id, second};
    for (int i = 0; i < 2; ++i) {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        const auto evaluations = store.evaluations(ids[i]);
        const auto points = compare->metricPoints(i);
        ASSERT_EQ(points.size(), static_cast<int>(evaluations.size()));
        for (int e = 0; e < points.size(); ++e) {
            EXPECT_DOUBLE_EQ(points[e].y(),
                             evaluations[e].task["figures"]["micro_f1"].get<double>());
        }
    }
}

TEST_F(TaskDataset, RegressionIsGuessedShowsTheTargetHistogramAndTrains) {
    {
        std::ofstream csv(dir_ / "scores.csv");
        csv << "text,score\n";
        for (int i = 0; i < 40; ++i) {
            csv << kWords[i % 6] << "," << 1.5 + 0.25 * i << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "scores.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->task(), TaskKind::Regression);
    EXPECT_TRUE(page()->taskGuessText().contains(QStringLiteral("holds numbers")))
        << page()->taskGuessText().toStdString();
    EXPECT_EQ(taskChart()->title(), QStringLiteral("Target histogram"));
    // 40 evenly spaced targets from 1.5 to 11.25 in 10 bins of 0.975, the top edge in the last.
    const auto counts = bars();
    ASSERT_EQ(counts.size(), 10u);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), 0.0), 40.0);
    for (std::size_t b = 0; b < 10; ++b) {
        int expected = 0;
        for (int i = 0; i < 40; ++i) {
            const auto bin =
                std::min<std::size_t>(9, static_cast<std::size_t>((0.25 * i) / (9.75 / 10.0)));
            expected += bin == b ? 1 : 0;
        }
        EXPECT_EQ(counts[b], expected) << "bin " << b;
    }
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("target “score” from 1.5 to 11.25")))
        << page()->summaryText().toStdString();

    // Read as classes instead, then back.
    chooseTask(TaskKind::SingleLabel);
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("40 examples in 40 classes")))
        << page()->summaryText().toStdString();
    chooseTask(TaskKind::Regression);
    EXPECT_EQ(taskChart()->title(), QStringLiteral("Target histogram"));

    const auto run = trainOneEpoch();
    EXPECT_EQ(jobOfRun(run).data.task.kind, TaskKind::Regression);
    const auto task = lastEvaluationTask(run.id);
    EXPECT_EQ(task.value("task", ""), "regression");
    const auto predicted = task.value("predicted", std::vector<double>());
    ASSERT_EQ(predicted.size(), 8u);  // 20% of 40
    EXPECT_EQ(task.value("truth", std::vector<double>()).size(), 8u);
    expectLiveHeadline(task);

    // Model quality: predicted against true, and the residuals' histogram.
    auto* report = openModelQuality(run.id);
    ASSERT_NE(report, nullptr);
    const auto shownTask = shownEvaluationTask(run.id, report);
    const auto shownPredicted = shownTask.value("predicted", std::vector<double>());
    const auto shownTruth = shownTask.value("truth", std::vector<double>());
    ASSERT_EQ(shownPredicted.size(), 8u);
    auto* taskReport = report->taskReport();
    QScatterSeries* scatter = nullptr;
    for (auto* series : taskReport->firstChart()->chart()->series()) {
        if (auto* points = qobject_cast<QScatterSeries*>(series); points != nullptr) {
            scatter = points;
        }
    }
    ASSERT_NE(scatter, nullptr);
    ASSERT_EQ(scatter->count(), 8);
    for (int i = 0; i < 8; ++i) {
        EXPECT_DOUBLE_EQ(scatter->at(i).x(), shownTruth[static_cast<std::size_t>(i)]);
        EXPECT_DOUBLE_EQ(scatter->at(i).y(), shownPredicted[static_cast<std::size_t>(i)]);
    }
    EXPECT_TRUE(taskReport->secondChart()->isVisible());
    auto* residuals =
        qobject_cast<QAbstractBarSeries*>(taskReport->secondChart()->chart()->series().front());
    ASSERT_NE(residuals, nullptr);
    double counted = 0.0;
    for (int b = 0; b < residuals->barSets().front()->count(); ++b) {
        counted += residuals->barSets().front()->at(b);
    }
    EXPECT_EQ(counted, 8.0);
    // The residuals' axis names round values, none cut short (it named each bar's edge, cut to
    // "..." once the bars were narrow).
    EXPECT_NE(qobject_cast<QCategoryAxis*>(
                  taskReport->secondChart()->chart()->axes(Qt::Horizontal).front()),
              nullptr);
    expectLabelsWhole(taskReport->secondChart());
    EXPECT_TRUE(taskReport->figuresText().contains(
        QStringLiteral("RMSE %1").arg(shown(shownTask["figures"]["rmse"]))))
        << taskReport->figuresText().toStdString();
}

TEST_F(TaskDataset, ANonNumberTargetIsRefusedWithItsLine) {
    {
        std::ofstream csv(dir_ / "scores.csv");
        csv << "text,score\n";
        for (int i = 0; i < 30; ++i) {
            csv << kWords[i % 6] << "," << (i == 7 ? std::string("n/a") : std::to_string(0.5 * i))
                << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "scores.csv");
    chooseTask(TaskKind::Regression);
    EXPECT_FALSE(page()->hasData());
    EXPECT_TRUE(page()->errorText().contains(QStringLiteral("scores.csv")));
    EXPECT_TRUE(page()->errorText().contains(QStringLiteral("line 9")))
        << page()->errorText().toStdString();
    EXPECT_TRUE(page()->errorText().contains(QStringLiteral("n/a")))
        << page()->errorText().toStdString();
}

TEST_F(TaskDataset, ACoNLLFileLoadsWithItsEntitiesChecksTheTaskAndTrains) {
    int people = 0;
    int places = 0;
    {
        std::ofstream conll(dir_ / "tags.conll");
        conll << "-DOCSTART- O\n\n";
        for (int i = 0; i < 30; ++i) {
            conll << "the O\ncat B-PER\n";
            ++people;
            if (i % 3 == 0) {
                conll << "dog I-PER\n";
            }
            conll << "sat O\non O\nthe O\nmat B-LOC\n\n";
            ++places;
            if (i % 5 == 0) {
                conll << "today B-LOC\n\n";
                ++places;
            }
        }
    }
    openDatasetThroughTheDialog(dir_ / "tags.conll");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->task(), TaskKind::TokenClassification);
    EXPECT_TRUE(page()->taskGuessText().contains(QStringLiteral("CoNLL")))
        << page()->taskGuessText().toStdString();
    // The sentences and their tags in the preview.
    auto* preview = page()->findChild<QTableWidget*>(QStringLiteral("datasetPreview"));
    ASSERT_NE(preview, nullptr);
    EXPECT_EQ(preview->rowCount(), 36);
    EXPECT_EQ(preview->item(0, 1)->text(), QStringLiteral("the cat dog sat on the mat"));
    EXPECT_EQ(preview->item(0, 2)->text(), QStringLiteral("O B-PER I-PER O O O B-LOC"));
    // Entities per type: LOC, PER.
    auto* table = taskTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->rowCount(), 2);
    EXPECT_EQ(table->item(0, 0)->text(), QStringLiteral("LOC"));
    EXPECT_EQ(table->item(0, 1)->text().toInt(), places);
    EXPECT_EQ(table->item(1, 0)->text(), QStringLiteral("PER"));
    EXPECT_EQ(table->item(1, 1)->text().toInt(), people);
    EXPECT_EQ(table->item(1, 2)->text().toInt(), people + 10);  // cat, and dog on 10 of them
    EXPECT_EQ(bars(), (std::vector<double>{double(places), double(people)}));

    // Another task cannot read tagged words: said, and Start refuses; back to tagging.
    chooseTask(TaskKind::SingleLabel);
    EXPECT_FALSE(page()->hasData());
    EXPECT_TRUE(page()->errorText().contains(QStringLiteral("tags.conll holds tagged words")))
        << page()->errorText().toStdString();
    chooseTask(TaskKind::TokenClassification);
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();

    const auto run = trainOneEpoch();
    EXPECT_EQ(jobOfRun(run).data.task.kind, TaskKind::TokenClassification);
    const auto task = lastEvaluationTask(run.id);
    ASSERT_EQ(task.value("task", ""), "token-classification");
    expectLiveHeadline(task);

    // Model quality: entity precision, recall, F1, support and predicted per type.
    auto* report = openModelQuality(run.id);
    ASSERT_NE(report, nullptr);
    const auto shownTask = shownEvaluationTask(run.id, report);
    auto* perType = report->taskReport()->table();
    expectTableRows(perType, shownTask["per_type"], "type");
    ASSERT_EQ(perType->rowCount(), 2);
    for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(perType->item(r, 5)->text(), shown(shownTask["per_type"][r]["predicted"]));
    }
    // Under it, which type each true entity was given, as stored.
    ASSERT_TRUE(report->taskReport()->confusionTable()->isVisible());
    expectConfusionTable(report->taskReport()->confusionTable(), shownTask);
}

// "Runs of different tasks are compared only on what they share": a single-label run and a
// tagging run side by side show their losses, no metric line; Train again brings each run's task
// back into the dataset tab.
TEST_F(TaskDataset, RunsOfDifferentTasksCompareOnLossAndTrainAgainRestoresTheTask) {
    {
        std::ofstream conll(dir_ / "tags.conll");
        for (int i = 0; i < 30; ++i) {
            conll << "the O\ncat B-PER\nsat O\non O\nthe O\nmat B-LOC\n\n";
        }
    }
    openReviewsThroughTheDialog();
    EXPECT_EQ(page()->task(), TaskKind::SingleLabel);
    const auto reviews = trainOneEpoch();
    openDatasetThroughTheDialog(dir_ / "tags.conll");
    ASSERT_EQ(page()->task(), TaskKind::TokenClassification);
    const auto tags = trainOneEpoch();
    ASSERT_GT(reviews.id, 0);
    ASSERT_GT(tags.id, 0);

    clickRuns(window_->runsPage(), {reviews.id, tags.id});
    clickButton(window_->runsPage(), QStringLiteral("Compare"));
    ui::CompareDialog* compare = nullptr;
    for (auto* dialog : window_->runsPage()->findChildren<ui::CompareDialog*>()) {
        compare = dialog;
    }
    ASSERT_NE(compare, nullptr);
    EXPECT_TRUE(compare->metricTitle().contains(QStringLiteral("compared on their loss only")))
        << compare->metricTitle().toStdString();
    EXPECT_TRUE(compare->metricPoints(0).isEmpty());
    EXPECT_TRUE(compare->metricPoints(1).isEmpty());
    EXPECT_EQ(compare->curveCount(), 2);  // both losses
    compare->close();

    clickRuns(window_->runsPage(), {reviews.id});
    clickButton(window_->runsPage(), QStringLiteral("Train again"));
    EXPECT_EQ(page()->task(), TaskKind::SingleLabel);
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    clickRuns(window_->runsPage(), {tags.id});
    clickButton(window_->runsPage(), QStringLiteral("Train again"));
    EXPECT_EQ(page()->task(), TaskKind::TokenClassification);
    EXPECT_TRUE(page()->currentFile().endsWith(QStringLiteral("tags.conll")));
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();
}

TEST_F(TaskDataset, ACluenerSpanFileLoadsAsCharacterTags) {
    {
        std::ofstream json(dir_ / "cluener.json");
        for (int i = 0; i < 12; ++i) {
            json
                << R"({"text": "浙商银行企业信贷部叶老桂博士", "label": {"company": {"浙商银行": [[0, 3]]}, "name": {"叶老桂": [[9, 11]]}}})"
                << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "cluener.json");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->task(), TaskKind::TokenClassification);
    auto* preview = page()->findChild<QTableWidget*>(QStringLiteral("datasetPreview"));
    EXPECT_EQ(preview->rowCount(), 12);
    EXPECT_EQ(preview->item(0, 2)->text(),
              QStringLiteral("B-company I-company I-company I-company O O O O O B-name I-name "
                             "I-name O O"));
    ASSERT_EQ(taskTable()->rowCount(), 2);
    EXPECT_EQ(taskTable()->item(0, 0)->text(), QStringLiteral("company"));
    EXPECT_EQ(taskTable()->item(0, 1)->text().toInt(), 12);
    EXPECT_EQ(taskTable()->item(1, 2)->text().toInt(), 36);
}

}  // namespace
}  // namespace bert::test
