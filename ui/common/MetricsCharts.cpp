#include "common/MetricsCharts.h"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include "common/ChartTheme.h"
#include "common/Format.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "runs/RunStore.h"
#include "train/Metrics.h"

namespace bert::ui {

namespace {

// Okabe-Ito colours: told apart by colour-blind readers, readable on light and dark themes.
const QColor kBlue(0, 114, 178);
const QColor kOrange(230, 159, 0);
const QColor kGreen(0, 158, 115);
const QColor kVermillion(213, 94, 0);
const QColor kPurple(204, 121, 167);
const QColor kSky(86, 180, 233);
const QColor kGrey(128, 128, 128);
// Ticks per axis at most.
constexpr int kMaxTicks = 6;
// The raw training loss behind the smoothed one.
constexpr int kFaintAlpha = 70;

}  // namespace

MetricsCharts::MetricsCharts(QWidget* parent) : QWidget(parent) {
    lossChart_ = makeChart(tr("Loss"), tr("loss"));
    qualityChart_ = makeChart(tr("Validation accuracy and macro-F1"), tr("score"));
    memoryChart_ = makeChart(tr("Memory"), tr("MiB"));
    speedChart_ = makeChart(tr("Throughput"), tr("samples/s"));
    QColor faint = kBlue;
    faint.setAlpha(kFaintAlpha);
    lossSeries_ = addSeries(lossChart_, tr("training (raw)"), faint, Qt::SolidLine, 1.0);
    smoothedLossSeries_ = addSeries(lossChart_, tr("training"), kBlue);
    validationLossSeries_ = addSeries(lossChart_, tr("validation"), kOrange, Qt::DashLine);
    accuracySeries_ = addSeries(qualityChart_, tr("accuracy"), kGreen);
    f1Series_ = addSeries(qualityChart_, tr("macro-F1"), kPurple, Qt::DashLine);
    memoryCurrentSeries_ = addSeries(memoryChart_, tr("current"), kSky);
    memoryPeakSeries_ = addSeries(memoryChart_, tr("peak"), kBlue);
    memoryReservedSeries_ = addSeries(memoryChart_, tr("reserved"), kGrey);
    forecastSeries_ = addSeries(memoryChart_, tr("forecast"), kOrange, Qt::DashLine);
    capSeries_ = addSeries(memoryChart_, tr("cap"), kVermillion, Qt::DotLine);
    speedSeries_ = addSeries(speedChart_, tr("samples/s"), kGreen);
    // Evaluations are few: markers show even a single one.
    for (auto* series : {validationLossSeries_, accuracySeries_, f1Series_}) {
        series->setPointsVisible(true);
    }

    auto* smoothingLabel = new QLabel(tr("Smoothin&g:"), this);
    auto* slider = new QSlider(Qt::Horizontal, this);
    slider->setRange(0, 99);
    slider->setValue(static_cast<int>(std::lround(smoothing_ * 100.0)));
    slider->setMaximumWidth(200);
    slider->setToolTip(
        tr("Exponential moving average of the training loss; the raw loss stays, "
           "faint. 0: raw."));
    smoothingLabel->setBuddy(slider);
    connect(slider, &QSlider::valueChanged, this,
            [this](int value) { setSmoothing(static_cast<double>(value) / 100.0); });
    auto* reset = new QPushButton(tr("Reset &zoom"), this);
    reset->setToolTip(tr("Drag a rectangle on a chart to zoom; this shows everything again."));
    connect(reset, &QPushButton::clicked, this, &MetricsCharts::resetZoom);
    auto* controls = new QHBoxLayout();
    controls->addWidget(smoothingLabel);
    controls->addWidget(slider);
    controls->addStretch();
    controls->addWidget(reset);

    auto* grid = new QGridLayout();
    grid->addWidget(lossChart_.view, 0, 0);
    grid->addWidget(qualityChart_.view, 0, 1);
    grid->addWidget(memoryChart_.view, 1, 0);
    grid->addWidget(speedChart_.view, 1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addLayout(grid, 1);

    redrawTimer_.setSingleShot(true);
    redrawTimer_.setInterval(kRedrawIntervalMs);
    connect(&redrawTimer_, &QTimer::timeout, this, &MetricsCharts::redraw);
    redraw();  // empty charts get sensible axes too
}

MetricsCharts::Chart MetricsCharts::makeChart(const QString& title, const QString& yTitle) {
    Chart c;
    c.chart = new QChart();
    // A run's dialog opened under the dark palette is dark from the start, as the window's.
    c.chart->setTheme(chartTheme());
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
    c.view->setRubberBand(QChartView::RectangleRubberBand);
    c.view->setMinimumSize(260, 180);
    return c;
}

QLineSeries* MetricsCharts::addSeries(Chart& chart, const QString& name, const QColor& colour,
                                      Qt::PenStyle style, qreal width) {
    auto* series = new QLineSeries();
    series->setName(name);
    chart.chart->addSeries(series);
    series->attachAxis(chart.x);
    series->attachAxis(chart.y);
    QPen pen(colour, width, style);
    pens_[series] = pen;
    series->setPen(pen);
    // Hover to read a point: the nearest point of this line.
    connect(series, &QLineSeries::hovered, this, [series](const QPointF& at, bool inside) {
        if (!inside || series->count() == 0) {
            QToolTip::hideText();
            return;
        }
        const auto points = series->points();
        const auto nearest =
            std::min_element(points.begin(), points.end(), [&](const QPointF& a, const QPointF& b) {
                return std::abs(a.x() - at.x()) < std::abs(b.x() - at.x());
            });
        QToolTip::showText(QCursor::pos(), tr("%1 at step %2: %3")
                                               .arg(series->name())
                                               .arg(nearest->x(), 0, 'f', 0)
                                               .arg(nearest->y(), 0, 'g', 4));
    });
    return series;
}

void MetricsCharts::fit(Chart& chart, const std::vector<const QList<QPointF>*>& lists,
                        bool fromZero) {
    if (chart.chart->isZoomed()) {
        return;  // the user's zoom stays until "Reset zoom"
    }
    double maxX = 1.0;
    double minY = fromZero ? 0.0 : 0.0;
    double maxY = 1.0;
    bool any = false;
    for (const auto* list : lists) {
        for (const auto& point : *list) {
            maxX = std::max(maxX, point.x());
            minY =
                any ? std::min(minY, point.y()) : (fromZero ? std::min(0.0, point.y()) : point.y());
            maxY = any ? std::max(maxY, point.y()) : point.y();
            any = true;
        }
    }
    setNiceRange(chart.x, 0.0, maxX, kMaxTicks, true);
    setNiceRange(chart.y, any ? minY : 0.0, any ? maxY : 1.0, kMaxTicks, false);
}

void MetricsCharts::clear() {
    for (auto* list :
         {&loss_, &validationLoss_, &accuracy_, &f1_, &current_, &peak_, &reserved_, &speed_}) {
        list->clear();
    }
    for (auto& list : rankPeaks_) {
        list.clear();
    }
    nameQuality({});
    forecastMiB_ = 0.0;
    capMiB_ = 0.0;
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
    for (std::size_t rank = 1; rank < m.rankMemory.size(); ++rank) {
        if (rankPeaks_.size() < rank) {
            // Other ranks' peaks: rank 0's colour, dotted, so the chart stays readable.
            rankPeaks_.emplace_back();
            rankPeakSeries_.push_back(
                addSeries(memoryChart_, tr("peak, rank %1").arg(rank), kBlue, Qt::DotLine, 1.5));
        }
        rankPeaks_[rank - 1].append(
            {x, static_cast<double>(m.rankMemory[rank].peak) / kBytesPerMiB});
    }
    scheduleRedraw();
}

void MetricsCharts::addEvaluation(const EvalMetrics& m) {
    const auto x = static_cast<double>(m.step);
    if (std::isfinite(m.loss)) {
        validationLoss_.append({x, m.loss});
    }
    if (m.task.is_object()) {
        const auto main = m.task.value("main", std::string());
        nameQuality(main);
        const auto figures = m.task.value("figures", nlohmann::json::object());
        const auto second = main == "rmse" ? "mae" : "macro_f1";
        const auto value = [&](const std::string& key) {
            const auto found = figures.find(key);
            return found != figures.end() && found->is_number() ? found->get<double>()
                                                                : std::nan("");
        };
        if (std::isfinite(value(main))) {
            accuracy_.append({x, value(main)});
        }
        if (std::isfinite(value(second))) {
            f1_.append({x, value(second)});
        }
    } else {
        nameQuality({});
        accuracy_.append({x, m.accuracy});
        f1_.append({x, m.macroF1});
    }
    scheduleRedraw();
}

void MetricsCharts::nameQuality(const std::string& main) {
    if (main == qualityMain_) {
        return;
    }
    qualityMain_ = main;
    if (main.empty()) {
        qualityChart_.chart->setTitle(tr("Validation accuracy and macro-F1"));
        accuracySeries_->setName(tr("accuracy"));
        f1Series_->setName(tr("macro-F1"));
        qualityChart_.y->setTitleText(tr("score"));
        return;
    }
    const auto second = main == "rmse" ? std::string("mae") : std::string("macro_f1");
    qualityChart_.chart->setTitle(
        tr("Validation %1 and %2").arg(Names::figure(main), Names::figure(second)));
    accuracySeries_->setName(Names::figure(main));
    f1Series_->setName(Names::figure(second));
    qualityChart_.y->setTitleText(main == "rmse" ? tr("error (target units)") : tr("score"));
}

QString MetricsCharts::qualityTitle() const {
    return qualityChart_.chart->title();
}

void MetricsCharts::setMemoryCap(std::int64_t bytes) {
    capMiB_ = static_cast<double>(std::max<std::int64_t>(0, bytes)) / kBytesPerMiB;
    scheduleRedraw();
}

bool MetricsCharts::lossPointsVisible() const {
    return smoothedLossSeries_->pointsVisible();
}

bool MetricsCharts::showsMemoryCap() const {
    return capSeries_->count() > 0 && capSeries_->isVisible();
}

void MetricsCharts::setSmoothing(double weight) {
    smoothing_ = std::clamp(weight, 0.0, 0.99);
    redraw();
}

QList<QPointF> MetricsCharts::smoothedLoss() const {
    // TensorBoard's smoothing: an exponential moving average, debiased so the first points are
    // not pulled towards zero.
    QList<QPointF> smoothed;
    double average = 0.0;
    double weight = 0.0;
    for (const auto& point : loss_) {
        average = smoothing_ * average + (1.0 - smoothing_) * point.y();
        weight = smoothing_ * weight + (1.0 - smoothing_);
        smoothed.append({point.x(), average / weight});
    }
    return smoothed;
}

void MetricsCharts::resetZoom() {
    for (auto* chart : {&lossChart_, &qualityChart_, &memoryChart_, &speedChart_}) {
        chart->chart->zoomReset();
    }
    redraw();
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
        const auto* training = trainingSettingsOfRunConfig(run->config);
        if (training != nullptr && training->contains("memory_cap_bytes") &&
            (*training)["memory_cap_bytes"].is_number_integer()) {
            setMemoryCap((*training)["memory_cap_bytes"].get<std::int64_t>());
        }
    }
    redraw();
}

void MetricsCharts::scheduleRedraw() {
    if (redrawTimer_.isActive()) {
        return;
    }
    // The first point after a quiet spell is drawn at the next turn of the event loop (points
    // that arrive together still make one redraw); later ones wait out the interval since the
    // last redraw, so a fast run redraws at most every kRedrawIntervalMs.
    const qint64 sinceLast = lastRedraw_.isValid() ? lastRedraw_.elapsed() : kRedrawIntervalMs;
    redrawTimer_.start(static_cast<int>(std::max<qint64>(0, kRedrawIntervalMs - sinceLast)));
}

void MetricsCharts::redraw() {
    ++redraws_;
    lastRedraw_.restart();
    // A theme change (the dark palette) resets series pens: ours are fixed.
    for (const auto& [series, pen] : pens_) {
        if (series->pen() != pen) {
            series->setPen(pen);
        }
    }
    const auto smoothed = smoothedLoss();
    lossSeries_->replace(loss_);
    // Only real changes: each of these relays the chart and its legend out.
    if (lossSeries_->isVisible() != (smoothing_ > 0.0)) {
        lossSeries_->setVisible(smoothing_ > 0.0);
    }
    smoothedLossSeries_->replace(smoothing_ > 0.0 ? smoothed : loss_);
    validationLossSeries_->replace(validationLoss_);
    accuracySeries_->replace(accuracy_);
    f1Series_->replace(f1_);
    memoryCurrentSeries_->replace(current_);
    memoryPeakSeries_->replace(peak_);
    memoryReservedSeries_->replace(reserved_);
    for (std::size_t i = 0; i < rankPeakSeries_.size(); ++i) {
        rankPeakSeries_[i]->replace(rankPeaks_[i]);
    }
    speedSeries_->replace(speed_);
    // A line of one point draws nothing: show the point.
    for (auto* series : {smoothedLossSeries_, memoryCurrentSeries_, memoryPeakSeries_,
                         memoryReservedSeries_, speedSeries_}) {
        if (series->pointsVisible() != (series->count() == 1)) {
            series->setPointsVisible(series->count() == 1);
        }
    }
    const double lastStep = std::max(1.0, loss_.isEmpty() ? 1.0 : loss_.back().x());
    QList<QPointF> forecast;
    if (forecastMiB_ > 0.0) {
        forecast = {{0.0, forecastMiB_}, {lastStep, forecastMiB_}};
    }
    forecastSeries_->replace(forecast);
    if (forecastSeries_->isVisible() != !forecast.isEmpty()) {
        forecastSeries_->setVisible(!forecast.isEmpty());
    }
    QList<QPointF> cap;
    if (capMiB_ > 0.0) {
        cap = {{0.0, capMiB_}, {lastStep, capMiB_}};
    }
    capSeries_->replace(cap);
    // No cap, no "cap" in the legend (a run without one listed a line it never drew).
    if (capSeries_->isVisible() != !cap.isEmpty()) {
        capSeries_->setVisible(!cap.isEmpty());
    }
    fit(lossChart_, {&loss_, &validationLoss_}, false);  // the loss axis fits the data
    // Scores always span 0 to 1: two points that fix the y range, at x 0.
    // (Errors in target units have no such range: they fit the data, from 0.)
    static const QList<QPointF> kUnitRange{{0.0, 0.0}, {0.0, 1.0}};
    if (qualityMain_ == "rmse") {
        fit(qualityChart_, {&accuracy_, &f1_}, true);
    } else {
        fit(qualityChart_, {&accuracy_, &f1_, &kUnitRange}, true);
    }
    std::vector<const QList<QPointF>*> memory = {&current_, &peak_, &reserved_, &forecast, &cap};
    for (const auto& list : rankPeaks_) {
        memory.push_back(&list);
    }
    fit(memoryChart_, memory, true);
    fit(speedChart_, {&speed_}, true);
}

bool MetricsCharts::savePng(const QString& file) {
    redraw();
    return grab().save(file, "PNG");
}

}  // namespace bert::ui
