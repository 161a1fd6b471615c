#pragma once

#include <filesystem>

#include <QWidget>

#include "runs/RunExport.h"

QT_BEGIN_NAMESPACE
class QDialog;
class QFileDialog;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;
QT_END_NAMESPACE

namespace bert::ui {

/// Runs tab: every stored run in a sortable, filterable table (name, date in the locale's
/// format, status, model, techniques, best accuracy, peak memory, duration, disk used); rename
/// in place, notes, delete with confirmation (the Delete key too; the question defaults to No),
/// remove a run's checkpoints and keep its record; open a run's charts (RunDialog); compare
/// runs (CompareDialog); export a model.
///
/// Reads open the store read-only on the GUI thread (short queries; the trainer writes from its
/// own connection); rename, notes and delete open it read-write. Every action goes through
/// guarded(): a locked, read-only or corrupt database shows a message and the studio goes on.
/// A list that cannot be read says why above the table (refresh() never pops a message up).
/// Export runs off the GUI thread (runAsync) and reports through exportFinished().
class RunsPage : public QWidget {
    Q_OBJECT

public:
    explicit RunsPage(std::filesystem::path database, QWidget* parent = nullptr);

    void refresh();
    int rowCount() const;
    /// Why the list could not be read, or empty.
    QString errorText() const;
    /// Run ids of the selected rows.
    QList<qint64> selectedRuns() const;
    void selectRuns(const QList<qint64>& runIds);
    QTableView* table() const { return table_; }

    /// Opens the chart viewer of a run (non-modal); returns it, or null (and a message) when the
    /// run cannot be read.
    QDialog* openRun(qint64 runId);
    /// The folder name the export dialog suggests for a run: "run-3-" and its name, in words.
    QString exportFolderName(qint64 runId) const;
    /// Opens the comparison of runs (non-modal); returns it, or null (and a message).
    QDialog* compare(const QList<qint64>& runIds);
    /// Starts writing a run's model as a transformers folder or as ONNX, with its run card, off
    /// the GUI thread; exportFinished() follows.
    void exportModel(qint64 runId, const QString& folder,
                     ExportFormat format = ExportFormat::Transformers);
    /// The Export button: asks for a new folder and a format (transformers or ONNX) in a file
    /// dialog, opened window-modal and returned (null and a notice unless one run is selected);
    /// accepting it starts exportModel().
    QFileDialog* exportSelected();
    /// Deletes runs with their checkpoints (no question asked; the Delete button asks first).
    void deleteRuns(const QList<qint64>& runIds);
    /// Removes runs' checkpoints and keeps their records (RunFiles.h); no question asked.
    void removeCheckpoints(const QList<qint64>& runIds);
    /// Renames a run (as editing its name in the table does).
    void renameRun(qint64 runId, const QString& name);

Q_SIGNALS:
    void runsChanged();
    /// "Train again with these settings": the main window loads the run's job into the form.
    void trainAgainRequested(qint64 runId);
    /// An example of a run's Examples was double-clicked: try it with the run's model.
    void tryRequested(qint64 runId, const QString& text, const QString& pair);
    /// An export ended: error is empty when the folder was written.
    void exportFinished(qint64 runId, const QString& folder, const QString& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void deleteSelected();
    /// Columns fitted to their contents, the long text ones capped to a share of the table.
    void fitColumns();
    void removeSelectedCheckpoints();
    void editNotes();
    /// Shows a run's stored name again (after a rename that failed).
    void restoreName(qint64 runId);

    std::filesystem::path database_;
    QStandardItemModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_;
    QLineEdit* filter_;
    QLabel* error_;
    bool loading_ = false;
};

}  // namespace bert::ui
