#include "runs/RunsPage.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTime>
#include <QValueAxis>
#include <QVBoxLayout>

#include "Error.h"
#include "common/MetricsCharts.h"
#include "store/RunCompare.h"
#include "store/RunStore.h"
#include "train/TrainingJob.h"

namespace bert::ui {

namespace {

enum Column { kId, kName, kCreated, kStatus, kModel, kTechniques, kAccuracy, kPeak, kDuration, kColumns };

QStandardItem* numberItem(double value, const QString& text) {
    auto* item = new QStandardItem(text);
    item->setData(value, Qt::UserRole);  // sorted by the number, not the text
    item->setEditable(false);
    return item;
}

QString mib(std::int64_t bytes) { return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 0) + " MiB"; }

QString duration(double seconds) {
    return QTime(0, 0).addSecs(static_cast<int>(seconds)).toString(seconds >= 3600 ? "h:mm:ss" : "mm:ss");
}

}  // namespace

RunsPage::RunsPage(std::filesystem::path database, QWidget* parent) : QWidget(parent), database_(std::move(database)) {
    model_ = new QStandardItemModel(0, kColumns, this);
    model_->setHorizontalHeaderLabels({tr("Id"), tr("Name"), tr("Date"), tr("Status"), tr("Model"), tr("Techniques"),
                                       tr("Best accuracy"), tr("Peak memory"), tr("Duration")});
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);
    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->horizontalHeader()->setSectionResizeMode(kTechniques, QHeaderView::Stretch);
    table_->verticalHeader()->hide();
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter runs (name, status, model, techniques…)"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(model_, &QStandardItemModel::itemChanged, this, [this](QStandardItem* item) {
        if (loading_ || item->column() != kName) {
            return;
        }
        const auto id = model_->item(item->row(), kId)->data(Qt::UserRole).toLongLong();
        RunStore(database_).rename(id, item->text().toStdString());
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
            QMessageBox::information(this, tr("Compare runs"), tr("Select two or more runs (Ctrl+click)."));
            return;
        }
        compare(selectedRuns());
    }));
    buttons->addWidget(button(tr("&Notes…"), tr("Write notes on the run"), &RunsPage::editNotes));
    buttons->addWidget(button(tr("E&xport model…"), tr("Write the run's model as a transformers folder with a run card"),
                              &RunsPage::exportSelected));
    buttons->addWidget(button(tr("&Delete…"), tr("Delete the selected runs and their checkpoints"), &RunsPage::deleteSelected));
    buttons->addWidget(button(tr("Re&fresh"), tr("Reload the runs (F5)"), &RunsPage::refresh));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(table_, 1);
    auto* hint = new QLabel(tr("Double-click a name to rename a run; double-click a row to open it."), this);
    layout->addWidget(hint);
    refresh();
}

void RunsPage::refresh() {
    loading_ = true;
    model_->removeRows(0, model_->rowCount());
    try {
        RunStore store(database_);
        for (const auto& run : store.runs()) {
            QList<QStandardItem*> row;
            row << numberItem(static_cast<double>(run.id), QString::number(run.id));
            auto* name = new QStandardItem(QString::fromStdString(run.name));
            name->setData(QString::fromStdString(run.name), Qt::UserRole);
            name->setToolTip(QString::fromStdString(run.notes));
            row << name;
            auto* created = new QStandardItem(QString::fromStdString(run.createdAt));
            created->setData(QString::fromStdString(run.createdAt), Qt::UserRole);
            created->setEditable(false);
            row << created;
            auto* status = new QStandardItem(QString::fromStdString(toString(run.status)));
            status->setData(QString::fromStdString(toString(run.status)), Qt::UserRole);
            status->setToolTip(QString::fromStdString(run.error));
            status->setEditable(false);
            row << status;
            const auto model = QString::fromStdString(run.baseModel).section('/', -2);
            auto* modelItem = new QStandardItem(model);
            modelItem->setData(model, Qt::UserRole);
            modelItem->setToolTip(QString::fromStdString(run.baseModel));
            modelItem->setEditable(false);
            row << modelItem;
            auto* techniques = new QStandardItem(QString::fromStdString(run.techniques));
            techniques->setData(QString::fromStdString(run.techniques), Qt::UserRole);
            techniques->setEditable(false);
            row << techniques;
            row << numberItem(run.bestAccuracy, QString::number(run.bestAccuracy, 'f', 4));
            row << numberItem(static_cast<double>(run.peakMemoryBytes), mib(run.peakMemoryBytes));
            row << numberItem(run.seconds, duration(run.seconds));
            model_->appendRow(row);
        }
    } catch (const InputError& error) {
        QMessageBox::warning(this, tr("Runs"), QString::fromStdString(error.what()));
    }
    loading_ = false;
    table_->resizeColumnsToContents();
}

