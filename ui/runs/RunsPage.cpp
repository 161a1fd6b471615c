#include "runs/RunsPage.h"

#include <algorithm>

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableView>
#include <QVBoxLayout>

#include "common/AsyncTask.h"
#include "common/Format.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "export/OnnxExport.h"
#include "runs/CompareDialog.h"
#include "runs/RunCompare.h"
#include "runs/RunDialog.h"
#include "runs/RunExport.h"
#include "runs/RunFiles.h"
#include "runs/RunStore.h"

namespace bert::ui {

namespace {

enum Column {
    kId,
    kName,
    kCreated,
    kStatus,
    kModel,
    kTechniques,
    kBestMetric,
    kPeak,
    kDuration,
    kDisk,
    kColumns
};

/// The width the text columns are capped against before the table has its own.
constexpr int kMinimumRoom = 1000;

/// The folder of the last export (QSettings), where the next one is proposed.
constexpr const char* kLastExportFolder = "export/lastFolder";

/// Where an export is proposed: the folder of the last one, else the user's documents, else
/// home; never a folder that does not exist (the dialog then fell back to wherever it liked) or
/// a hidden one (~/.local/...).
QString proposedExportParent() {
    auto visibleFolder = [](const QString& folder) {
        if (folder.isEmpty() || !QFileInfo(folder).isDir()) {
            return false;
        }
        const auto parts = QDir::cleanPath(QFileInfo(folder).absoluteFilePath())
                               .split(QLatin1Char('/'), Qt::SkipEmptyParts);
        return std::none_of(parts.begin(), parts.end(),
                            [](const QString& part) { return part.startsWith(QLatin1Char('.')); });
    };
    const auto last = QSettings().value(kLastExportFolder).toString();
    if (visibleFolder(last)) {
        return last;
    }
    const auto documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    return visibleFolder(documents) ? documents : QDir::homePath();
}

QStandardItem* numberItem(double value, const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(value, Qt::UserRole);  // sorted by the number, not the text
    item->setEditable(false);
    return item;
}

/// A stored time (ISO 8601 UTC) in the user's time zone, written as the interface's locale
/// writes dates; the stored text when it cannot be read.
QString localTime(const std::string& iso) {
    auto time = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    if (!time.isValid()) {
        return QString::fromStdString(iso);
    }
    return QLocale().toString(time.toLocalTime(), QLocale::ShortFormat);
}

/// Asks a yes/no question whose default answer is No: Enter does not destroy anything.
bool confirm(QWidget* parent, const QString& title, const QString& text) {
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Yes | QMessageBox::No, parent);
    box.setDefaultButton(QMessageBox::No);
    return box.exec() == QMessageBox::Yes;
}

}  // namespace

