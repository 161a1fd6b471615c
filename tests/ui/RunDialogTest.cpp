// A stored run's dialog (Runs → Open): a run of many classes whose warnings pushed Close off the
// screen, charts left white under the dark palette, loss-axis labels that repeated, and the
// "predicted = true" line drawn under the points it is read against.
#include <cstdlib>
#include <fstream>
#include <set>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScreen>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QValueAxis>

#include "StudioFixture.h"
#include "common/Language.h"
#include "common/MetricsCharts.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/CompareDialog.h"
#include "runs/ModelReport.h"
#include "runs/ReliabilityDiagram.h"
#include "runs/RunDialog.h"
#include "runs/RunRecorder.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TaskReport.h"
#include "runs/TrainingJob.h"
#include "task/Calibration.h"
#include "training/OptionForm.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

class RunDialogs : public StudioFixture {
protected:
    /// A completed run of kind with these labels, steps (their losses) and evaluations,
    /// recorded as training records it; listed in the Runs tab (Refresh clicked).
    qint64 recordedRun(TaskKind kind, const std::vector<std::string>& labels,
                       const std::vector<double>& losses, const std::vector<EvalMetrics>& evals) {
        auto job = reviewsJob();
        job.data.task.kind = kind;
        std::int64_t id = 0;
        {
            RunStore store(dir_ / "runs.sqlite");
            NewRun run;
            run.name = toString(kind);
            run.config = {{"job", job.toJson()}};
            run.baseModel = (dir_ / "model").string();
            run.labels = labels;
            id = store.createRun(run);
        }
        {
            RunRecorder recorder(dir_ / "runs.sqlite", id);
            for (std::size_t i = 0; i < losses.size(); ++i) {
                StepMetrics step;
                step.step = i + 1;
                step.epoch = static_cast<double>(i + 1) / static_cast<double>(losses.size());
                step.loss = losses[i];
                step.examples = 8;
                recorder.onStep(step);
            }
            RunResult result;
            for (const auto& eval : evals) {
                recorder.onEvaluation(eval);
                result.finalEval = eval;
                result.bestEval = eval;
            }
            result.status = RunStatus::Completed;
            result.seconds = 60.0;
            recorder.onFinished(result);
        }
        clickButton(window_->runsPage(), QStringLiteral("Refresh"));
        return id;
    }

    /// Opens a run from the Runs tab (selected, then Open): its dialog, or null.
    ui::RunDialog* openRunDialog(qint64 runId) {
        clickRuns(window_->runsPage(), {runId});
        clickButton(window_->runsPage(), QStringLiteral("Open"));
        ui::RunDialog* dialog = nullptr;
        for (auto* found : window_->runsPage()->findChildren<ui::RunDialog*>()) {
            dialog = found;
        }
        EXPECT_NE(dialog, nullptr) << "no run dialog opened";
        return dialog;
    }

    /// A regression evaluation whose predictions equal the truth (0 to 9).
    static EvalMetrics perfectRegression() {
        std::vector<double> values;
        for (int i = 0; i < 10; ++i) {
            values.push_back(static_cast<double>(i));
        }
        EvalMetrics eval;
        eval.step = 4;
        eval.epoch = 1.0;
        eval.loss = 0.01;
        eval.task = {{"task", "regression"},
                     {"main", "rmse"},
                     {"higher_is_better", false},
                     {"figures", {{"rmse", 0.0}, {"mae", 0.0}, {"examples", 10}}},
                     {"predicted", values},
                     {"truth", values}};
        return eval;
    }
};

