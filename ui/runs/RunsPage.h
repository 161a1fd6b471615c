#pragma once

#include <QDialog>
#include <QWidget>

#include <filesystem>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
class QTableWidget;
class QChartView;
QT_END_NAMESPACE

namespace bert::ui {

class MetricsCharts;

/// Runs tab: every stored run in a sortable, filterable table (name, date, status, model,
/// techniques, best accuracy, peak memory, duration); rename in place, notes, delete with
/// confirmation; open a run's charts; compare runs; export a model, metrics CSV or chart PNG.
/// Reads the store on the GUI thread (short queries; the trainer writes from its own connection).
class RunsPage : public QWidget {
    Q_OBJECT

public:
    explicit RunsPage(std::filesystem::path database, QWidget* parent = nullptr);

    void refresh();
    int rowCount() const;
    /// Run ids of the selected rows.
    QList<qint64> selectedRuns() const;
    void selectRuns(const QList<qint64>& runIds);
    QTableView* table() const { return table_; }

    /// Opens the chart viewer of a run (non-modal); returns it for tests.
    QDialog* openRun(qint64 runId);
    /// Opens the comparison of runs (non-modal); returns it for tests.
    QDialog* compare(const QList<qint64>& runIds);
    /// Exports a run's model as a transformers folder with its run card; returns an error or "".
    QString exportModel(qint64 runId, const QString& folder);

Q_SIGNALS:
    void runsChanged();

private:
    void deleteSelected();
    void editNotes();
    void exportSelected();

    std::filesystem::path database_;
    QStandardItemModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    bool loading_ = false;
};

/// Charts of one stored run, with PNG and CSV export.
class RunDialog : public QDialog {
    Q_OBJECT

public:
    RunDialog(const std::filesystem::path& database, qint64 runId, QWidget* parent = nullptr);
    MetricsCharts* charts() const { return charts_; }

private:
    MetricsCharts* charts_;
};

/// Runs overlaid by step or by epoch, their setting differences, and peak memory against
/// accuracy and duration.
class CompareDialog : public QDialog {
    Q_OBJECT

public:
    CompareDialog(const std::filesystem::path& database, const QList<qint64>& runIds, QWidget* parent = nullptr);
    int curveCount() const;
    int differenceRows() const;

private:
    void drawCurves();

    std::filesystem::path database_;
    QList<qint64> runIds_;
    QComboBox* axis_;
    QChartView* lossView_;
    QChartView* accuracyView_;
    QChartView* scatterView_;
    QTableWidget* differences_;
};

}  // namespace bert::ui
