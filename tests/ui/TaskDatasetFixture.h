#pragma once

// The dataset tab per task (issue 29, point 6): what its tests share. A studio window
// (StudioFixture) and the ways a person reads and drives the dataset tab's task: the task combo
// box chosen with the keyboard, the task's chart and table, a run trained through Start and
// opened from the Runs tab.

#include <algorithm>
#include <vector>

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QTableWidget>
#include <QTest>

#include "StudioFixture.h"
#include "common/MetricsCharts.h"
#include "common/Names.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/ModelReport.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TaskReport.h"
#include "train/TrainingConfig.h"
#include "training/TrainingPage.h"

namespace bert::test {

class TaskDataset : public StudioFixture {
protected:
    ui::DatasetPage* page() const { return window_->datasetPage(); }
    QComboBox* taskCombo() const { return page()->findChild<QComboBox*>(QStringLiteral("task")); }
    QTableWidget* taskTable() const {
        return page()->findChild<QTableWidget*>(QStringLiteral("taskSummary"));
    }
    QChart* taskChart() const {
        return page()->findChild<QChartView*>(QStringLiteral("taskChart"))->chart();
    }
    /// The bars of the task's chart in reading order (a histogram's: those of the values in its
    /// bins, left to right; horizontal bars of counts: top to bottom, where Qt draws the last).
    std::vector<double> bars() const {
        std::vector<double> values;
        for (auto* series : taskChart()->series()) {
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(series); bars != nullptr) {
                for (int i = 0; i < bars->barSets().front()->count(); ++i) {
                    values.push_back(bars->barSets().front()->at(i));
                }
                if (series->type() == QAbstractSeries::SeriesTypeHorizontalBar) {
                    std::reverse(values.begin(), values.end());
                }
            }
        }
        return values;
    }
    /// Lays the chart out and draws it, then checks that no text it shows (axis labels, titles,
    /// legend) was cut short to "...".
    static void expectLabelsWhole(QChartView* view) {
        QCoreApplication::processEvents();  // the chart's pending layout
        view->grab();
        int shown = 0;
        for (auto* item : view->scene()->items()) {
            const auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (text == nullptr || !text->isVisible() || text->toPlainText().isEmpty()) {
                continue;
            }
            ++shown;
            EXPECT_FALSE(text->toPlainText().contains(QStringLiteral("...")) ||
                         text->toPlainText().contains(QChar(0x2026)))
                << view->chart()->title().toStdString() << ": "
                << text->toPlainText().toStdString();
        }
        EXPECT_GT(shown, 2);
    }
    /// Chooses a task with the keyboard, as a person does: focus on the combo box, arrow keys.
    void chooseTask(TaskKind kind) {
        auto* combo = taskCombo();
        bringToFront(combo);
        combo->setFocus();
        const int target = combo->findData(int(kind));
        while (combo->currentIndex() != target) {
            QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
        }
    }
    /// Trains one epoch through Start and returns the stored run, checked complete.
    RunRecord trainOneEpoch() {
        chooseTinyModel();
        setConfig(quickConfig(1));
        const auto runId = trainThroughTheStartButton();
        EXPECT_GT(runId, 0);
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        const auto run = store.run(runId);
        EXPECT_TRUE(run.has_value());
        if (!run) {
            return {};
        }
        EXPECT_EQ(run->status, RunStatus::Completed)
            << visibleMessages(window_.get()).toStdString();
        EXPECT_FALSE(store.evaluations(runId).empty());
        return *run;
    }
    /// Opens the run's Model quality tab from the Runs tab; its task's report is shown.
    ui::ModelReport* openModelQuality(qint64 runId) {
        auto* report = openModelQualityOf(runId);
        EXPECT_TRUE(report != nullptr && report->taskReport()->isVisible());
        return report;
    }
    /// The number the report shows for a stored figure.
    static QString shown(const nlohmann::json& value) {
        return value.is_number_integer() ? QString::number(value.get<std::int64_t>())
                                         : QString::number(value.get<double>(), 'f', 3);
    }
    /// Checks a metrics table's rows against the stored rows (name, P, R, F1, support).
    static void expectTableRows(QTableWidget* table, const nlohmann::json& rows,
                                const char* nameKey) {
        ASSERT_EQ(table->rowCount(), static_cast<int>(rows.size()));
        for (int r = 0; r < table->rowCount(); ++r) {
            const auto& row = rows[static_cast<std::size_t>(r)];
            EXPECT_EQ(table->item(r, 0)->text().toStdString(), row[nameKey].get<std::string>());
            EXPECT_EQ(table->item(r, 1)->text(), shown(row["precision"]));
            EXPECT_EQ(table->item(r, 2)->text(), shown(row["recall"]));
            EXPECT_EQ(table->item(r, 3)->text(), shown(row["f1"]));
            EXPECT_EQ(table->item(r, 4)->text(), shown(row["support"]));
        }
    }
    /// Checks the entity-type confusion table against the stored one: a row per true type and
    /// "spurious", a column per predicted type and "missed"; its diagonal is the true positives
    /// of the per-type table.
    static void expectConfusionTable(QTableWidget* table, const nlohmann::json& task) {
        const auto& stored = task["entity_confusion"];
        const int n = static_cast<int>(stored["types"].size());
        ASSERT_GT(n, 0);
        ASSERT_EQ(table->rowCount(), n + 1);
        ASSERT_EQ(table->columnCount(), n + 1);
        EXPECT_EQ(table->verticalHeaderItem(n)->text(), QStringLiteral("spurious"));
        EXPECT_EQ(table->horizontalHeaderItem(n)->text(), QStringLiteral("missed"));
        for (int t = 0; t < n; ++t) {
            const auto type = QString::fromStdString(stored["types"][t].get<std::string>());
            EXPECT_EQ(table->verticalHeaderItem(t)->text(), type);
            EXPECT_EQ(table->horizontalHeaderItem(t)->text(), type);
            for (int p = 0; p < n; ++p) {
                EXPECT_EQ(table->item(t, p)->text(), shown(stored["counts"][t][p]));
            }
            EXPECT_EQ(table->item(t, n)->text(), shown(stored["missed"][t]));
            EXPECT_EQ(table->item(n, t)->text(), shown(stored["spurious"][t]));
            EXPECT_EQ(table->item(t, t)->text(), shown(task["per_type"][t]["true_positives"]));
        }
    }
    /// The live quality chart ends at the last evaluation's headline figure, named for it.
    void expectLiveHeadline(const nlohmann::json& task) {
        auto* charts = window_->trainingPage()->charts();
        const auto main = task["main"].get<std::string>();
        EXPECT_TRUE(charts->qualityTitle().contains(ui::Names::figure(main)))
            << charts->qualityTitle().toStdString();
        EXPECT_EQ(charts->headlineSeries()->name(), ui::Names::figure(main));
        // The run has ended; the chart replots on a throttled timer, late on a loaded machine:
        // until then it may end at an earlier evaluation's point (it failed so in the full
        // suite, 2.7534 against the last evaluation's 2.7362). Waited for, not slept on.
        const double expected = task["figures"][main].get<double>();
        const auto endsAtTheLastEvaluation = [&] {
            const auto points = charts->headlineSeries()->points();
            return !points.isEmpty() && points.back().y() == expected;
        };
        waitUntil(endsAtTheLastEvaluation, 60000);
        ASSERT_FALSE(charts->headlineSeries()->points().isEmpty());
        EXPECT_DOUBLE_EQ(charts->headlineSeries()->points().back().y(), expected);
    }
    /// The task report of the evaluation the Model quality tab shows.
    nlohmann::json shownEvaluationTask(std::int64_t runId, const ui::ModelReport* report) {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        const auto evaluations = store.evaluations(runId);
        const auto index = report->currentEvaluation();
        EXPECT_GE(index, 0);
        return index >= 0 && index < static_cast<int>(evaluations.size())
                   ? evaluations[static_cast<std::size_t>(index)].task
                   : nlohmann::json();
    }
    nlohmann::json lastEvaluationTask(std::int64_t runId) {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        const auto evaluations = store.evaluations(runId);
        return evaluations.empty() ? nlohmann::json() : evaluations.back().task;
    }
};

}  // namespace bert::test
