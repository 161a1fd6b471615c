#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <QWidget>

#include "train/TrainerEvents.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

class ReliabilityDiagram;
class TaskReport;

/// "Model quality" of a stored run: for a chosen evaluation (the best by the run's metric, the
/// last, or any step), the task's report (TaskReport) for multi-label, regression and token
/// classification runs; for single-label ones the confusion matrix (counts, or each true label's
/// row as shares), the per-class precision, recall, F1 and support, the reliability diagram
/// (ReliabilityDiagram), and the warnings a practitioner must see (a class never predicted,
/// imbalanced labels, accuracy far above macro-F1; train/Metrics.h). GUI thread only; reads
/// nothing after construction.
class ModelReport : public QWidget {
    Q_OBJECT

public:
    /// evaluations in step order; bestStep: the step of the best evaluation (0: none).
    ModelReport(std::vector<EvalMetrics> evaluations, std::vector<std::string> labels,
                std::size_t bestStep, QWidget* parent = nullptr);

    /// Shows evaluation index (into the list given). For tests and the chooser.
    void showEvaluation(int index);
    /// The index of the evaluation shown (-1: none).
    int currentEvaluation() const { return current_; }
    /// The warnings shown now, one per line; empty when none. Classes never predicted are one
    /// line ("412 classes never predicted: a, b, … and 402 more"); the warnings' area is at most
    /// a few lines tall and scrolls.
    QString warningText() const;
    QTableWidget* confusionTable() const { return confusion_; }
    QTableWidget* classTable() const { return classes_; }
    /// The report of a task other than single-label (hidden for single-label runs).
    TaskReport* taskReport() const { return taskReport_; }
    /// Row-normalised shares instead of counts.
    void setNormalised(bool normalised);
    /// Whether the run applies its fitted temperature (the reliability diagram says so).
    void setTemperatureScaling(bool applied);
    ReliabilityDiagram* reliabilityDiagram() const { return calibration_; }

Q_SIGNALS:
    /// A cell of the confusion matrix was clicked: its true and predicted classes.
    void cellChosen(int truth, int predicted);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void refresh();
    /// The warnings' area as tall as their lines, up to a few; more scroll.
    void fitWarnings();

    std::vector<EvalMetrics> evaluations_;
    std::vector<std::string> labels_;
    int current_ = -1;
    QComboBox* chooser_;
    QCheckBox* normalised_;
    QTableWidget* confusion_;
    QTableWidget* classes_;
    QLabel* summary_;
    QLabel* warnings_;
    QScrollArea* warningsArea_;  ///< holds warnings_: a long list scrolls
    QWidget* singleLabel_;       ///< the confusion matrix and the per-class table
    ReliabilityDiagram* calibration_;
    bool temperatureScaling_ = false;
    TaskReport* taskReport_;
};

}  // namespace bert::ui