// A 500-class run's Model quality was 7,731 pixels tall: a "never predicted" line per class.
TEST_F(RunDialogs, ClassesNeverPredictedAreOneLineAndCloseStaysOnTheScreen) {
    constexpr std::size_t kClasses = 500;
    constexpr std::size_t kNever = 412;
    std::vector<std::string> labels;
    for (std::size_t c = 0; c < kClasses; ++c) {
        labels.push_back("topic" + std::to_string(c));
    }
    EvalMetrics eval;
    eval.step = 4;
    eval.epoch = 1.0;
    eval.loss = 2.5;
    eval.accuracy = 0.18;
    eval.macroF1 = 0.1;
    eval.confusion.assign(kClasses, std::vector<std::int64_t>(kClasses, 0));
    for (std::size_t t = 0; t < kClasses; ++t) {
        // The first kNever classes are always taken for the last one.
        eval.confusion[t][t < kNever ? kClasses - 1 : t] = 2;
    }
    const auto run = recordedRun(TaskKind::SingleLabel, labels, {2.0, 1.9}, {eval});
    auto* report = openModelQualityOf(run);
    ASSERT_NE(report, nullptr);
    auto* dialog = report->window();

    const auto warnings = report->warningText();
    EXPECT_TRUE(warnings.contains(QStringLiteral("412 classes never predicted: topic0, topic1")))
        << warnings.left(300).toStdString();
    EXPECT_TRUE(warnings.contains(QStringLiteral("and 402 more"))) << warnings.toStdString();
    EXPECT_FALSE(warnings.contains(QStringLiteral("topic100"))) << "every class named";
    EXPECT_LT(warnings.count(QLatin1Char('\n')), 5) << warnings.left(300).toStdString();

    // The dialog fits the screen, and so does its Close button.
    const auto screen = dialog->screen()->availableGeometry();
    EXPECT_LE(dialog->sizeHint().height(), screen.height());
    EXPECT_LE(dialog->minimumSizeHint().height(), screen.height());
    EXPECT_LE(dialog->height(), screen.height());
    auto* buttons = dialog->findChild<QDialogButtonBox*>();
    ASSERT_NE(buttons, nullptr);
    auto* close = buttons->button(QDialogButtonBox::Close);
    ASSERT_NE(close, nullptr);
    EXPECT_TRUE(close->isVisible());
    const QRect closeInDialog(close->mapTo(dialog, QPoint(0, 0)), close->size());
    EXPECT_TRUE(dialog->rect().contains(closeInDialog))
        << "Close at y " << closeInDialog.y() << " in a dialog " << dialog->height() << " tall";
    // The warnings scroll in an area a few lines tall.
    auto* area = report->findChild<QScrollArea*>();
    ASSERT_NE(area, nullptr);
    EXPECT_LE(area->height(), 10 * report->fontMetrics().lineSpacing());
    QTest::mouseClick(close, Qt::LeftButton);
    EXPECT_FALSE(dialog->isVisible()) << "Close did not close the dialog";
}

// Under the dark palette the run dialog's charts stayed white (only the window's were switched).
TEST_F(RunDialogs, ChartsOfARunOpenedUnderTheDarkPaletteAreDark) {
    const auto run =
        recordedRun(TaskKind::Regression, {"score"}, {1.0, 0.5, 0.25, 0.2}, {perfectRegression()});
    auto* dark = window_->menuAction(QStringLiteral("Dark palette"));
    ASSERT_NE(dark, nullptr);
    dark->trigger();
    ASSERT_TRUE(dark->isChecked());
    auto* dialog = openRunDialog(run);
    if (dialog != nullptr) {
        dialog->showReport();
        const auto views = dialog->findChildren<QChartView*>();
        EXPECT_GE(views.size(), 5);  // four curves, the scatter and the residuals
        for (auto* view : views) {
            EXPECT_EQ(view->chart()->theme(), QChart::ChartThemeDark)
                << view->chart()->title().toStdString();
        }
    }
    dark->trigger();  // the palette is the application's: light again for the next tests
    EXPECT_FALSE(dark->isChecked());
}

// Ticks 0.002 apart read "1.23", "1.24", "1.24", "1.24": three significant digits.
TEST_F(RunDialogs, LossAxisLabelsAreAllDifferent) {
    const auto run =
        recordedRun(TaskKind::SingleLabel, {"neg", "pos"}, {1.2441, 1.2392, 1.2363, 1.2341}, {});
    auto* dialog = openRunDialog(run);
    ASSERT_NE(dialog, nullptr);
    auto* axis = dialog->charts()->lossValueAxis();
    ASSERT_GT(axis->tickInterval(), 0.0);
    ASSERT_LT(axis->tickInterval(), 0.01) << "the test needs ticks closer than 0.01";
    const auto format = axis->labelFormat().toUtf8();
    std::set<QString> labels;
    int ticks = 0;
    for (double tick = axis->min(); tick <= axis->max() + axis->tickInterval() / 2;
         tick += axis->tickInterval()) {
        labels.insert(QString::asprintf(format.constData(), tick));
        ++ticks;
    }
    EXPECT_GE(ticks, 3);
    EXPECT_EQ(static_cast<int>(labels.size()), ticks)
        << "format " << format.constData() << " repeats labels";
}

