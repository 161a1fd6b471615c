#include "runs/ReliabilityDiagram.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QVBoxLayout>
#include <QValueAxis>

#include "common/ChartTheme.h"
#include "common/EngineText.h"
#include "task/Calibration.h"

namespace bert::ui {

namespace {

constexpr int kChartHeight = 260;
constexpr double kMarkerSize = 7.0;
constexpr int kTicks = 6;  // 0, 0.2, ..., 1

/// The bins that hold predictions, as (mean confidence, accuracy) joined by a line.
QLineSeries* binsSeries(const CalibrationFigures& figures, const QString& name) {
    auto* series = new QLineSeries();
    series->setName(name);
    series->setPointsVisible(true);
    series->setMarkerSize(kMarkerSize);
    for (const auto& bin : figures.bins) {
        if (bin.count > 0) {
            series->append(bin.confidence, bin.accuracy);
        }
    }
    return series;
}

}  // namespace

ReliabilityDiagram::ReliabilityDiagram(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("calibrationSummary"));
    summary_->setWordWrap(true);
    summary_->setToolTip(
        tr("Expected calibration error: the predictions grouped into 15 bins by their "
           "confidence, the mean gap between each bin's confidence and its accuracy, weighted by "
           "its share of the examples (Guo et al. 2017). 0: a probability of 0.8 is right 8 "
           "times in 10."));
    view_ = new QChartView(this);
    view_->setObjectName(QStringLiteral("reliabilityDiagram"));
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setMinimumHeight(kChartHeight);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(view_, 1);
}

QString ReliabilityDiagram::summary() const {
    return summary_->text();
}

void ReliabilityDiagram::showCalibration(const nlohmann::json& calibration, bool applied) {
    auto* chart = new QChart();
    chart->setTheme(chartTheme());
    chart->setTitle(tr("Reliability diagram"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    view_->setChart(chart);  // the view owns it, and deletes the one it had
    const auto report = CalibrationReport::fromJson(calibration);
    if (!report) {
        summary_->setText(tr("This evaluation has no calibration figures."));
        view_->hide();
        return;
    }
    view_->show();
    const bool binary = report->form == CalibrationForm::Binary;
    QString text =
        binary ? tr("Expected calibration error (ECE) %1, every label's probability against "
                    "whether the label is present.")
                     .arg(report->before.ece, 0, 'f', 4)
               : tr("Expected calibration error (ECE) %1.").arg(report->before.ece, 0, 'f', 4);
    if (report->temperature) {
        text += QLatin1Char(' ') +
                tr("At temperature %1, fitted on the validation set: ECE %2 (the labels "
                   "predicted stay the same).")
                    .arg(*report->temperature, 0, 'f', 2)
                    .arg(report->after.ece, 0, 'f', 4);
        text += QLatin1Char(' ') +
                (applied ? tr("Temperature scaling is on: predict, Try it and exports use it.")
                         : tr("Turn on Temperature scaling (Training tab) for predictions to "
                              "use it."));
    } else if (!report->problem.empty()) {
        text += QLatin1Char(' ') +
                tr("No temperature: %1.").arg(EngineText::translate(report->problem));
    }
    summary_->setText(text);

    auto* diagonal = new QLineSeries();
    diagonal->setName(tr("calibrated"));
    diagonal->append(0.0, 0.0);
    diagonal->append(1.0, 1.0);
    QPen dashed(Qt::gray);
    dashed.setStyle(Qt::DashLine);
    diagonal->setPen(dashed);
    QList<QAbstractSeries*> all{diagonal, binsSeries(report->before, tr("as trained"))};
    if (report->temperature) {
        all << binsSeries(report->after, tr("at T = %1").arg(*report->temperature, 0, 'f', 2));
    }
    auto* x = new QValueAxis();
    x->setRange(0.0, 1.0);
    x->setTitleText(binary ? tr("a label's probability") : tr("confidence"));
    x->setLabelFormat(QStringLiteral("%.1f"));
    x->setTickCount(kTicks);
    auto* y = new QValueAxis();
    y->setRange(0.0, 1.0);
    y->setTitleText(binary ? tr("share present") : tr("accuracy"));
    y->setLabelFormat(QStringLiteral("%.1f"));
    y->setTickCount(kTicks);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (auto* series : all) {
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
}

}  // namespace bert::ui
