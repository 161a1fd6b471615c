#pragma once

#include <filesystem>

#include <QDialog>

namespace bert::ui {

class MetricsCharts;

/// Charts of one stored run (read from a read-only store), with PNG and CSV export.
class RunDialog : public QDialog {
    Q_OBJECT

public:
    /// Throws what the store throws when the run cannot be read: open it through guarded().
    RunDialog(const std::filesystem::path& database, qint64 runId, QWidget* parent = nullptr);
    MetricsCharts* charts() const { return charts_; }

private:
    MetricsCharts* charts_;
};

}  // namespace bert::ui
