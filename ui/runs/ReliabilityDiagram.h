#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

QT_BEGIN_NAMESPACE
class QChartView;
class QLabel;
QT_END_NAMESPACE

namespace bert::ui {

/// The calibration of an evaluation (task/Calibration.h): the reliability diagram, each bin's
/// accuracy against its mean confidence (multi-label: the share of labels present against
/// their probability) as trained and, for single-label, at the temperature fitted on
/// validation, beside the diagonal a calibrated model follows; and a line with the expected
/// calibration error before and after, and whether the run's predictions apply the temperature
/// (Temperature scaling). GUI thread only.
class ReliabilityDiagram : public QWidget {
    Q_OBJECT

public:
    explicit ReliabilityDiagram(QWidget* parent = nullptr);

    /// Shows an evaluation's calibration (EvalMetrics::calibration); applied: the run has
    /// temperature scaling on. An evaluation without one (stored before it was measured) says
    /// so and draws nothing.
    void showCalibration(const nlohmann::json& calibration, bool applied);
    /// The line above the chart (for tests).
    QString summary() const;
    QChartView* chartView() const { return view_; }

private:
    QLabel* summary_;
    QChartView* view_;
};

}  // namespace bert::ui