// The line a perfect model's points sit on was drawn under them: where a point is, the line
// must show.
TEST_F(RunDialogs, ThePredictedEqualsTrueLineIsDrawnOverThePoints) {
    const auto run =
        recordedRun(TaskKind::Regression, {"score"}, {1.0, 0.5}, {perfectRegression()});
    auto* report = openModelQualityOf(run);
    ASSERT_NE(report, nullptr);
    auto* view = report->taskReport()->firstChart();
    ASSERT_TRUE(waitUntil([&] { return view->isVisible() && view->width() > 100; }, 10000));
    auto* chart = view->chart();
    QLineSeries* line = nullptr;
    QScatterSeries* points = nullptr;
    for (auto* series : chart->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            points = scatter;
        } else if (auto* xy = qobject_cast<QLineSeries*>(series)) {
            line = xy;
        }
    }
    ASSERT_NE(line, nullptr);
    ASSERT_NE(points, nullptr);
    QApplication::processEvents();
    const auto image = view->grab().toImage();
    const auto at = view->mapFromScene(chart->mapToScene(chart->mapToPosition({5.0, 5.0}, line)));
    ASSERT_TRUE(image.rect().contains(at));
    const QColor seen = image.pixelColor(at * image.devicePixelRatio());
    auto distance = [&](const QColor& colour) {
        return std::abs(seen.red() - colour.red()) + std::abs(seen.green() - colour.green()) +
               std::abs(seen.blue() - colour.blue());
    };
    EXPECT_LT(distance(line->pen().color()), distance(points->color()))
        << "the point's colour where the line passes: " << seen.name().toStdString();
}

