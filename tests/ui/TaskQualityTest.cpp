// Issue 29, point 6, on stored runs whose figures are known: Compare judges each run by its
// task's headline metric (the lowest RMSE, the highest micro-F1), names it, and places runs on
// one scatter only when they share it; the NER Model quality tab shows the entity-type confusion
// table the evaluation stored, and none for a run stored before it existed. Each run is stored
// as training stores it (a job of its task, evaluations through RunRecorder, task reports made
// by core's own serialisers), then reached as a person reaches it: Refresh, the runs clicked in
// the table, Compare or Open.
#include <QAbstractButton>
#include <QChartView>
#include <QComboBox>
#include <QMessageBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

#include "StudioFixture.h"
#include "main/MainWindow.h"
#include "runs/CompareDialog.h"
#include "runs/ModelReport.h"
#include "runs/RunRecorder.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TaskReport.h"
#include "runs/TrainingJob.h"
#include "task/TaskMetricsJson.h"
#include "task/token/EntityMetrics.h"
#include "train/TrainingConfig.h"

namespace bert::test {
namespace {

constexpr std::int64_t kMiB = 1 << 20;

/// A regression evaluation's report, as RegressionObjective writes it.
nlohmann::json regressionReport(double rmse) {
    RegressionReport figures;
    figures.examples = 8;
    figures.rmse = rmse;
    figures.mae = rmse * 0.8;
    figures.pearson = 0.5;
    return {{"task", "regression"},
            {"main", "rmse"},
            {"higher_is_better", false},
            {"figures", toJson(figures)}};
}

/// A multi-label evaluation's report, as MultiLabelObjective writes it.
nlohmann::json multiLabelReport(double microF1, double macroF1, double subsetAccuracy = 0.25) {
    MultiLabelReport figures;
    figures.examples = 10;
    figures.microF1 = microF1;
    figures.macroF1 = macroF1;
    figures.subsetAccuracy = subsetAccuracy;  // what the run's "best accuracy" used to be
    auto json = toJson(figures);
    json.erase("per_label");
    return {{"task", "multi-label"},
            {"main", "micro_f1"},
            {"higher_is_better", true},
            {"figures", json}};
}

class TaskQuality : public StudioFixture {
protected:
    /// A completed run of kind over reviews.csv and the tiny model, with an evaluation per
    /// report, its peak memory and duration; listed in the Runs tab (Refresh clicked).
    qint64 storedTaskRun(TaskKind kind, const std::vector<nlohmann::json>& reports,
                         std::int64_t peakBytes) {
        TrainingJob job;
        job.modelFolder = dir_ / "model";
        job.data.trainFile = dir_ / "reviews.csv";
        job.data.columns.text = "review";
        job.data.columns.label = "sentiment";
        job.data.task.kind = kind;
        job.training = quickConfig(1);
        std::int64_t id = 0;
        {
            RunStore store(dir_ / "runs.sqlite");
            NewRun run;
            run.name = toString(kind);
            run.config = {{"job", job.toJson()}};
            run.baseModel = (dir_ / "model").string();
            id = store.createRun(run);
        }
        {  // recorded as training records: its end commits everything
            RunRecorder recorder(dir_ / "runs.sqlite", id);
            RunResult result;
            for (std::size_t i = 0; i < reports.size(); ++i) {
                EvalMetrics eval;
                eval.step = i + 1;
                eval.epoch = static_cast<double>(i + 1) / static_cast<double>(reports.size());
                eval.loss = 1.0 / static_cast<double>(i + 1);
                const auto& figures = reports[i]["figures"];
                // As the objectives fill them: regression has neither (0, 0).
                eval.accuracy = figures.value("subset_accuracy", 0.0);
                eval.macroF1 = figures.value("macro_f1", 0.0);
                eval.task = reports[i];
                recorder.onEvaluation(eval);
                result.finalEval = eval;
                result.bestEval = eval;
            }
            result.status = RunStatus::Completed;
            result.peakMemoryBytes = peakBytes;
            result.seconds = 60.0;
            recorder.onFinished(result);
        }
        clickButton(window_->runsPage(), QStringLiteral("Refresh"));
        return id;
    }

