#pragma once

#include <filesystem>
#include <string>

#include <QDialog>
#include <QList>
#include <QPointF>

QT_BEGIN_NAMESPACE
class QChartView;
class QComboBox;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

/// Runs overlaid by step or by epoch, their setting differences and results, and peak memory
/// against their task's metric and duration. Runs are judged by their task's headline metric
/// (accuracy, micro-F1, RMSE, entity F1; the lowest where lower is better); runs of tasks with
/// different metrics show each its own and share no curve or scatter. Reads a read-only store.
class CompareDialog : public QDialog {
    Q_OBJECT

public:
    /// Throws what the store throws when the runs cannot be read: open it through guarded().
    CompareDialog(const std::filesystem::path& database, const QList<qint64>& runIds,
                  QWidget* parent = nullptr);
    /// A task's metric by its key as people call it: "accuracy", "micro-F1", "RMSE"...
    static QString metricName(const std::string& key);

    int curveCount() const;
    int differenceRows() const;
    /// The table's cell (row, column 0: the setting's name; column i: run i), for tests.
    QString cell(int row, int column) const;
    /// The row whose first cell is name, or -1.
    int rowOf(const QString& name) const;
    /// Runs placed on the memory-against-metric scatter, the scatter's title (or the note that
    /// replaces it), its vertical axis's title, and run i's point (peak MiB, best metric).
    int scatterPoints() const;
    QString scatterTitle() const;
    QString scatterAxisTitle() const;
    QPointF scatterPoint(int run) const;
    /// The quality chart's title (the runs' shared task metric) and its run i's points.
    QString metricTitle() const;
    QList<QPointF> metricPoints(int run) const;

private:
    void drawCurves();

    std::filesystem::path database_;
    QList<qint64> runIds_;
    QComboBox* axis_;
    QChartView* lossView_;
    QChartView* accuracyView_;
    QChartView* scatterView_;
    QTableWidget* differences_;
    std::string metric_;  ///< the runs' shared headline ("accuracy", "rmse"...); empty: none
    bool higherIsBetter_ = true;
};

}  // namespace bert::ui
