#include "common/MetricsCharts.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QGridLayout>
#include <QLineSeries>
#include <QPainter>
#include <QPixmap>
#include <QValueAxis>

#include "common/Format.h"
#include "runs/RunStore.h"

namespace bert::ui {

namespace {

void fitAxes(QValueAxis* x, QValueAxis* y,
             const std::initializer_list<const QList<QPointF>*> lists) {
    double maxX = 1.0;
    double minY = 0.0;
    double maxY = 0.0;
    bool any = false;
    for (const auto* list : lists) {
        for (const auto& point : *list) {
            maxX = std::max(maxX, point.x());
            maxY = any ? std::max(maxY, point.y()) : point.y();
            minY = any ? std::min(minY, point.y()) : std::min(0.0, point.y());
            any = true;
        }
    }
    x->setRange(0.0, maxX);
    // Whole steps: never more ticks than steps, or "%d" labels repeat ("0 0 0 0 1").
    x->setTickCount(std::clamp(static_cast<int>(maxX) + 1, 2, 5));
    y->setRange(minY, maxY > minY ? maxY * 1.05 : minY + 1.0);
}
}  // namespace

MetricsCharts::MetricsCharts(QWidget* parent) : QWidget(parent) {
    lossChart_ = makeChart(tr("Loss"), tr("loss"));
    qualityChart_ = makeChart(tr("Validation accuracy and macro-F1"), tr("score"));
    memoryChart_ = makeChart(tr("Memory"), tr("MiB"));
    speedChart_ = makeChart(tr("Throughput"), tr("samples/s"));
    lossSeries_ = addSeries(lossChart_, tr("training"));
    validationLossSeries_ = addSeries(lossChart_, tr("validation"));
    accuracySeries_ = addSeries(qualityChart_, tr("accuracy"));
    f1Series_ = addSeries(qualityChart_, tr("macro-F1"));
    memoryCurrentSeries_ = addSeries(memoryChart_, tr("current"));
    memoryPeakSeries_ = addSeries(memoryChart_, tr("peak"));
    memoryReservedSeries_ = addSeries(memoryChart_, tr("reserved"));
    forecastSeries_ = addSeries(memoryChart_, tr("forecast"));
    QPen dashed = forecastSeries_->pen();
    dashed.setStyle(Qt::DashLine);
    forecastSeries_->setPen(dashed);
    speedSeries_ = addSeries(speedChart_, tr("samples/s"));
    // Evaluations are few (one per epoch): markers show even a single one.
    for (auto* series : {validationLossSeries_, accuracySeries_, f1Series_}) {
        series->setPointsVisible(true);
    }

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(lossChart_.view, 0, 0);
    layout->addWidget(qualityChart_.view, 0, 1);
    layout->addWidget(memoryChart_.view, 1, 0);
    layout->addWidget(speedChart_.view, 1, 1);

    redrawTimer_.setSingleShot(true);
    redrawTimer_.setInterval(kRedrawIntervalMs);
    connect(&redrawTimer_, &QTimer::timeout, this, &MetricsCharts::redraw);
    redraw();  // empty charts get sensible axes too
}

MetricsCharts::Chart MetricsCharts::makeChart(const QString& title, const QString& yTitle) {
    Chart c;
    c.chart = new QChart();
    c.chart->setTitle(title);
    c.chart->legend()->setAlignment(Qt::AlignBottom);
    c.chart->setMargins(QMargins(4, 4, 4, 4));
    c.x = new QValueAxis();
    c.x->setTitleText(tr("step"));
    c.x->setLabelFormat("%d");
    c.y = new QValueAxis();
    c.y->setTitleText(yTitle);
    c.chart->addAxis(c.x, Qt::AlignBottom);
    c.chart->addAxis(c.y, Qt::AlignLeft);
    c.view = new QChartView(c.chart, this);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumSize(260, 180);
    return c;
}

QLineSeries* MetricsCharts::addSeries(Chart& chart, const QString& name) {
    auto* series = new QLineSeries();
    series->setName(name);
    chart.chart->addSeries(series);
    series->attachAxis(chart.x);
    series->attachAxis(chart.y);
    return series;
}

void MetricsCharts::clear() {
    for (auto* list :
         {&loss_, &validationLoss_, &accuracy_, &f1_, &current_, &peak_, &reserved_, &speed_}) {
        list->clear();
    }
    forecastMiB_ = 0.0;
    redraw();
}

void MetricsCharts::addStep(const StepMetrics& m) {
    const auto x = static_cast<double>(m.step);
    if (std::isfinite(m.loss)) {  // a diverged step leaves a gap, not an axis to infinity
        loss_.append({x, m.loss});
    }
    current_.append({x, static_cast<double>(m.memory.current) / kBytesPerMiB});
    peak_.append({x, static_cast<double>(m.memory.peak) / kBytesPerMiB});
    reserved_.append({x, static_cast<double>(m.memory.reserved) / kBytesPerMiB});
    speed_.append({x, m.samplesPerSecond});
    scheduleRedraw();
}

void MetricsCharts::addEvaluation(const EvalMetrics& m) {
    const auto x = static_cast<double>(m.step);
    if (std::isfinite(m.loss)) {
        validationLoss_.append({x, m.loss});
    }
    accuracy_.append({x, m.accuracy});
    f1_.append({x, m.macroF1});
    scheduleRedraw();
}

void MetricsCharts::setForecast(std::int64_t bytes) {
    forecastMiB_ = static_cast<double>(bytes) / kBytesPerMiB;
    scheduleRedraw();
}

void MetricsCharts::loadRun(RunStore& store, std::int64_t runId) {
    clear();
    for (const auto& step : store.steps(runId)) {
        addStep(step);
    }
    for (const auto& evaluation : store.evaluations(runId)) {
        addEvaluation(evaluation);
    }
    if (const auto run = store.run(runId)) {
        setForecast(run->forecastBytes);
    }
    redraw();
}

void MetricsCharts::scheduleRedraw() {
    if (!redrawTimer_.isActive()) {
        redrawTimer_.start();
    }
}

void MetricsCharts::redraw() {
    ++redraws_;
    lossSeries_->replace(loss_);
    validationLossSeries_->replace(validationLoss_);
    accuracySeries_->replace(accuracy_);
    f1Series_->replace(f1_);
    memoryCurrentSeries_->replace(current_);
    memoryPeakSeries_->replace(peak_);
    memoryReservedSeries_->replace(reserved_);
    const double lastStep = loss_.isEmpty() ? 1.0 : loss_.back().x();
    QList<QPointF> forecast;
    if (forecastMiB_ > 0.0) {
        forecast = {{0.0, forecastMiB_}, {lastStep, forecastMiB_}};
    }
    forecastSeries_->replace(forecast);
    speedSeries_->replace(speed_);
    fitAxes(lossChart_.x, lossChart_.y, {&loss_, &validationLoss_});
    fitAxes(qualityChart_.x, qualityChart_.y, {&accuracy_, &f1_});
    qualityChart_.y->setRange(0.0, 1.0);
    fitAxes(memoryChart_.x, memoryChart_.y, {&current_, &peak_, &reserved_, &forecast});
    fitAxes(speedChart_.x, speedChart_.y, {&speed_});
}

bool MetricsCharts::savePng(const QString& file) {
    redraw();
    return grab().save(file, "PNG");
}

}  // namespace bert::ui