RunsPage::RunsPage(std::filesystem::path database, QWidget* parent)
    : QWidget(parent), database_(std::move(database)) {
    model_ = new QStandardItemModel(0, kColumns, this);
    model_->setHorizontalHeaderLabels({tr("Id"), tr("Name"), tr("Date"), tr("Status"), tr("Model"),
                                       tr("Techniques"), tr("Best task metric"), tr("Peak memory"),
                                       tr("Duration"), tr("On disk")});
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setTabKeyNavigation(false);  // one Tab stop; the arrows move between runs
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->horizontalHeader()->setSectionResizeMode(kTechniques, QHeaderView::Stretch);
    table_->setTextElideMode(Qt::ElideMiddle);  // a name's start and its "#12" both show
    table_->verticalHeader()->hide();
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter runs (name, status, model, techniques…)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(model_, &QStandardItemModel::itemChanged, this, [this](QStandardItem* item) {
        if (loading_ || item->column() != kName) {
            return;
        }
        renameRun(model_->item(item->row(), kId)->data(Qt::UserRole).toLongLong(), item->text());
    });
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.column() != kName) {
            openRun(proxy_->data(proxy_->index(index.row(), kId), Qt::UserRole).toLongLong());
        }
    });

    auto button = [this](const QString& text, const QString& tip, auto slot) {
        auto* b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        return b;
    };
    auto* buttons = new QHBoxLayout();
    buttons->addWidget(filter_, 1);
    buttons->addWidget(button(tr("&Open"), tr("Show the run's charts"), [this] {
        if (!selectedRuns().isEmpty()) {
            openRun(selectedRuns().front());
        }
    }));
    buttons->addWidget(button(tr("Co&mpare"), tr("Overlay two or more selected runs"), [this] {
        if (selectedRuns().size() < 2) {
            showNotice(this, tr("Compare runs"), tr("Select two or more runs (Ctrl+click)."));
            return;
        }
        compare(selectedRuns());
    }));
    buttons->addWidget(button(tr("Train &again"),
                              tr("Load the selected run's dataset, model and settings into the "
                                 "form, to train again or change one thing"),
                              [this] {
                                  if (!selectedRuns().isEmpty()) {
                                      Q_EMIT trainAgainRequested(selectedRuns().front());
                                  }
                              }));
    buttons->addWidget(button(tr("&Notes…"), tr("Write notes on the run"), &RunsPage::editNotes));
    buttons->addWidget(button(tr("E&xport model…"),
                              tr("Write the run's model as a transformers folder or as ONNX, "
                                 "with a run card"),
                              [this] { exportSelected(); }));
    buttons->addWidget(button(tr("Remove check&points…"),
                              tr("Free the disk the selected runs' checkpoints take, keeping "
                                 "their records: metrics, charts and settings stay"),
                              &RunsPage::removeSelectedCheckpoints));
    buttons->addWidget(button(tr("&Delete…"),
                              tr("Delete the selected runs and their checkpoints (Delete)"),
                              &RunsPage::deleteSelected));
    // (Alt+F is the File menu's.)
    auto* refreshButton = button(tr("&Refresh"), tr("Reload the runs (F5)"), &RunsPage::refresh);
    refreshButton->setObjectName(QStringLiteral("refreshRuns"));
    buttons->addWidget(refreshButton);
    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    error_->setWordWrap(true);
    error_->hide();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(error_);
    layout->addWidget(table_, 1);
    connect(this, &RunsPage::exportFinished, this,
            [this](qint64 runId, const QString& folder, const QString& error) {
                if (error.isEmpty()) {
                    showNotice(this, tr("Export model"),
                               tr("Exported run %1 to %2. Its README.md says how to load it.")
                                   .arg(runId)
                                   .arg(folder));
                } else {
                    showNotice(this, tr("Export model"), error, /*warning=*/true);
                }
            });
    // Delete in the table deletes the selected runs (after asking); while a name is being
    // edited, the editor takes the key.
    // (A shortcut never sees the key: the table takes it first, so the table's key presses are
    // watched here.)
    table_->installEventFilter(this);
    table_->viewport()->installEventFilter(this);
    auto* hint = new QLabel(tr("Double-click a name to rename a run; double-click a row to open "
                               "it; Delete deletes the selected runs."),
                            this);
    layout->addWidget(hint);
    refresh();
}

