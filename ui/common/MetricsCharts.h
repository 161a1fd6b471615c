#pragma once

#include <cstdint>
#include <map>

#include <QElapsedTimer>
#include <QList>
#include <QPen>
#include <QPointF>
#include <QTimer>
#include <QWidget>

#include "train/TrainerEvents.h"

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class QColor;
class QSlider;
QT_END_NAMESPACE

namespace bert {
class RunStore;
}

namespace bert::ui {

/// Four live charts of one run: loss (training, raw and smoothed; validation), the task's metric
/// (accuracy and macro-F1; micro-F1 for multi-label, RMSE and MAE for regression, entity F1 for
/// token classification), memory (current, peak, reserved, forecast, the cap when one is set, and
/// under data parallel each other rank's peak) and throughput. Axes end on round ticks (whole steps
/// on the x axes); the loss axis fits the data. A slider smooths the training loss (an exponential
/// moving average, debiased as TensorBoard does; the raw line stays, faint); hovering a line shows
/// its value; dragging a rectangle zooms, "Reset zoom" undoes it. Colours are fixed
/// (colour-blind-safe, and the same in light and dark themes); validation loss is dashed with
/// markers, so the two losses differ in greyscale too. Points are buffered; redraws happen at most
/// every kRedrawInterval through a single-shot timer, so a fast run cannot flood the GUI. GUI
/// thread only.
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
    /// The memory cap drawn on the memory chart (0: none).
    void setMemoryCap(std::int64_t bytes);
    /// Smoothing of the training loss, 0 (raw) to 0.99.
    void setSmoothing(double weight);
    double smoothing() const { return smoothing_; }
    /// The smoothed training loss shown now (for tests).
    QList<QPointF> smoothedLoss() const;
    /// Undoes every chart's zoom and fits the axes to the data again.
    void resetZoom();
    /// The theme of the charts changed (the dark palette): their fixed colours again.
    void themeChanged() { redraw(); }
    /// Fills the charts from a stored run.
    void loadRun(RunStore& store, std::int64_t runId);
    /// Saves the four charts as one PNG image. Returns false when the file cannot be written.
    bool savePng(const QString& file);

    int stepPoints() const { return static_cast<int>(speed_.size()); }  ///< steps shown
    int redrawCount() const { return redraws_; }
    /// The x axis of the loss chart and the y axis (for tests: round ticks, fitted range).
    QValueAxis* lossStepAxis() const { return lossChart_.x; }
    QValueAxis* lossValueAxis() const { return lossChart_.y; }
    /// Whether the training loss line marks its points (it does while it has a single one).
    bool lossPointsVisible() const;
    /// Whether the memory chart draws a cap line.
    bool showsMemoryCap() const;
    /// The quality chart's lines: the task's headline (accuracy for single-label; micro-F1,
    /// RMSE, entity F1 for the others) and its second figure (macro-F1, or MAE for regression).
    QLineSeries* headlineSeries() const { return accuracySeries_; }
    QLineSeries* secondSeries() const { return f1Series_; }
    QString qualityTitle() const;
    /// Lines of other ranks' peaks on the memory chart (data parallel), for tests.
    int rankPeakLines() const { return static_cast<int>(rankPeakSeries_.size()); }

private:
    void scheduleRedraw();
    /// Names the quality chart and its lines for a task's figures (main: its headline key;
    /// empty for single-label's accuracy and macro-F1).
    void nameQuality(const std::string& main);
    void redraw();

    struct Chart {
        QChart* chart = nullptr;
        QChartView* view = nullptr;
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
    };
    Chart makeChart(const QString& title, const QString& yTitle);
    QLineSeries* addSeries(Chart& chart, const QString& name, const QColor& colour,
                           Qt::PenStyle style = Qt::SolidLine, qreal width = 2.0);
    void fit(Chart& chart, const std::vector<const QList<QPointF>*>& lists, bool fromZero);

    Chart lossChart_;
    Chart qualityChart_;
    Chart memoryChart_;
    Chart speedChart_;
    QLineSeries* lossSeries_;
    QLineSeries* smoothedLossSeries_;
    QLineSeries* capSeries_;
    QLineSeries* validationLossSeries_;
    QLineSeries* accuracySeries_;
    QLineSeries* f1Series_;
    QLineSeries* memoryCurrentSeries_;
    QLineSeries* memoryPeakSeries_;
    QLineSeries* memoryReservedSeries_;
    QLineSeries* forecastSeries_;
    QLineSeries* speedSeries_;
    QList<QPointF> loss_, validationLoss_, accuracy_, f1_, current_, peak_, reserved_, speed_;
    /// Data parallel: the peak of ranks 1, 2, ... (rank 0's is peak_), each its own line,
    /// made when a step first brings that rank.
    std::vector<QList<QPointF>> rankPeaks_;
    std::vector<QLineSeries*> rankPeakSeries_;
    double forecastMiB_ = 0.0;
    double capMiB_ = 0.0;
    double smoothing_ = 0.6;             ///< TensorBoard's default
    std::map<QLineSeries*, QPen> pens_;  ///< reapplied after a theme change resets them
    QTimer redrawTimer_;
    QElapsedTimer lastRedraw_;  ///< since the last redraw (invalid before the first)
    int redraws_ = 0;
    std::string qualityMain_;  ///< the headline figure's key; empty: accuracy (single-label)
};

}  // namespace bert::ui
