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

#include "common/ChartTheme.h"
#include "common/Format.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "runs/RunCompare.h"
#include "runs/RunStore.h"
#include "train/Metrics.h"
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
                return Names::withoutMnemonic(
                    QCoreApplication::translate("TrainingOptions", descriptor.label));
            }
        }
    }
    // The job's other fields (core/train/TrainingJobSpec.cpp) as the Dataset tab names them.
    static const std::pair<const char*, const char*> kNames[] = {
        {"data.train_file", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "dataset")},
        {"data.validation_file", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Validation file")},
        {"data.task", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Task")},
        {"data.text_column", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Text column")},
        {"data.text_pair_column",
         QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Second text column")},
        {"data.label_column", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Label column")},
        {"data.label_columns", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Label columns")},
        {"data.label_separator", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Label separator")},
        {"data.standardize_targets",
         QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Standardised targets")},
        {"data.threshold", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Decision threshold")},
        {"model", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "model")},
        {"model_folder", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "model")},
        {"preset", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "Preset")},
        {"name", QT_TRANSLATE_NOOP("bert::ui::CompareDialog", "name")},
    };
    for (const auto& [from, name] : kNames) {
        if (key == from) {
            return CompareDialog::tr(name);
        }
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
                    return Names::withoutMnemonic(
                               QCoreApplication::translate("TrainingOptions", choice.label))
                        .section(QRegularExpression(QStringLiteral("[:：]")), 0, 0)
                        .trimmed();
                }
            }
        }
    }
    return QString::fromStdString(value);
}

/// Whether an evaluation has a macro-F1: single-label and the tasks whose report lists one;
/// not regression, whose macroF1 is only a placeholder 0.
bool hasMacroF1(const EvalMetrics& eval) {
    if (!eval.task.is_object()) {
        return true;
    }
    const auto figures = eval.task.find("figures");
    return figures != eval.task.end() && figures->is_object() && figures->contains("macro_f1");
}

/// What a run achieved, from its stored evaluations and steps.
struct RunOutcome {
    std::string metric;  ///< its headline's key; empty when it has no evaluation
    bool higherIsBetter = true;
    std::optional<double> best;         ///< its best headline: the highest, or the lowest RMSE
    std::optional<double> bestMacroF1;  ///< none for a task without one
    double samplesPerSecond = 0.0;
};

}  // namespace

QString CompareDialog::metricName(const std::string& key) {
    return key == "accuracy" ? tr("accuracy") : Names::figure(key);
}

