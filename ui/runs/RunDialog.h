#pragma once

#include <filesystem>

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTabWidget;
QT_END_NAMESPACE

namespace bert::ui {

class ExamplesView;
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
    ExamplesView* examples() const { return examples_; }
    /// Brings the "Model quality" tab to the front.
    void showReport();

Q_SIGNALS:
    /// An example was double-clicked in Examples: try its text with this run's model.
    void tryRequested(qint64 runId, const QString& text, const QString& pair);

private:
    MetricsCharts* charts_;
    ModelReport* report_;
    ExamplesView* examples_;
    QTabWidget* tabs_;
};

}  // namespace bert::ui