bool RunsPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == table_->viewport() && event->type() == QEvent::Resize) {
        fitColumns();  // the caps are shares of the table's width
    }
    // A name being edited has its own editor, which takes its keys: they never come here.
    if (watched == table_ && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Delete)) {
        deleteSelected();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void RunsPage::refresh() {
    loading_ = true;
    model_->removeRows(0, model_->rowCount());
    error_->clear();
    try {
        RunStore store(database_, RunStore::Access::ReadOnly);
        for (const auto& run : store.runs()) {
            QList<QStandardItem*> row;
            row << numberItem(static_cast<double>(run.id), QString::number(run.id));
            auto* name = new QStandardItem(QString::fromStdString(run.name));
            name->setData(QString::fromStdString(run.name), Qt::UserRole);
            name->setToolTip(run.notes.empty()
                                 ? QString::fromStdString(run.name)
                                 : QString::fromStdString(run.name + "\n\n" + run.notes));
            row << name;
            auto* created = new QStandardItem(localTime(run.createdAt));
            created->setData(QString::fromStdString(run.createdAt), Qt::UserRole);  // sorts
            created->setToolTip(QString::fromStdString(run.createdAt));
            created->setEditable(false);
            row << created;
            auto* status = new QStandardItem(Names::status(run.status));
            status->setData(Names::status(run.status), Qt::UserRole);
            status->setToolTip(QString::fromStdString(run.error));
            status->setEditable(false);
            row << status;
            const auto model = QString::fromStdString(run.baseModel).section('/', -2);
            auto* modelItem = new QStandardItem(model);
            modelItem->setData(model, Qt::UserRole);
            modelItem->setToolTip(QString::fromStdString(run.baseModel));
            modelItem->setEditable(false);
            row << modelItem;
            const auto techniquesText = Names::techniques(run.config, run.techniques);
            auto* techniques = new QStandardItem(techniquesText);
            techniques->setData(techniquesText, Qt::UserRole);
            techniques->setEditable(false);
            row << techniques;
            // Each run's best by its task's metric, named as compare names it ("0.6560
            // micro-F1", "0.5760 RMSE"); a run that never evaluated has none: "—", sorted below
            // every real one.
            if (const auto best = bestTaskMetric(store.evaluations(run.id))) {
                row << numberItem(best->value,
                                  tr("%1 %2").arg(QString::number(best->value, 'f', 4),
                                                  CompareDialog::metricName(best->metric)));
            } else {
                row << numberItem(-1.0, QStringLiteral("—"));
            }
            row << numberItem(static_cast<double>(run.peakMemoryBytes), mib(run.peakMemoryBytes));
            row << numberItem(run.seconds, duration(run.seconds));
            const auto disk = runDiskBytes(store, run.id);
            auto* diskItem = numberItem(
                static_cast<double>(disk),
                disk == 0 ? QStringLiteral("—")
                          : QString::fromStdString(formatBytes(static_cast<double>(disk))));
            diskItem->setToolTip(QString::fromStdString(store.runFolder(run.id).string()));
            row << diskItem;
            model_->appendRow(row);
        }
    } catch (...) {
        const QString why = describeError(std::current_exception());
        qWarning("runs: %s", qUtf8Printable(why));
        error_->setText(tr("The runs cannot be listed: %1").arg(why));
    }
    error_->setVisible(!error_->text().isEmpty());
    loading_ = false;
    fitColumns();
}

void RunsPage::fitColumns() {
    table_->resizeColumnsToContents();
    // Auto names are long ("MiniLM on tickets.csv, dynamic padding, ... #12") and so are model
    // names (a cache's "snapshots/<40 hex digits>"): each is cut, in full in its tooltip, so
    // that the metric, peak, duration and disk columns stay on screen after every refresh (they
    // were pushed off it). The techniques column takes what is left.
    const int room = std::max(table_->viewport()->width(), kMinimumRoom);
    const std::pair<int, int> caps[] = {{kName, room / 4}, {kModel, room / 7}};
    for (const auto& [column, cap] : caps) {
        table_->setColumnWidth(column, std::min(table_->columnWidth(column), cap));
    }
}

int RunsPage::rowCount() const {
    return proxy_->rowCount();
}

QString RunsPage::errorText() const {
    return error_->text();
}

QList<qint64> RunsPage::selectedRuns() const {
    QList<qint64> ids;
    for (const auto& index : table_->selectionModel()->selectedRows(kId)) {
        ids << proxy_->data(index, Qt::UserRole).toLongLong();
    }
    return ids;
}

void RunsPage::selectRuns(const QList<qint64>& runIds) {
    table_->clearSelection();
    for (int row = 0; row < proxy_->rowCount(); ++row) {
        if (runIds.contains(proxy_->data(proxy_->index(row, kId), Qt::UserRole).toLongLong())) {
            table_->selectionModel()->select(
                proxy_->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
}

QString RunsPage::exportFolderName(qint64 runId) const {
    // "run-3-minilm-on-tickets": letters, digits and dashes, safe on every file system.
    QString name = QStringLiteral("run-%1").arg(runId);
    for (int row = 0; row < model_->rowCount(); ++row) {
        if (model_->item(row, kId)->data(Qt::UserRole).toLongLong() == runId) {
            QString words = model_->item(row, kName)->text().toLower();
            words.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
            // At most 40 characters, cut between words ("...-on-ner-conll", not
            // "...-ner-conll-unpadde"); one word longer than that is cut where it must.
            constexpr int kMaxWords = 40;
            if (words.size() > kMaxWords) {
                const int dash = words.lastIndexOf(QLatin1Char('-'), kMaxWords);
                words = words.left(dash > 0 ? dash : kMaxWords);
            }
            while (words.endsWith(QLatin1Char('-'))) {
                words.chop(1);
            }
            while (words.startsWith(QLatin1Char('-'))) {
                words.remove(0, 1);
            }
            if (!words.isEmpty()) {
                name += QLatin1Char('-') + words;
            }
        }
    }
    return name;
}

QDialog* RunsPage::openRun(qint64 runId) {
    RunDialog* dialog = nullptr;
    guarded(this, tr("Open run %1").arg(runId),
            [&] { dialog = new RunDialog(database_, runId, this); });
    if (dialog != nullptr) {
        connect(dialog, &RunDialog::tryRequested, this, &RunsPage::tryRequested);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    }
    return dialog;
}

QDialog* RunsPage::compare(const QList<qint64>& runIds) {
    QDialog* dialog = nullptr;
    guarded(this, tr("Compare runs"), [&] { dialog = new CompareDialog(database_, runIds, this); });
    if (dialog != nullptr) {
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    }
    return dialog;
}

void RunsPage::renameRun(qint64 runId, const QString& name) {
    if (guarded(this, tr("Rename run %1").arg(runId),
                [&] { RunStore(database_).rename(runId, name.toStdString()); })) {
        for (int row = 0; row < model_->rowCount(); ++row) {
            if (model_->item(row, kId)->data(Qt::UserRole).toLongLong() == runId) {
                loading_ = true;
                model_->item(row, kName)->setText(name);
                model_->item(row, kName)->setData(name, Qt::UserRole);
                loading_ = false;
            }
        }
        Q_EMIT runsChanged();
    } else {
        restoreName(runId);
    }
}

void RunsPage::restoreName(qint64 runId) {
    loading_ = true;
    for (int row = 0; row < model_->rowCount(); ++row) {
        if (model_->item(row, kId)->data(Qt::UserRole).toLongLong() == runId) {
            auto* name = model_->item(row, kName);
            name->setText(name->data(Qt::UserRole).toString());
        }
    }
    loading_ = false;
}

void RunsPage::deleteRuns(const QList<qint64>& runIds) {
    int deleted = 0;
    guarded(this, tr("Delete runs"), [&] {
        RunStore store(database_);
        for (const auto id : runIds) {
            store.remove(id);
            ++deleted;
        }
    });
    if (deleted > 0) {
        refresh();
        Q_EMIT runsChanged();
    }
}

void RunsPage::deleteSelected() {
    const auto ids = selectedRuns();
    if (ids.isEmpty()) {
        return;
    }
    // One run is named ("1 run(s)" read as English without an English translation loaded).
    const int count = static_cast<int>(ids.size());
    if (confirm(this, tr("Delete runs"),
                count == 1 ? tr("Delete run %1 with its metrics and checkpoints? This cannot be "
                                "undone.")
                                 .arg(ids.front())
                           : tr("Delete %n runs with their metrics and checkpoints? This cannot "
                                "be undone.",
                                nullptr, count))) {
        deleteRuns(ids);
    }
}

void RunsPage::removeCheckpoints(const QList<qint64>& runIds) {
    std::int64_t freed = 0;
    int removed = 0;
    guarded(this, tr("Remove checkpoints"), [&] {
        RunStore store(database_, RunStore::Access::ReadOnly);
        for (const auto id : runIds) {
            freed += removeRunCheckpoints(store, id);
            ++removed;
        }
    });
    if (removed > 0) {
        refresh();
        Q_EMIT runsChanged();
        showNotice(this, tr("Remove checkpoints"),
                   tr("Freed %1; the runs' records stay.")
                       .arg(QString::fromStdString(formatBytes(static_cast<double>(freed)))));
    }
}

void RunsPage::removeSelectedCheckpoints() {
    const auto ids = selectedRuns();
    if (ids.isEmpty()) {
        showNotice(this, tr("Remove checkpoints"), tr("Select the runs first."));
        return;
    }
    const int count = static_cast<int>(ids.size());
    if (confirm(this, tr("Remove checkpoints"),
                count == 1 ? tr("Remove the checkpoints of run %1? Its metrics, charts and "
                                "settings stay, but it can no longer be resumed, exported or "
                                "tried.")
                                 .arg(ids.front())
                           : tr("Remove the checkpoints of %n runs? Their metrics, charts and "
                                "settings stay, but they can no longer be resumed, exported or "
                                "tried.",
                                nullptr, count))) {
        removeCheckpoints(ids);
    }
}

void RunsPage::editNotes() {
    const auto ids = selectedRuns();
    if (ids.size() != 1) {
        return;
    }
    std::string current;
    if (!guarded(this, tr("Notes"), [&] {
            const auto run = RunStore(database_, RunStore::Access::ReadOnly).run(ids.front());
            current = run ? run->notes : "";
        })) {
        return;
    }
    bool ok = false;
    const auto notes =
        QInputDialog::getMultiLineText(this, tr("Notes"), tr("Notes on run %1:").arg(ids.front()),
                                       QString::fromStdString(current), &ok);
    if (ok && guarded(this, tr("Notes"),
                      [&] { RunStore(database_).setNotes(ids.front(), notes.toStdString()); })) {
        refresh();
    }
}

void RunsPage::exportModel(qint64 runId, const QString& folder, ExportFormat format) {
    const auto database = database_;
    const auto target = folder.toStdString();
    runAsync<QString>(
        this,
        [database, runId, target, format] {
            RunStore store(database, RunStore::Access::ReadOnly);
            exportRun(store, runId, target, /*preferBest=*/true, /*force=*/false, format);
            return QString();
        },
        [this, runId, folder](const QString&) { Q_EMIT exportFinished(runId, folder, QString()); },
        [this, runId, folder](const QString& error) {
            Q_EMIT exportFinished(runId, folder, error);
        });
}

QFileDialog* RunsPage::exportSelected() {
    const auto ids = selectedRuns();
    if (ids.size() != 1) {
        showNotice(this, tr("Export model"), tr("Select one run."));
        return nullptr;
    }
    const qint64 runId = ids.front();
    // A new folder named after the run, where the last export went (else in the user's
    // documents, else home): export refuses to mix its files into an existing folder's (without
    // --force), so a name no folder has yet is what works: "-2", "-3"... after the run's name.
    const QDir parent(proposedExportParent());
    const auto name = exportFolderName(runId);
    auto proposed = name;
    for (int n = 2; parent.exists(proposed); ++n) {
        proposed = QStringLiteral("%1-%2").arg(name).arg(n);
    }
    auto* dialog =
        new QFileDialog(this, tr("Export the model into a new folder"), parent.filePath(proposed));
    dialog->setObjectName(QStringLiteral("exportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    // The format is the dialog's file type; both write a folder of that name.
    const auto transformers = tr("transformers folder (model.safetensors)");
    const auto onnx = onnxExportAvailable() ? tr("ONNX for ONNX Runtime (model.onnx)") : QString();
    dialog->setNameFilters(onnx.isEmpty() ? QStringList{transformers}
                                          : QStringList{transformers, onnx});
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, runId, dialog, onnx](const QString& folder) {
                QSettings().setValue(kLastExportFolder, QFileInfo(folder).absolutePath());
                const bool asOnnx = !onnx.isEmpty() && dialog->selectedNameFilter() == onnx;
                exportModel(runId, folder,
                            asOnnx ? ExportFormat::Onnx : ExportFormat::Transformers);
            });
    dialog->open();
    return dialog;
}

}  // namespace bert::ui