int RunsPage::rowCount() const { return proxy_->rowCount(); }

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
            table_->selectionModel()->select(proxy_->index(row, 0),
                                             QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
}

QDialog* RunsPage::openRun(qint64 runId) {
    auto* dialog = new RunDialog(database_, runId, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

QDialog* RunsPage::compare(const QList<qint64>& runIds) {
    auto* dialog = new CompareDialog(database_, runIds, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void RunsPage::deleteSelected() {
    const auto ids = selectedRuns();
    if (ids.isEmpty()) {
        return;
    }
    const auto answer = QMessageBox::question(
        this, tr("Delete runs"),
        tr("Delete %n run(s) with their metrics and checkpoints? This cannot be undone.", nullptr, static_cast<int>(ids.size())));
    if (answer != QMessageBox::Yes) {
        return;
    }
    RunStore store(database_);
    for (const auto id : ids) {
        store.remove(id);
    }
    refresh();
    Q_EMIT runsChanged();
}

void RunsPage::editNotes() {
    const auto ids = selectedRuns();
    if (ids.size() != 1) {
        return;
    }
    RunStore store(database_);
    const auto run = store.run(ids.front());
    bool ok = false;
    const auto notes = QInputDialog::getMultiLineText(this, tr("Notes"), tr("Notes on run %1:").arg(ids.front()),
                                                      QString::fromStdString(run ? run->notes : ""), &ok);
    if (ok) {
        store.setNotes(ids.front(), notes.toStdString());
        refresh();
    }
}

QString RunsPage::exportModel(qint64 runId, const QString& folder) {
    try {
        RunStore store(database_);
        exportRun(store, runId, folder.toStdString());
        return {};
    } catch (const InputError& error) {
        return QString::fromStdString(error.what());
    }
}

void RunsPage::exportSelected() {
    const auto ids = selectedRuns();
    if (ids.size() != 1) {
        QMessageBox::information(this, tr("Export model"), tr("Select one run."));
        return;
    }
    const auto folder = QFileDialog::getExistingDirectory(this, tr("Export the model into"));
    if (folder.isEmpty()) {
        return;
    }
    const auto error = exportModel(ids.front(), folder);
    if (error.isEmpty()) {
        QMessageBox::information(this, tr("Export model"),
                                 tr("Exported run %1 to %2. transformers loads it with from_pretrained.")
                                     .arg(ids.front())
                                     .arg(folder));
    } else {
        QMessageBox::warning(this, tr("Export model"), error);
    }
}

// ---- run dialog -------------------------------------------------------------------------------

RunDialog::RunDialog(const std::filesystem::path& database, qint64 runId, QWidget* parent) : QDialog(parent) {
    RunStore store(database);
    const auto run = store.run(runId);
    setWindowTitle(tr("Run %1: %2").arg(runId).arg(run ? QString::fromStdString(run->name) : QString()));
    charts_ = new MetricsCharts(this);
    charts_->loadRun(store, runId);
    auto* savePng = new QPushButton(tr("Save charts as &PNG…"), this);
    connect(savePng, &QPushButton::clicked, this, [this] {
        const auto file = QFileDialog::getSaveFileName(this, tr("Save charts"), QString(), tr("PNG images (*.png)"));
        if (!file.isEmpty() && !charts_->savePng(file)) {
            QMessageBox::warning(this, tr("Save charts"), tr("%1 could not be written.").arg(file));
        }
    });
    auto* saveCsv = new QPushButton(tr("Export metrics as &CSV…"), this);
    connect(saveCsv, &QPushButton::clicked, this, [this, database, runId] {
        const auto file = QFileDialog::getSaveFileName(this, tr("Export metrics"), QString(), tr("CSV files (*.csv)"));
        if (file.isEmpty()) {
            return;
        }
        try {
            RunStore runStore(database);
            writeMetricsCsv(runStore, runId, file.toStdString());
        } catch (const InputError& error) {
            QMessageBox::warning(this, tr("Export metrics"), QString::fromStdString(error.what()));
        }
    });
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* buttons = new QHBoxLayout();
    buttons->addWidget(savePng);
    buttons->addWidget(saveCsv);
    buttons->addStretch();
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(charts_, 1);
    layout->addLayout(buttons);
    resize(1000, 700);
}

// ---- compare dialog ---------------------------------------------------------------------------

CompareDialog::CompareDialog(const std::filesystem::path& database, const QList<qint64>& runIds, QWidget* parent)
    : QDialog(parent), database_(database), runIds_(runIds) {
    setWindowTitle(tr("Compare runs"));
    axis_ = new QComboBox(this);
    axis_->addItems({tr("by step"), tr("by epoch")});
    connect(axis_, &QComboBox::currentIndexChanged, this, &CompareDialog::drawCurves);
    auto makeView = [this](const QString& title) {
        auto* chart = new QChart();
        chart->setTitle(title);
        chart->legend()->setAlignment(Qt::AlignBottom);
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(320, 220);
        return view;
    };
    lossView_ = makeView(tr("Training loss"));
    accuracyView_ = makeView(tr("Validation accuracy"));
    scatterView_ = makeView(tr("Peak memory against accuracy and duration"));
    differences_ = new QTableWidget(this);

    RunStore store(database_);
    std::vector<RunRecord> runs;
    for (const auto id : runIds_) {
        if (auto run = store.run(id)) {
            runs.push_back(std::move(*run));
        }
    }
    const auto differences = settingDifferences(runs);
    differences_->setColumnCount(static_cast<int>(runs.size()) + 1);
    differences_->setRowCount(static_cast<int>(differences.size()) + 4);
    QStringList headers{tr("Setting")};
    for (const auto& run : runs) {
        headers << tr("Run %1").arg(run.id);
    }
    differences_->setHorizontalHeaderLabels(headers);
    int row = 0;
    auto setRow = [&](const QString& name, const std::function<QString(std::size_t)>& value) {
        differences_->setItem(row, 0, new QTableWidgetItem(name));
        for (std::size_t i = 0; i < runs.size(); ++i) {
            differences_->setItem(row, static_cast<int>(i) + 1, new QTableWidgetItem(value(i)));
        }
        ++row;
    };
    for (const auto& difference : differences) {
        setRow(QString::fromStdString(difference.setting),
               [&](std::size_t i) { return QString::fromStdString(difference.values[i]); });
    }
    setRow(tr("best accuracy"), [&](std::size_t i) { return QString::number(runs[i].bestAccuracy, 'f', 4); });
    setRow(tr("peak memory"), [&](std::size_t i) { return mib(runs[i].peakMemoryBytes); });
    setRow(tr("forecast"), [&](std::size_t i) { return mib(runs[i].forecastBytes); });
    setRow(tr("duration"), [&](std::size_t i) { return duration(runs[i].seconds); });
    differences_->resizeColumnsToContents();

    // Peak memory (x) against accuracy (y); the point's name carries the duration.
    auto* scatterChart = scatterView_->chart();
    auto* memoryAxis = new QValueAxis();
    memoryAxis->setTitleText(tr("peak memory (MiB)"));
    auto* accuracyAxis = new QValueAxis();
    accuracyAxis->setTitleText(tr("best accuracy"));
    scatterChart->addAxis(memoryAxis, Qt::AlignBottom);
    scatterChart->addAxis(accuracyAxis, Qt::AlignLeft);
    double maxMemory = 1.0;
    for (const auto& run : runs) {
        auto* point = new QScatterSeries();
        point->setName(tr("run %1 (%2)").arg(run.id).arg(duration(run.seconds)));
        point->setMarkerSize(8.0 + std::min(30.0, run.seconds / 10.0));  // larger: longer
        const double memory = static_cast<double>(run.peakMemoryBytes) / (1024.0 * 1024.0);
        maxMemory = std::max(maxMemory, memory);
        point->append(memory, run.bestAccuracy);
        scatterChart->addSeries(point);
        point->attachAxis(memoryAxis);
        point->attachAxis(accuracyAxis);
    }
    memoryAxis->setRange(0.0, maxMemory * 1.15);
    accuracyAxis->setRange(0.0, 1.0);

    auto* charts = new QHBoxLayout();
    charts->addWidget(lossView_);
    charts->addWidget(accuracyView_);
    auto* lower = new QHBoxLayout();
    lower->addWidget(differences_, 1);
    lower->addWidget(scatterView_, 1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout();
    top->addWidget(new QLabel(tr("Curves:"), this));
    top->addWidget(axis_);
    top->addStretch();
    layout->addLayout(top);
    layout->addLayout(charts, 1);
    layout->addLayout(lower, 1);
    layout->addWidget(close);
    resize(1100, 760);
    drawCurves();
}

void CompareDialog::drawCurves() {
    const bool byEpoch = axis_->currentIndex() == 1;
    RunStore store(database_);
    for (auto* view : {lossView_, accuracyView_}) {
        auto* chart = view->chart();
        chart->removeAllSeries();
        for (auto* axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
    }
    auto addAxes = [&](QChart* chart, const QString& yTitle) {
        auto* x = new QValueAxis();
        x->setTitleText(byEpoch ? tr("epoch") : tr("step"));
        auto* y = new QValueAxis();
        y->setTitleText(yTitle);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        return std::pair{x, y};
    };
    const auto [lossX, lossY] = addAxes(lossView_->chart(), tr("loss"));
    const auto [accX, accY] = addAxes(accuracyView_->chart(), tr("accuracy"));
    double maxX = 1.0;
    double maxLoss = 0.1;
    for (const auto id : runIds_) {
        auto* loss = new QLineSeries();
        loss->setName(tr("run %1").arg(id));
        for (const auto& step : store.steps(id)) {
            const double x = byEpoch ? step.epoch : static_cast<double>(step.step);
            loss->append(x, step.loss);
            maxX = std::max(maxX, x);
            maxLoss = std::max(maxLoss, step.loss);
        }
        auto* accuracy = new QLineSeries();
        accuracy->setName(tr("run %1").arg(id));
        accuracy->setPointsVisible(true);
        for (const auto& evaluation : store.evaluations(id)) {
            accuracy->append(byEpoch ? evaluation.epoch : static_cast<double>(evaluation.step), evaluation.accuracy);
        }
        lossView_->chart()->addSeries(loss);
        loss->attachAxis(lossX);
        loss->attachAxis(lossY);
        accuracyView_->chart()->addSeries(accuracy);
        accuracy->attachAxis(accX);
        accuracy->attachAxis(accY);
    }
    lossX->setRange(0.0, maxX);
    accX->setRange(0.0, maxX);
    lossY->setRange(0.0, maxLoss * 1.05);
    accY->setRange(0.0, 1.0);
}

int CompareDialog::curveCount() const { return static_cast<int>(lossView_->chart()->series().size()); }
int CompareDialog::differenceRows() const { return differences_->rowCount(); }

}  // namespace bert::ui
