#include "runs/CompareDialog.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include "common/Format.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "runs/RunCompare.h"
#include "runs/RunStore.h"
#include "train/TrainingOptions.h"

namespace bert::ui {

namespace {

// Ticks per axis at most.
constexpr int kMaxTicks = 5;

/// "training.max_length" as the form calls it ("Max length"); other job fields in words.
QString settingName(const std::string& key) {
    const std::string prefix = "training.";
    if (key.rfind(prefix, 0) == 0) {
        const auto option = key.substr(prefix.size());
        for (const auto& descriptor : trainingOptions()) {
            if (descriptor.key == option) {
                return QCoreApplication::translate("TrainingOptions", descriptor.label)
                    .remove(QLatin1Char('&'));
            }
        }
    }
    if (key == "data.train_file") {
        return CompareDialog::tr("dataset");
    }
    if (key == "model_folder") {
        return CompareDialog::tr("model");
    }
    if (key == "name") {
        return CompareDialog::tr("name");
    }
    return QString::fromStdString(key);
}

/// Byte counts in MiB, switches as on and off, an unset value as "none", a choice by the
/// form's name for it; everything else as stored. (JSON's true, false and null were shown as
/// they are stored, in English whatever the interface's language.)
QString settingValue(const std::string& key, const std::string& value) {
    if (value == "true") {
        return CompareDialog::tr("on");
    }
    if (value == "false") {
        return CompareDialog::tr("off");
    }
    if (value == "null") {
        return CompareDialog::tr("none");
    }
    if (key.size() > 6 && key.compare(key.size() - 6, 6, "_bytes") == 0) {
        try {
            return mib(std::stoll(value));
        } catch (const std::exception&) {
            return QString::fromStdString(value);
        }
    }
    const std::string prefix = "training.";
    if (key.rfind(prefix, 0) == 0) {
        if (const auto* option = findTrainingOption(key.substr(prefix.size()))) {
            for (const auto& choice : option->choices) {
                if (value == choice.name) {
                    // "dynamic: pad each batch to its longest": the name before the colon.
                    return QCoreApplication::translate("TrainingOptions", choice.label)
                        .remove(QLatin1Char('&'))
                        .section(QRegularExpression(QStringLiteral("[:：]")), 0, 0)
                        .trimmed();
                }
            }
        }
    }
    return QString::fromStdString(value);
}

}  // namespace

CompareDialog::CompareDialog(const std::filesystem::path& database, const QList<qint64>& runIds,
                             QWidget* parent)
    : QDialog(parent), database_(database), runIds_(runIds) {
    setWindowTitle(tr("Compare runs"));
    axis_ = new QComboBox(this);
    axis_->addItems({tr("by step"), tr("by epoch")});
    connect(axis_, &QComboBox::currentIndexChanged, this,
            [this] { guarded(this, tr("Compare runs"), [this] { drawCurves(); }); });
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

    RunStore store(database_, RunStore::Access::ReadOnly);
    std::vector<RunRecord> runs;
    for (const auto id : runIds_) {
        if (auto run = store.run(id)) {
            runs.push_back(std::move(*run));
        }
    }
    const auto differences = settingDifferences(runs);
    // What each run achieved: runs without an evaluation have no accuracy (not 0).
    std::vector<std::optional<double>> bestF1(runs.size());
    std::vector<double> samplesPerSecond(runs.size(), 0.0);
    std::vector<bool> evaluated(runs.size(), false);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        for (const auto& eval : store.evaluations(runs[i].id)) {
            evaluated[i] = true;
            bestF1[i] = std::max(bestF1[i].value_or(0.0), eval.macroF1);
        }
        const auto steps = store.steps(runs[i].id);
        double sum = 0.0;
        for (const auto& step : steps) {
            sum += step.samplesPerSecond;
        }
        samplesPerSecond[i] = steps.empty() ? 0.0 : sum / static_cast<double>(steps.size());
    }
    const QString none = QStringLiteral("—");
    differences_->setColumnCount(static_cast<int>(runs.size()) + 1);
    differences_->setRowCount(static_cast<int>(differences.size()) + 6);
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
        setRow(settingName(difference.setting), [&](std::size_t i) {
            return settingValue(difference.setting, difference.values[i]);
        });
    }
    setRow(tr("best accuracy"), [&](std::size_t i) {
        return evaluated[i] ? QString::number(runs[i].bestAccuracy, 'f', 4) : none;
    });
    setRow(tr("best macro-F1"),
           [&](std::size_t i) { return bestF1[i] ? QString::number(*bestF1[i], 'f', 4) : none; });
    setRow(tr("samples/s"), [&](std::size_t i) {
        return samplesPerSecond[i] > 0.0 ? QString::number(samplesPerSecond[i], 'f', 1) : none;
    });
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
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& run = runs[i];
        if (!evaluated[i]) {
            continue;  // no accuracy to place it at
        }
        auto* point = new QScatterSeries();
        point->setName(tr("run %1 (%2)").arg(run.id).arg(duration(run.seconds)));
        point->setMarkerSize(8.0 + std::min(30.0, run.seconds / 10.0));  // larger: longer
        const double memory = toMiB(static_cast<double>(run.peakMemoryBytes));
        maxMemory = std::max(maxMemory, memory);
        point->append(memory, run.bestAccuracy);
        scatterChart->addSeries(point);
        point->attachAxis(memoryAxis);
        point->attachAxis(accuracyAxis);
    }
    setNiceRange(memoryAxis, 0.0, maxMemory * 1.1, kMaxTicks, false);
    setNiceRange(accuracyAxis, 0.0, 1.0, kMaxTicks, false);

    auto* charts = new QHBoxLayout();
    charts->addWidget(lossView_);
    charts->addWidget(accuracyView_);
    auto* lower = new QHBoxLayout();
    lower->addWidget(differences_, 1);
    lower->addWidget(scatterView_, 1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    // Ours, not Qt's: Qt's own translations are not always installed.
    close->button(QDialogButtonBox::Close)->setText(tr("&Close"));
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
    RunStore store(database_, RunStore::Access::ReadOnly);
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
    // The quality curve is the runs' task's headline metric; runs of different tasks share no
    // such metric and are compared on their loss only.
    std::set<std::string> mains;
    for (const auto id : runIds_) {
        for (const auto& evaluation : store.evaluations(id)) {
            mains.insert(evaluation.task.is_object() ? evaluation.task.value("main", std::string())
                                                     : std::string());
        }
    }
    const bool shared = mains.size() <= 1;
    const std::string main = mains.size() == 1 ? *mains.begin() : std::string();
    const QString metricName = main.empty() ? tr("accuracy") : Names::figure(main);
    accuracyView_->chart()->setTitle(
        shared ? tr("Validation %1").arg(metricName)
               : tr("The runs' tasks differ: they are compared on their loss only"));
    const auto [lossX, lossY] = addAxes(lossView_->chart(), tr("loss"));
    const auto [accX, accY] = addAxes(accuracyView_->chart(), metricName);
    double maxMetric = 1.0;
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
            if (!shared) {
                break;
            }
            double value = evaluation.accuracy;
            if (!main.empty()) {
                const auto figures = evaluation.task.value("figures", nlohmann::json::object());
                const auto found = figures.find(main);
                if (found == figures.end() || !found->is_number()) {
                    continue;
                }
                value = found->get<double>();
            }
            maxMetric = std::max(maxMetric, value);
            accuracy->append(byEpoch ? evaluation.epoch : static_cast<double>(evaluation.step),
                             value);
        }
        lossView_->chart()->addSeries(loss);
        loss->attachAxis(lossX);
        loss->attachAxis(lossY);
        accuracyView_->chart()->addSeries(accuracy);
        accuracy->attachAxis(accX);
        accuracy->attachAxis(accY);
    }
    // Round ticks: whole steps (epochs may be fractional), 0.2 on scores.
    for (auto* x : {lossX, accX}) {
        setNiceRange(x, 0.0, maxX, kMaxTicks, !byEpoch);
    }
    setNiceRange(lossY, 0.0, maxLoss, kMaxTicks, false);
    // Scores span 0 to 1; an error in target units (RMSE) fits the data.
    setNiceRange(accY, 0.0, main == "rmse" ? maxMetric : 1.0, kMaxTicks, false);
}

QString CompareDialog::metricTitle() const {
    return accuracyView_->chart()->title();
}

QList<QPointF> CompareDialog::metricPoints(int run) const {
    const auto series = accuracyView_->chart()->series();
    if (run < 0 || run >= series.size()) {
        return {};
    }
    auto* line = qobject_cast<QLineSeries*>(series[run]);
    return line != nullptr ? line->points() : QList<QPointF>{};
}

int CompareDialog::curveCount() const {
    return static_cast<int>(lossView_->chart()->series().size());
}
int CompareDialog::differenceRows() const {
    return differences_->rowCount();
}

QString CompareDialog::cell(int row, int column) const {
    const auto* item = differences_->item(row, column);
    return item != nullptr ? item->text() : QString();
}

int CompareDialog::rowOf(const QString& name) const {
    for (int row = 0; row < differences_->rowCount(); ++row) {
        if (cell(row, 0) == name) {
            return row;
        }
    }
    return -1;
}

int CompareDialog::scatterPoints() const {
    return static_cast<int>(scatterView_->chart()->series().size());
}

}  // namespace bert::ui