    /// Selects the runs in the Runs tab and clicks Compare.
    ui::CompareDialog* compare(const QList<qint64>& ids) {
        clickRuns(window_->runsPage(), ids);
        clickButton(window_->runsPage(), QStringLiteral("Compare"));
        ui::CompareDialog* dialog = nullptr;
        for (auto* found : window_->runsPage()->findChildren<ui::CompareDialog*>()) {
            dialog = found;
        }
        EXPECT_NE(dialog, nullptr) << "no Compare dialog opened";
        return dialog;
    }
};

// The bug: Compare's "best accuracy" row and its scatter read RunRecord::bestAccuracy,
// 0 for regression (it has no accuracy), and the highest value where the lowest RMSE is best.
TEST_F(TaskQuality, RegressionRunsCompareOnTheirLowestRmse) {
    // Run a's best is its second evaluation, neither its first nor its last nor its highest.
    const auto a = storedTaskRun(
        TaskKind::Regression, {regressionReport(2.0), regressionReport(0.8), regressionReport(1.1)},
        300 * kMiB);
    const auto b = storedTaskRun(TaskKind::Regression,
                                 {regressionReport(1.5), regressionReport(1.2)}, 500 * kMiB);
    auto* dialog = compare({a, b});
    ASSERT_NE(dialog, nullptr);
    const int best = dialog->rowOf(QStringLiteral("best RMSE"));
    ASSERT_GE(best, 0) << "the row is named by the runs' metric";
    EXPECT_EQ(dialog->cell(best, 1), QStringLiteral("0.8000"));
    EXPECT_EQ(dialog->cell(best, 2), QStringLiteral("1.2000"));
    EXPECT_EQ(dialog->rowOf(QStringLiteral("best accuracy")), -1);
    EXPECT_EQ(dialog->rowOf(QStringLiteral("best macro-F1")), -1)
        << "regression has no macro-F1 to show";
    // The scatter: each run at its peak memory and its lowest RMSE.
    ASSERT_EQ(dialog->scatterPoints(), 2);
    EXPECT_EQ(dialog->scatterPoint(0), QPointF(300.0, 0.8));
    EXPECT_EQ(dialog->scatterPoint(1), QPointF(500.0, 1.2));
    EXPECT_EQ(dialog->scatterTitle(), QStringLiteral("Peak memory against RMSE and duration"));
    EXPECT_EQ(dialog->scatterAxisTitle(), QStringLiteral("lowest RMSE"));
    // The curves overlay every evaluation's RMSE.
    EXPECT_TRUE(dialog->metricTitle().contains(QStringLiteral("RMSE")))
        << dialog->metricTitle().toStdString();
    const auto points = dialog->metricPoints(0);
    ASSERT_EQ(points.size(), 3);
    EXPECT_DOUBLE_EQ(points[1].y(), 0.8);
}

TEST_F(TaskQuality, MultiLabelRunsCompareOnTheirHighestMicroF1) {
    const auto a = storedTaskRun(
        TaskKind::MultiLabel,
        {multiLabelReport(0.5, 0.4), multiLabelReport(0.93, 0.85), multiLabelReport(0.9, 0.8)},
        200 * kMiB);
    const auto b = storedTaskRun(TaskKind::MultiLabel, {multiLabelReport(0.7, 0.6)}, 250 * kMiB);
    auto* dialog = compare({a, b});
    ASSERT_NE(dialog, nullptr);
    const int best = dialog->rowOf(QStringLiteral("best micro-F1"));
    ASSERT_GE(best, 0);
    EXPECT_EQ(dialog->cell(best, 1), QStringLiteral("0.9300"));
    EXPECT_EQ(dialog->cell(best, 2), QStringLiteral("0.7000"));
    EXPECT_EQ(dialog->rowOf(QStringLiteral("best accuracy")), -1)
        << "subset accuracy is not the multi-label headline";
    const int macro = dialog->rowOf(QStringLiteral("best macro-F1"));
    ASSERT_GE(macro, 0);
    EXPECT_EQ(dialog->cell(macro, 1), QStringLiteral("0.8500"));
    EXPECT_EQ(dialog->cell(macro, 2), QStringLiteral("0.6000"));
    ASSERT_EQ(dialog->scatterPoints(), 2);
    EXPECT_EQ(dialog->scatterPoint(0), QPointF(200.0, 0.93));
    EXPECT_EQ(dialog->scatterAxisTitle(), QStringLiteral("best micro-F1"));
}

// Runs of tasks judged by different metrics: each run's best, named; no scatter, and a note
// that says why; macro-F1 only where the task has one.
TEST_F(TaskQuality, RunsOfDifferentMetricsShowEachItsOwnAndNoScatter) {
    const auto regression = storedTaskRun(
        TaskKind::Regression, {regressionReport(0.9), regressionReport(0.7)}, 300 * kMiB);
    const auto multiLabel =
        storedTaskRun(TaskKind::MultiLabel,
                      {multiLabelReport(0.6, 0.5), multiLabelReport(0.93, 0.8)}, 400 * kMiB);
    auto* dialog = compare({regression, multiLabel});
    ASSERT_NE(dialog, nullptr);
    const int best = dialog->rowOf(QStringLiteral("best task metric"));
    ASSERT_GE(best, 0);
    EXPECT_EQ(dialog->cell(best, 1), QStringLiteral("0.7000 (RMSE)"));
    EXPECT_EQ(dialog->cell(best, 2), QStringLiteral("0.9300 (micro-F1)"));
    const int macro = dialog->rowOf(QStringLiteral("best macro-F1"));
    ASSERT_GE(macro, 0);
    EXPECT_EQ(dialog->cell(macro, 1), QStringLiteral("—"));
    EXPECT_EQ(dialog->cell(macro, 2), QStringLiteral("0.8000"));
    EXPECT_EQ(dialog->scatterPoints(), 0);
    EXPECT_TRUE(dialog->scatterTitle().contains(QStringLiteral("different metrics")))
        << dialog->scatterTitle().toStdString();
    EXPECT_TRUE(dialog->scatterTitle().contains(QStringLiteral("RMSE")) &&
                dialog->scatterTitle().contains(QStringLiteral("micro-F1")))
        << dialog->scatterTitle().toStdString();
    EXPECT_TRUE(dialog->metricTitle().contains(QStringLiteral("compared on their loss only")));
    // No empty quality chart is drawn beside the loss (an empty "accuracy" chart was): the loss
    // and the scatter's note only.
    int shownCharts = 0;
    for (auto* view : dialog->findChildren<QChartView*>()) {
        shownCharts += view->isVisibleTo(dialog) ? 1 : 0;
    }
    EXPECT_EQ(shownCharts, 2);
    // The job's settings are named as the form names them, not by their keys.
    EXPECT_GE(dialog->rowOf(QStringLiteral("Task")), 0);
    for (int row = 0; row < dialog->differenceRows(); ++row) {
        EXPECT_FALSE(dialog->cell(row, 0).startsWith(QStringLiteral("data.")))
            << dialog->cell(row, 0).toStdString();
    }
}

// The Runs tab's column showed "—" for every run but single-label (it read the stored
// accuracy, which only single-label stores): each run's best by its task's metric, named, as
// Compare shows it.
TEST_F(TaskQuality, RunsTabShowsEachRunsBestTaskMetricNamed) {
    const auto regression = storedTaskRun(
        TaskKind::Regression, {regressionReport(0.9), regressionReport(0.7), regressionReport(1.1)},
        300 * kMiB);
    const auto multiLabel =
        storedTaskRun(TaskKind::MultiLabel,
                      {multiLabelReport(0.6, 0.5), multiLabelReport(0.93, 0.8)}, 400 * kMiB);
    auto* table = window_->runsPage()->table();
    ASSERT_NE(table, nullptr);
    auto* model = table->model();
    int column = -1;
    for (int c = 0; c < model->columnCount(); ++c) {
        if (model->headerData(c, Qt::Horizontal).toString() == QStringLiteral("Best task metric")) {
            column = c;
        }
    }
    ASSERT_GE(column, 0) << "no \"Best task metric\" column";
    QMap<qint64, QString> shown;
    for (int r = 0; r < model->rowCount(); ++r) {
        shown[model->index(r, 0).data().toLongLong()] = model->index(r, column).data().toString();
    }
    EXPECT_EQ(shown.value(regression), QStringLiteral("0.7000 RMSE"));
    EXPECT_EQ(shown.value(multiLabel), QStringLiteral("0.9300 micro-F1"));
}

// "Best model by" defaulted to accuracy, which on a multi-label run is subset accuracy: Model
// quality marked as best an evaluation (micro-F1 0.62) other than the one the Runs tab and
// Compare call best (micro-F1 0.656). A run trained with the form's defaults is judged by its
// task's metric on every screen.
TEST_F(TaskQuality, MultiLabelRunWithDefaultSettingsHasOneBestOnEveryScreen) {
    const auto id = storedTaskRun(
        TaskKind::MultiLabel,
        {multiLabelReport(0.62, 0.5, 0.2), multiLabelReport(0.656, 0.55, 0.1)}, 200 * kMiB);
    auto* table = window_->runsPage()->table();
    ASSERT_NE(table, nullptr);
    QStringList row;
    for (int c = 0; c < table->model()->columnCount(); ++c) {
        row << table->model()->index(0, c).data().toString();
    }
    EXPECT_TRUE(row.contains(QStringLiteral("0.6560 micro-F1"))) << row.join('|').toStdString();
    auto* quality = openModelQualityOf(id);
    ASSERT_NE(quality, nullptr);
    EXPECT_EQ(quality->currentEvaluation(), 1) << "the best is the highest micro-F1";
    auto* chooser = quality->findChild<QComboBox*>();
    ASSERT_NE(chooser, nullptr);
    EXPECT_TRUE(chooser->itemText(1).contains(QStringLiteral("— best")))
        << chooser->itemText(1).toStdString();
    EXPECT_FALSE(chooser->itemText(0).contains(QStringLiteral("best")))
        << chooser->itemText(0).toStdString();
}

// The Runs tab's questions said "Delete 1 run(s)": one run is named, several counted.
TEST_F(TaskQuality, QuestionsAboutOneRunNameItAndCountSeveral) {
    const auto a = storedTaskRun(TaskKind::Regression, {regressionReport(0.9)}, 100 * kMiB);
    const auto b = storedTaskRun(TaskKind::Regression, {regressionReport(0.8)}, 100 * kMiB);
    auto question = [&](const QList<qint64>& ids, const QString& button) {
        clickRuns(window_->runsPage(), ids);
        auto text = std::make_shared<QString>();
        const auto asked = whenModal([text](QWidget* dialog) {
            auto* box = qobject_cast<QMessageBox*>(dialog);
            ASSERT_NE(box, nullptr);
            *text = box->text();
            QTest::mouseClick(box->button(QMessageBox::No), Qt::LeftButton);
        });
        clickButton(window_->runsPage(), button);
        EXPECT_TRUE(waitUntil([&] { return *asked; }, 30000)) << "no question";
        return *text;
    };
    EXPECT_EQ(question({a}, QStringLiteral("Delete…")),
              QStringLiteral("Delete run %1 with its metrics and checkpoints? This cannot be "
                             "undone.")
                  .arg(a));
    EXPECT_TRUE(question({a, b}, QStringLiteral("Delete…")).startsWith("Delete 2 runs with"));
    EXPECT_TRUE(question({b}, QStringLiteral("Remove checkpoints…"))
                    .startsWith(QStringLiteral("Remove the checkpoints of run %1? Its").arg(b)));
    EXPECT_TRUE(question({a, b}, QStringLiteral("Remove checkpoints…"))
                    .startsWith("Remove the checkpoints of 2 runs?"));
}

// The NER Model quality tab: under the per-type P/R/F1, the confusion the evaluation stored
// (made here by the engine from tags with a type confusion, a boundary error, a missed and a
// spurious entity); an evaluation stored before the table existed shows the per-type table
// and no confusion table.
TEST_F(TaskQuality, NerModelQualityShowsTheStoredEntityConfusion) {
    const std::vector<std::vector<std::string>> truth = {{"B-PER", "I-PER", "O", "B-LOC", "O"},
                                                         {"B-PER", "I-PER", "O", "O"},
                                                         {"B-ORG", "O", "B-PER"}};
    const std::vector<std::vector<std::string>> predicted = {
        {"B-ORG", "I-ORG", "O", "B-LOC", "O"}, {"B-PER", "O", "O", "B-LOC"}, {"B-ORG", "O", "O"}};
    // As TokenObjective stores it.
    auto report = toJson(entityReport(truth, predicted, EntityMode::Conlleval));
    report["task"] = "token-classification";
    report["main"] = "entity_f1";
    report["higher_is_better"] = true;
    const auto& perType = report["per_type"];
    auto old = report;
    old.erase("entity_confusion");
    const auto current = storedTaskRun(TaskKind::TokenClassification, {report}, 100 * kMiB);
    const auto before = storedTaskRun(TaskKind::TokenClassification, {old}, 100 * kMiB);

    auto* quality = openModelQualityOf(current);
    ASSERT_NE(quality, nullptr);
    auto* taskReport = quality->taskReport();
    ASSERT_TRUE(taskReport->isVisible());
    EXPECT_EQ(taskReport->table()->rowCount(), 3);
    auto* table = taskReport->confusionTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->rowCount(), 4);
    ASSERT_EQ(table->columnCount(), 4);
    const QStringList rows = {"LOC", "ORG", "PER", "spurious"};
    const QStringList columns = {"LOC", "ORG", "PER", "missed"};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(table->verticalHeaderItem(i)->text(), rows[i]);
        EXPECT_EQ(table->horizontalHeaderItem(i)->text(), columns[i]);
    }
    // True LOC: right. True ORG: right. True PER: once as ORG over the same words, twice
    // missed (one a word short, whose prediction is a spurious PER). A LOC from nothing.
    const QStringList cells = {"1", "0", "0", "0",  //
                               "0", "1", "0", "0",  //
                               "0", "1", "0", "2",  //
                               "1", "0", "1", ""};
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) {
            EXPECT_EQ(table->item(r, c)->text(), cells[r * 4 + c])
                << "row " << r << " column " << c;
        }
    }
    // The diagonal is the per-type table's true positives, and stands out.
    for (int t = 0; t < 3; ++t) {
        EXPECT_EQ(table->item(t, t)->text().toULongLong(),
                  perType[t]["true_positives"].get<std::size_t>());
        EXPECT_TRUE(table->item(t, t)->font().bold());
    }
    EXPECT_TRUE(table->toolTip().contains(QStringLiteral("exactly the same words")))
        << table->toolTip().toStdString();

    quality->window()->close();
    auto* older = openModelQualityOf(before);
    ASSERT_NE(older, nullptr);
    ASSERT_TRUE(older->taskReport()->isVisible());
    EXPECT_EQ(older->taskReport()->table()->rowCount(), 3);
    EXPECT_TRUE(older->taskReport()->table()->isVisible());
    EXPECT_FALSE(older->taskReport()->confusionTable()->isVisible());
}

}  // namespace
}  // namespace bert::test
