#include "runs/RunDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QPushButton>
#include <QScreen>
#include <QTabWidget>
#include <QVBoxLayout>

#include "common/Guard.h"
#include "common/MetricsCharts.h"
#include "runs/ExamplesView.h"
#include "runs/MetricsCsv.h"
#include "runs/ModelReport.h"
#include "runs/RunStore.h"
#include "train/Metrics.h"
#include "train/TrainingConfig.h"

namespace bert::ui {

RunDialog::RunDialog(const std::filesystem::path& database, qint64 runId, QWidget* parent)
    : QDialog(parent) {
    RunStore store(database, RunStore::Access::ReadOnly);
    const auto run = store.run(runId);
    setWindowTitle(
        tr("Run %1: %2").arg(runId).arg(run ? QString::fromStdString(run->name) : QString()));
    charts_ = new MetricsCharts(this);
    charts_->loadRun(store, runId);
    // The best evaluation by the run's own best_metric, as the trainer chose its best checkpoint.
    const auto evaluations = store.evaluations(runId);
    const BestMetric metric = run ? bestMetricOfRunConfig(run->config) : BestMetric::Accuracy;
    const auto* best = bestEvaluation(evaluations, metric);
    const std::size_t bestStep = best != nullptr ? best->step : 0;
    report_ = new ModelReport(evaluations, run ? run->labels : std::vector<std::string>{}, bestStep,
                              this);
    report_->setTemperatureScaling(
        run && run->config.value("/job/training/temperature_scaling"_json_pointer, false));
    examples_ = new ExamplesView(store.examples(runId),
                                 run ? run->labels : std::vector<std::string>{}, this);
    tabs_ = new QTabWidget(this);
    tabs_->addTab(charts_, tr("&Curves"));
    tabs_->addTab(report_, tr("&Model quality"));
    tabs_->addTab(examples_, tr("E&xamples"));
    // A cell of the confusion matrix lists its examples.
    connect(report_, &ModelReport::cellChosen, this, [this](int truth, int predicted) {
        examples_->showCell(truth, predicted);
        tabs_->setCurrentWidget(examples_);
    });
    connect(examples_, &ExamplesView::tryRequested, this,
            [this, runId](const QString& text, const QString& pair) {
                Q_EMIT tryRequested(runId, text, pair);
            });
    auto* savePng = new QPushButton(tr("Save charts as &PNG…"), this);
    connect(savePng, &QPushButton::clicked, this, [this] {
        const auto file = QFileDialog::getSaveFileName(this, tr("Save charts"), QString(),
                                                       tr("PNG images (*.png)"));
        if (!file.isEmpty() && !charts_->savePng(file)) {
            showNotice(this, tr("Save charts"), tr("%1 could not be written.").arg(file));
        }
    });
    auto* saveCsv = new QPushButton(tr("Export metrics as &CSV…"), this);
    connect(saveCsv, &QPushButton::clicked, this, [this, database, runId] {
        const auto file = QFileDialog::getSaveFileName(this, tr("Export metrics"), QString(),
                                                       tr("CSV files (*.csv)"));
        if (file.isEmpty()) {
            return;
        }
        guarded(this, tr("Export metrics"), [&] {
            RunStore runStore(database, RunStore::Access::ReadOnly);
            writeMetricsCsv(runStore, runId, file.toStdString());
        });
    });
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    // Ours, not Qt's: Qt's own translations are not always installed.
    close->button(QDialogButtonBox::Close)->setText(tr("&Close"));
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* buttons = new QHBoxLayout();
    buttons->addWidget(savePng);
    buttons->addWidget(saveCsv);
    buttons->addStretch();
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_, 1);
    layout->addLayout(buttons);
    // Never taller or wider than the screen: Close stays on it.
    resize(QSize(1000, 700).boundedTo(screen()->availableGeometry().size()));
}

void RunDialog::showReport() {
    tabs_->setCurrentWidget(report_);
}

}  // namespace bert::ui