// A multi-label, regression or tagging run evaluated its last step twice: the event log said it
// twice and the store kept both.
TEST_F(RunDialogs, TheLastEvaluationOfARegressionRunIsMadeOnce) {
    {
        std::ofstream csv(dir_ / "scores.csv");
        csv << "review,score\n";
        for (int i = 0; i < 64; ++i) {
            csv << (i % 2 == 0 ? "\"i loved it, a great film !\""
                               : "\"the film was very bad , awful\"")
                << "," << (i % 2 == 0 ? 4.0 : 1.0) + 0.013 * i << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "scores.csv");
    ASSERT_TRUE(waitUntil([&] { return window_->datasetPage()->hasData(); }, 30000));
    ASSERT_EQ(window_->datasetPage()->task(), TaskKind::Regression)
        << window_->datasetPage()->taskGuessText().toStdString();
    chooseTinyModel();
    setConfig(quickConfig(1));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    const auto evaluations = store.evaluations(run);
    ASSERT_FALSE(evaluations.empty());
    std::set<std::size_t> steps;
    for (const auto& eval : evaluations) {
        steps.insert(eval.step);
    }
    EXPECT_EQ(steps.size(), evaluations.size()) << "a step evaluated twice";
    const auto last = QStringLiteral("evaluation at step %1:").arg(evaluations.back().step);
    int logged = 0;
    for (const auto& line : window_->trainingPage()->log()) {
        logged += line.contains(last) ? 1 : 0;
    }
    EXPECT_EQ(logged, 1) << window_->trainingPage()->log().join(QLatin1Char('\n')).toStdString();
}

// A single-label run trained through Start with Temperature scaling ticked: Model quality shows
// its reliability diagram (the diagonal and the bins as trained, and at the fitted temperature
// when the fit found one) and the expected calibration error, and says the run applies it. One
// review in seven has the other label, so that the validation set has errors to calibrate on.
TEST_F(RunDialogs, ModelQualityShowsTheReliabilityDiagramOfASingleLabelRun) {
    {
        std::ofstream csv(dir_ / "noisy.csv");
        csv << "review,sentiment\n";
        for (int i = 0; i < 120; ++i) {
            const bool positive = i % 2 == 0;
            csv << (positive ? "\"i loved it, a great film !\""
                             : "\"the film was very bad , awful\"")
                << "," << ((positive != (i % 7 == 0)) ? "pos" : "neg") << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "noisy.csv");
    ASSERT_TRUE(waitUntil([&] { return window_->datasetPage()->hasData(); }, 30000));
    chooseTinyModel();
    setConfig(quickConfig(2));
    auto* techniques = window_->techniquesPage();
    auto* scaling = qobject_cast<QCheckBox*>(techniques->options()->editor("temperature_scaling"));
    ASSERT_NE(scaling, nullptr);
    window_->tabs()->setCurrentWidget(techniques);
    scaling->click();
    ASSERT_TRUE(techniques->config().temperatureScaling);
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    const auto evaluations = store.evaluations(run);
    ASSERT_FALSE(evaluations.empty());
    const auto calibration = CalibrationReport::fromJson(evaluations.back().calibration);
    ASSERT_TRUE(calibration) << "every single-label evaluation measures it";

    auto* report = openModelQualityOf(run);
    ASSERT_NE(report, nullptr);
    report->showEvaluation(static_cast<int>(evaluations.size()) - 1);
    auto* diagram = report->reliabilityDiagram();
    ASSERT_NE(diagram, nullptr);
    EXPECT_TRUE(diagram->isVisibleTo(report));
    const auto summary = diagram->summary();
    EXPECT_TRUE(
        summary.contains(QStringLiteral("(ECE) %1").arg(calibration->before.ece, 0, 'f', 4)))
        << summary.toStdString();
    auto* chart = diagram->chartView()->chart();
    ASSERT_NE(chart, nullptr);
    EXPECT_EQ(chart->series().size(), calibration->temperature ? 3 : 2);
    if (calibration->temperature) {
        EXPECT_TRUE(summary.contains(QStringLiteral("Temperature scaling is on")))
            << summary.toStdString();
    } else {
        EXPECT_TRUE(summary.contains(QStringLiteral("No temperature"))) << summary.toStdString();
    }
    // With BERT_STUDIO_SCREENSHOTS=<folder>, the page as a user sees it (for docs/).
    if (const char* shots = std::getenv("BERT_STUDIO_SCREENSHOTS"); shots && *shots) {
        report->window()->resize(1100, 760);
        QTest::qWait(200);
        EXPECT_TRUE(report->window()->grab().save(QString::fromLocal8Bit(shots) +
                                                  QStringLiteral("/reliability-diagram.png")));
    }
}

// After a refresh the metric, peak, duration and disk columns were pushed off the table's right
// edge by a long name and model.
TEST_F(RunDialogs, TheRunsTablesNumberColumnsStayInViewAfterARefresh) {
    auto job = reviewsJob();
    {
        RunStore store(dir_ / "runs.sqlite");
        NewRun run;
        run.name =
            "a multilingual sentence encoder on the spring customer survey of every "
            "region, dynamic padding, gradient checkpointing, memory cap 600 MiB #1";
        run.config = {{"job", job.toJson()}};
        run.baseModel = (dir_ / "models--some-organisation--a-multilingual-sentence-encoder" /
                         "snapshots" / "0123456789abcdef0123456789abcdef01234567-and-more")
                            .string();
        const auto id = store.createRun(run);
        RunResult result;
        result.status = RunStatus::Completed;
        result.peakMemoryBytes = 300LL << 20;
        result.seconds = 3600.0;
        store.finishRun(id, result);
    }
    window_->resize(1280, 860);
    clickButton(window_->runsPage(), QStringLiteral("Refresh"));
    auto* table = window_->runsPage()->table();
    ASSERT_EQ(table->model()->rowCount(), 1);
    QApplication::processEvents();
    const int right = table->viewport()->width();
    for (const int column : {6, 7, 8, 9}) {  // best metric, peak, duration, disk
        EXPECT_LE(table->columnViewportPosition(column) + table->columnWidth(column), right)
            << table->model()->headerData(column, Qt::Horizontal).toString().toStdString()
            << " is past the edge";
    }
}

class ChineseRunDialogs : public RunDialogs {
protected:
    void SetUp() override {
        ASSERT_TRUE(ui::installLanguage(QStringLiteral("zh_CN")));
        RunDialogs::SetUp();
    }
    void TearDown() override {
        RunDialogs::TearDown();
        ui::installLanguage(QStringLiteral("en"));
    }
};

// Compare named a setting by its form label with the label's key: "批大小(B)".
TEST_F(ChineseRunDialogs, CompareNamesSettingsWithoutTheirKeys) {
    QList<qint64> runs;
    for (const std::size_t batch : {8U, 16U}) {
        auto job = reviewsJob();
        job.training.batchSize = batch;
        job.training.maxLength = 24 + batch;
        RunStore store(dir_ / "runs.sqlite");
        NewRun run;
        run.name = "batch " + std::to_string(batch);
        run.config = {{"job", job.toJson()}};
        run.baseModel = (dir_ / "model").string();
        const auto id = store.createRun(run);
        RunResult result;
        result.status = RunStatus::Completed;
        store.finishRun(id, result);
        runs << id;
    }
    clickButton(window_->runsPage(), QStringLiteral("refreshRuns"));
    clickRuns(window_->runsPage(), runs);
    clickButton(window_->runsPage(), QStringLiteral("比较(M)"));
    ui::CompareDialog* compare = nullptr;
    for (auto* dialog : window_->runsPage()->findChildren<ui::CompareDialog*>()) {
        compare = dialog;
    }
    ASSERT_NE(compare, nullptr);
    QStringList names;
    for (int row = 0; row < compare->differenceRows(); ++row) {
        names << compare->cell(row, 0);
    }
    EXPECT_TRUE(names.contains(QStringLiteral("批大小")))
        << names.join(QLatin1Char('|')).toStdString();
    static const QRegularExpression kKey(QStringLiteral("[(（][A-Za-z][)）]|&"));
    for (const auto& name : names) {
        EXPECT_FALSE(name.contains(kKey)) << name.toStdString();
    }
}

}  // namespace
}  // namespace bert::test
