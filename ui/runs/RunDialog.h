#pragma once

#include <filesystem>

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTabWidget;
QT_END_NAMESPACE

namespace bert::ui {

class MetricsCharts;
class ModelReport;

/// Charts of one stored run (read from a read-only store), with PNG and CSV export.
class RunDialog : public QDialog {
    Q_OBJECT

public:
    /// Throws what the store throws when the run cannot be read: open it through guarded().
    RunDialog(const std::filesystem::path& database, qint64 runId, QWidget* parent = nullptr);
    MetricsCharts* charts() const { return charts_; }
    ModelReport* report() const { return report_; }
    /// Brings the "Model quality" tab to the front.
    void showReport();

private:
    MetricsCharts* charts_;
    ModelReport* report_;
    QTabWidget* tabs_;
};

}  // namespace bert::ui
