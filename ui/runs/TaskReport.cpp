#include "runs/TaskReport.h"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

#include "common/ChartTheme.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "dataset/TaskSummary.h"
#include "task/TaskMetricsJson.h"

namespace bert::ui {

namespace {

constexpr std::size_t kResidualBins = 10;

QTableWidgetItem* cell(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QString number(const nlohmann::json& value) {
    if (value.is_number_integer()) {
        return QString::number(value.get<std::int64_t>());
    }
    return value.is_number() ? QString::number(value.get<double>(), 'f', 3) : QStringLiteral("—");
}

QChartView* makeChartView(QWidget* parent) {
    auto* chart = new QChart();
    chart->setTheme(chartTheme());  // dark under the dark palette, as the window's
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(220);
    return view;
}

QValueAxis* addAxis(QChart* chart, Qt::Alignment alignment, const QString& title, double low,
                    double high) {
    auto* axis = new QValueAxis();
    axis->setTitleText(title);
    chart->addAxis(axis, alignment);
    setNiceRange(axis, low, high, 6, false);
    return axis;
}

/// Caps a table's height at its rows', so that a short table does not stand over empty cells
/// and what follows it sits right under it; a longer one than the space scrolls.
void fitHeightToRows(QTableWidget* table) {
    const int frame = 2 * table->frameWidth();
    table->setMaximumHeight(table->horizontalHeader()->sizeHint().height() +
                            table->verticalHeader()->length() + frame);
}

}  // namespace

TaskReport::TaskReport(QWidget* parent) : QWidget(parent) {
    figures_ = new QLabel(this);
    figures_->setObjectName(QStringLiteral("taskFigures"));
    figures_->setWordWrap(true);
    figures_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tableTitle_ = new QLabel(this);
    table_ = new QTableWidget(this);
    table_->setTabKeyNavigation(false);
    table_->setObjectName(QStringLiteral("taskTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    confusionTitle_ = new QLabel(this);
    confusionTitle_->setWordWrap(true);
    confusion_ = new QTableWidget(this);
    confusion_->setTabKeyNavigation(false);
    confusion_->setObjectName(QStringLiteral("entityConfusion"));
    confusion_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    confusion_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    first_ = makeChartView(this);
    first_->setObjectName(QStringLiteral("taskChart"));
    second_ = makeChartView(this);
    second_->setObjectName(QStringLiteral("residualChart"));
    auto* left = new QVBoxLayout();
    left->addWidget(tableTitle_);
    left->addWidget(table_, 1);
    left->addWidget(confusionTitle_);
    left->addWidget(confusion_, 1);
    left->addStretch();
    auto* charts = new QVBoxLayout();
    charts->addWidget(first_, 1);
    charts->addWidget(second_, 1);
    columns_ = new QHBoxLayout();
    columns_->addLayout(left, 1);
    columns_->addLayout(charts, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(figures_);
    layout->addLayout(columns_, 1);
}

QString TaskReport::figuresText() const {
    return figures_->text();
}

void TaskReport::showReport(const nlohmann::json& report) {
    for (auto* view : {first_, second_}) {
        clearChart(view->chart());
        view->chart()->setTitle({});
        view->hide();
    }
    for (auto* grid : {table_, confusion_}) {
        grid->clear();
        grid->setRowCount(0);
        grid->setColumnCount(0);
        grid->setMaximumHeight(QWIDGETSIZE_MAX);
        grid->hide();
    }
    tableTitle_->hide();
    confusionTitle_->hide();
    figures_->clear();
    if (!report.is_object()) {
        return;
    }
    // The headline first, then the other figures, with the names the studio gives them.
    QStringList figures;
    const auto main = report.value("main", std::string());
    const auto values = report.value("figures", nlohmann::json::object());
    if (values.contains(main)) {
        figures << QStringLiteral("<b>%1 %2</b>").arg(Names::figure(main), number(values[main]));
    }
    for (const auto& [key, value] : values.items()) {
        if (key != main && key != "examples" && key != "scaling" && value.is_number()) {
            figures << QStringLiteral("%1 %2").arg(Names::figure(key), number(value));
        }
    }
    figures_->setText(figures.join(QStringLiteral(", ")));
    const auto task = report.value("task", std::string());
    if (task == "multi-label") {
        showMultiLabel(report);
    } else if (task == "regression") {
        showRegression(report);
    } else if (task == "token-classification") {
        showTokenClassification(report);
    }
    // A report without a table (regression) gives its charts the whole width, one without
    // charts (token classification) its tables.
    columns_->setStretch(0, table_->isHidden() ? 0 : 1);
    columns_->setStretch(1, first_->isHidden() && second_->isHidden() ? 0 : 1);
}

void TaskReport::fillTable(const nlohmann::json& rows, const char* nameKey,
                           const QString& nameHeader, bool withPredicted) {
    QStringList headers = {nameHeader, tr("Precision"), tr("Recall"), tr("F1"), tr("Support")};
    if (withPredicted) {
        headers << tr("Predicted");
    }
    table_->setColumnCount(static_cast<int>(headers.size()));
    table_->setHorizontalHeaderLabels(headers);
    table_->setRowCount(static_cast<int>(rows.size()));
    table_->verticalHeader()->hide();
    int r = 0;
    for (const auto& row : rows) {
        auto* name =
            new QTableWidgetItem(QString::fromStdString(row.value(nameKey, std::string())));
        name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        table_->setItem(r, 0, name);
        table_->setItem(r, 1, cell(number(row.value("precision", nlohmann::json()))));
        table_->setItem(r, 2, cell(number(row.value("recall", nlohmann::json()))));
        table_->setItem(r, 3, cell(number(row.value("f1", nlohmann::json()))));
        table_->setItem(r, 4, cell(number(row.value("support", nlohmann::json()))));
        if (withPredicted) {
            table_->setItem(r, 5, cell(number(row.value("predicted", nlohmann::json()))));
        }
        ++r;
    }
    table_->show();
    tableTitle_->show();
}

void TaskReport::showMultiLabel(const nlohmann::json& report) {
    tableTitle_->setText(tr("Per label, at threshold %1 (tuned on validation: %2)")
                             .arg(number(report.value("threshold", nlohmann::json())),
                                  number(report.value("tuned_threshold", nlohmann::json()))));
    fillTable(report.value("per_label", nlohmann::json::array()), "label", tr("Label"), false);
    auto* chart = first_->chart();
    chart->setTitle(tr("Threshold curve"));
    const std::pair<const char*, QString> lines[] = {
        {"micro_f1", Names::figure("micro_f1")},
        {"macro_f1", Names::figure("macro_f1")},
        {"micro_precision", Names::figure("micro_precision")},
        {"micro_recall", Names::figure("micro_recall")}};
    std::vector<QLineSeries*> series;
    for (const auto& [key, name] : lines) {
        auto* line = new QLineSeries();
        line->setName(name);
        for (const auto& point : report.value("threshold_curve", nlohmann::json::array())) {
            line->append(point.value("threshold", 0.0), point.value(key, 0.0));
        }
        chart->addSeries(line);
        series.push_back(line);
    }
    auto* x = addAxis(chart, Qt::AlignBottom, tr("decision threshold"), 0.0, 1.0);
    auto* y = addAxis(chart, Qt::AlignLeft, tr("score"), 0.0, 1.0);
    for (auto* line : series) {
        line->attachAxis(x);
        line->attachAxis(y);
    }
    chart->legend()->show();
    first_->show();
}

void TaskReport::showRegression(const nlohmann::json& report) {
    const auto predicted = report.value("predicted", std::vector<double>());
    const auto truth = report.value("truth", std::vector<double>());
    const auto count = std::min(predicted.size(), truth.size());
    auto* chart = first_->chart();
    chart->setTitle(tr("Predicted against true (validation)"));
    auto* points = new QScatterSeries();
    points->setName(tr("examples"));
    points->setMarkerSize(7.0);
    double low = 0.0;
    double high = 1.0;
    std::vector<double> residuals;
    for (std::size_t i = 0; i < count; ++i) {
        points->append(truth[i], predicted[i]);
        residuals.push_back(predicted[i] - truth[i]);
        const double smaller = std::min(truth[i], predicted[i]);
        const double larger = std::max(truth[i], predicted[i]);
        low = i == 0 ? smaller : std::min(low, smaller);
        high = i == 0 ? larger : std::max(high, larger);
    }
    // The line a perfect model's points would sit on.
    auto* diagonal = new QLineSeries();
    diagonal->setName(tr("predicted = true"));
    diagonal->append(low, low);
    diagonal->append(high, high);
    // Drawn over the points (a chart draws its series in the order added): a dense cloud hid
    // the line it is to be read against.
    chart->addSeries(points);
    chart->addSeries(diagonal);
    auto* x = addAxis(chart, Qt::AlignBottom, tr("true"), low, high);
    auto* y = addAxis(chart, Qt::AlignLeft, tr("predicted"), low, high);
    for (QAbstractSeries* series :
         {static_cast<QAbstractSeries*>(diagonal), static_cast<QAbstractSeries*>(points)}) {
        series->attachAxis(x);
        series->attachAxis(y);
    }
    first_->show();
    const auto histogram = histogramOf(residuals, kResidualBins);
    second_->chart()->setTitle(tr("Residuals (predicted − true)"));
    second_->chart()->legend()->hide();
    // A value axis at round residuals, as the dataset tab's histograms: a name under each of the
    // narrow bars was cut to "..." on a small window.
    showHistogram(second_->chart(), histogram.counts, histogram.low, histogram.width, 0,
                  tr("residual"));
    second_->show();
}

void TaskReport::showTokenClassification(const nlohmann::json& report) {
    tableTitle_->setText(tr("Entities per type (exact span and type, as seqeval scores them)"));
    fillTable(report.value("per_type", nlohmann::json::array()), "type", tr("Entity type"), true);
    // Without charts beside them, both tables stand at their rows' height, one over the other.
    fitHeightToRows(table_);
    if (fillConfusion(report.value("entity_confusion", nlohmann::json()))) {
        fitHeightToRows(confusion_);
    }
}

bool TaskReport::fillConfusion(const nlohmann::json& stored) {
    // Runs stored before the table existed have none: no table then, not an empty one.
    const auto confusion = entityConfusionFromJson(stored);
    if (!confusion || confusion->types.empty()) {
        return false;
    }
    const auto& types = confusion->types;
    const int n = static_cast<int>(types.size());
    QStringList rows;
    QStringList columns;
    for (const auto& type : types) {
        rows << QString::fromStdString(type);
        columns << QString::fromStdString(type);
    }
    rows << tr("spurious");
    columns << tr("missed");
    confusion_->setRowCount(n + 1);
    confusion_->setColumnCount(n + 1);
    confusion_->setVerticalHeaderLabels(rows);
    confusion_->setHorizontalHeaderLabels(columns);
    confusion_->verticalHeader()->show();
    const auto count = [](std::size_t value) { return cell(QString::number(value)); };
    for (int t = 0; t < n; ++t) {
        const auto& row = confusion->counts[static_cast<std::size_t>(t)];
        for (int p = 0; p < n; ++p) {
            auto* item = count(row[static_cast<std::size_t>(p)]);
            if (t == p) {  // the correct entities
                auto font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            confusion_->setItem(t, p, item);
        }
        confusion_->setItem(t, n, count(confusion->missed[static_cast<std::size_t>(t)]));
        confusion_->setItem(n, t, count(confusion->spurious[static_cast<std::size_t>(t)]));
    }
    // No entity is both spurious and missed.
    auto* corner = new QTableWidgetItem();
    corner->setFlags(Qt::NoItemFlags);
    confusion_->setItem(n, n, corner);
    confusionTitle_->setText(
        tr("Entity types: true (rows) against predicted (columns), entities matched by their "
           "exact span"));
    confusion_->setToolTip(
        tr("Each true entity is counted in the row of its type: in the column of the type of "
           "the predicted entity over exactly the same words, or under “missed” when no "
           "predicted entity has its boundaries. A predicted entity whose words no true entity "
           "spans exactly counts in the “spurious” row. The diagonal holds the correct entities "
           "(the true positives above); a boundary error is one missed and one spurious "
           "entity."));
    confusionTitle_->show();
    confusion_->show();
    return true;
}

}  // namespace bert::ui
