#pragma once

#include <cstdint>
#include <map>

#include <QList>
#include <QPointF>
#include <QTimer>
#include <QWidget>

#include "train/TrainerEvents.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace bert {
class RunStore;
}

namespace bert::ui {

/// Four live charts of one run: loss (training, validation), accuracy and macro-F1, memory
/// (current, peak, reserved, forecast) and throughput. Points are buffered; redraws happen at
/// most every kRedrawInterval through a single-shot timer, so a fast run cannot flood the GUI.
/// GUI thread only.
class MetricsCharts : public QWidget {
    Q_OBJECT

public:
    /// The least time between two redraws.
    static constexpr int kRedrawIntervalMs = 200;

    explicit MetricsCharts(QWidget* parent = nullptr);

    void clear();
    void addStep(const StepMetrics& metrics);
    void addEvaluation(const EvalMetrics& metrics);
    void setForecast(std::int64_t bytes);
    /// Fills the charts from a stored run.
    void loadRun(RunStore& store, std::int64_t runId);
    /// Saves the four charts as one PNG image. Returns false when the file cannot be written.
    bool savePng(const QString& file);

    int stepPoints() const { return static_cast<int>(speed_.size()); }  ///< steps shown
    int redrawCount() const { return redraws_; }

private:
    void scheduleRedraw();
    void redraw();

    struct Chart {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
    };
    Chart makeChart(const QString& title, const QString& yTitle);
    QLineSeries* addSeries(Chart& chart, const QString& name);

    Chart lossChart_;
    Chart qualityChart_;
    Chart memoryChart_;
    Chart speedChart_;
    QLineSeries* lossSeries_;
    QLineSeries* validationLossSeries_;
    QLineSeries* accuracySeries_;
    QLineSeries* f1Series_;
    QLineSeries* memoryCurrentSeries_;
    QLineSeries* memoryPeakSeries_;
    QLineSeries* memoryReservedSeries_;
    QLineSeries* forecastSeries_;
    QLineSeries* speedSeries_;
    QList<QPointF> loss_, validationLoss_, accuracy_, f1_, current_, peak_, reserved_, speed_;
    double forecastMiB_ = 0.0;
    QTimer redrawTimer_;
    int redraws_ = 0;
};

}  // namespace bert::ui