namespace {

RunOutcome outcomeOf(RunStore& store, std::int64_t runId) {
    RunOutcome outcome;
    const auto evaluations = store.evaluations(runId);
    // Best as the trainer judges by the task's metric: higher, or lower where lower is better.
    if (const auto best = bestTaskMetric(evaluations)) {
        outcome.metric = best->metric;
        outcome.higherIsBetter = best->higherIsBetter;
        outcome.best = best->value;
    }
    for (const auto& eval : evaluations) {
        if (hasMacroF1(eval)) {
            outcome.bestMacroF1 = std::max(outcome.bestMacroF1.value_or(0.0), eval.macroF1);
        }
    }
    const auto steps = store.steps(runId);
    double sum = 0.0;
    for (const auto& step : steps) {
        sum += step.samplesPerSecond;
    }
    outcome.samplesPerSecond = steps.empty() ? 0.0 : sum / static_cast<double>(steps.size());
    return outcome;
}

/// Peak memory (x) against the best of the runs' shared metric (y), a point per evaluated run
/// whose name carries its duration; with no metric shared (metric empty), only a title that
/// names the metrics and says why.
void fillScatter(QChart* chart, const std::vector<RunRecord>& runs,
                 const std::vector<RunOutcome>& outcomes, const std::string& metric,
                 bool higherIsBetter, const std::set<std::string>& metrics) {
    if (metric.empty()) {
        QStringList names;
        for (const auto& key : metrics) {
            names << CompareDialog::metricName(key);
        }
        chart->setTitle(
            CompareDialog::tr("No scatter: the runs' tasks are judged by different metrics (%1)")
                .arg(names.join(QStringLiteral(", "))));
        return;
    }
    chart->setTitle(CompareDialog::tr("Peak memory against %1 and duration")
                        .arg(CompareDialog::metricName(metric)));
    auto* memoryAxis = new QValueAxis();
    memoryAxis->setTitleText(CompareDialog::tr("peak memory (MiB)"));
    auto* metricAxis = new QValueAxis();
    metricAxis->setTitleText(
        (higherIsBetter ? CompareDialog::tr("best %1") : CompareDialog::tr("lowest %1"))
            .arg(CompareDialog::metricName(metric)));
    chart->addAxis(memoryAxis, Qt::AlignBottom);
    chart->addAxis(metricAxis, Qt::AlignLeft);
    double maxMemory = 1.0;
    double maxMetric = 0.0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto& run = runs[i];
        if (!outcomes[i].best) {
            continue;  // no evaluation to place it at
        }
        auto* point = new QScatterSeries();
        point->setName(CompareDialog::tr("run %1 (%2)").arg(run.id).arg(duration(run.seconds)));
        point->setMarkerSize(8.0 + std::min(30.0, run.seconds / 10.0));  // larger: longer
        const double memory = toMiB(static_cast<double>(run.peakMemoryBytes));
        maxMemory = std::max(maxMemory, memory);
        maxMetric = std::max(maxMetric, *outcomes[i].best);
        point->append(memory, *outcomes[i].best);
        chart->addSeries(point);
        point->attachAxis(memoryAxis);
        point->attachAxis(metricAxis);
    }
    setNiceRange(memoryAxis, 0.0, maxMemory * 1.1, kMaxTicks, false);
    // Scores span 0 to 1; an error in the target's units (RMSE) spans what the runs reached.
    setNiceRange(metricAxis, 0.0,
                 higherIsBetter ? std::max(1.0, maxMetric) : std::max(maxMetric * 1.1, 1e-3),
                 kMaxTicks, false);
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
        chart->setTheme(chartTheme());  // dark under the dark palette, as the window's
        chart->setTitle(title);
        chart->legend()->setAlignment(Qt::AlignBottom);
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumSize(320, 220);
        return view;
    };
    lossView_ = makeView(tr("Training loss"));
    accuracyView_ = makeView(tr("Validation accuracy"));
    scatterView_ = makeView(QString());
    differences_ = new QTableWidget(this);
    differences_->setTabKeyNavigation(false);

    RunStore store(database_, RunStore::Access::ReadOnly);
    std::vector<RunRecord> runs;
    for (const auto id : runIds_) {
        if (auto run = store.run(id)) {
            runs.push_back(std::move(*run));
        }
    }
    const auto differences = settingDifferences(runs);
    // What each run achieved: runs without an evaluation have no metric (not 0).
    std::vector<RunOutcome> outcomes;
    std::set<std::string> metrics;
    bool anyMacroF1 = false;
    for (const auto& run : runs) {
        outcomes.push_back(outcomeOf(store, run.id));
        if (!outcomes.back().metric.empty()) {
            metrics.insert(outcomes.back().metric);
        }
        anyMacroF1 |= outcomes.back().bestMacroF1.has_value();
    }
    // Runs judged by one metric are compared on it; runs of tasks with different metrics show
    // each its own, named, and are not placed on one axis.
    const bool sharedMetric = metrics.size() <= 1;
    metric_ = metrics.size() == 1 ? *metrics.begin() : std::string(sharedMetric ? "accuracy" : "");
    higherIsBetter_ = std::all_of(outcomes.begin(), outcomes.end(),
                                  [](const RunOutcome& o) { return o.higherIsBetter; });
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
    setRow(sharedMetric ? tr("best %1").arg(metricName(metric_)) : tr("best task metric"),
           [&](std::size_t i) {
               const auto& outcome = outcomes[i];
               if (!outcome.best) {
                   return none;
               }
               const auto value = QString::number(*outcome.best, 'f', 4);
               return sharedMetric ? value : tr("%1 (%2)").arg(value, metricName(outcome.metric));
           });
    differences_->item(row - 1, 0)
        ->setToolTip(
            sharedMetric && !higherIsBetter_
                ? tr("The lowest of each run's evaluations: lower is better")
                : tr("The best of each run's evaluations by its task's metric (the lowest for an "
                     "error such as RMSE)"));
    // Regression has no macro-F1: its runs show none rather than a placeholder 0.
    if (anyMacroF1) {
        setRow(tr("best macro-F1"), [&](std::size_t i) {
            const auto& f1 = outcomes[i].bestMacroF1;
            return f1 ? QString::number(*f1, 'f', 4) : none;
        });
    }
    setRow(tr("samples/s"), [&](std::size_t i) {
        const double speed = outcomes[i].samplesPerSecond;
        return speed > 0.0 ? QString::number(speed, 'f', 1) : none;
    });
    setRow(tr("peak memory"), [&](std::size_t i) { return mib(runs[i].peakMemoryBytes); });
    setRow(tr("forecast"), [&](std::size_t i) { return mib(runs[i].forecastBytes); });
    setRow(tr("duration"), [&](std::size_t i) { return duration(runs[i].seconds); });
    differences_->setRowCount(row);
    differences_->resizeColumnsToContents();
    fillScatter(scatterView_->chart(), runs, outcomes, metric_, higherIsBetter_, metrics);

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
    const bool shared = !metric_.empty();
    // An empty chart says nothing: hidden when the runs share no metric (the scatter's note
    // says why).
    accuracyView_->setVisible(shared);
    accuracyView_->chart()->setTitle(
        shared ? tr("Validation %1").arg(metricName(metric_))
               : tr("The runs' tasks differ: they are compared on their loss only"));
    const auto [lossX, lossY] = addAxes(lossView_->chart(), tr("loss"));
    const auto [accX, accY] =
        addAxes(accuracyView_->chart(), shared ? metricName(metric_) : tr("accuracy"));
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
            const double value = metricOf(evaluation, BestMetric::Task);
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
    setNiceRange(accY, 0.0, higherIsBetter_ ? 1.0 : maxMetric, kMaxTicks, false);
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

QString CompareDialog::scatterTitle() const {
    return scatterView_->chart()->title();
}

QString CompareDialog::scatterAxisTitle() const {
    const auto axes = scatterView_->chart()->axes(Qt::Vertical);
    return axes.isEmpty() ? QString() : axes.front()->titleText();
}

QPointF CompareDialog::scatterPoint(int run) const {
    const auto series = scatterView_->chart()->series();
    auto* points =
        run >= 0 && run < series.size() ? qobject_cast<QScatterSeries*>(series[run]) : nullptr;
    return points != nullptr && points->count() > 0 ? points->at(0) : QPointF();
}

}  // namespace bert::ui
