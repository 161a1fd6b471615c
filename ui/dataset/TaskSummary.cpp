#include "dataset/TaskSummary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QColor>
#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QValueAxis>

#include "common/EngineText.h"
#include "common/NiceAxis.h"
#include "data/LabelCheck.h"

namespace bert::ui {

QString rareLabelsSentence(const char* noun, double share,
                           const std::vector<std::pair<std::string, std::size_t>>& counts,
                           std::size_t total) {
    const auto warning = rareLabelWarning(noun, counts, total, share);
    if (warning.empty()) {
        return {};
    }
    return QLatin1Char(' ') + EngineText::sentence(warning);
}

namespace {

/// The context of this file's strings.
class TaskSummary {
    Q_DECLARE_TR_FUNCTIONS(TaskSummary)
};

constexpr int kHistogramLabels = 7;          // round values named under a histogram
constexpr qreal kHistogramBarWidth = 0.92;   // of a bin: bars that nearly touch
constexpr qreal kCountBarWidth = 0.7;        // of a label's row
constexpr qsizetype kMostCountBars = 20;     // rows that the tab's chart gives a readable name
constexpr qreal kSmallestLabelPoints = 6.5;  // the smallest font a label's name is drawn in
constexpr qreal kLabelRowGap = 3.0;          // between two names, so that they never touch

QTableWidgetItem* numberItem(std::size_t value) {
    auto* item = new QTableWidgetItem(QString::number(value));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

/// A count axis (on the left of a histogram, under horizontal bars), ending on a round tick (0,
/// 50, 100, 150), never 37, 75, 112.
void addCountAxis(QChart* chart, QAbstractSeries* series, std::size_t largest,
                  Qt::Alignment alignment = Qt::AlignLeft) {
    auto* countAxis = new QValueAxis();
    countAxis->setLabelFormat("%d");
    chart->addAxis(countAxis, alignment);
    series->attachAxis(countAxis);
    setNiceRange(countAxis, 0.0, static_cast<double>(std::max<std::size_t>(largest, 1)), 5, true);
}

/// Keeps the names of a category axis on the left whole and apart: each row of the plot gets a
/// name in a font that fits the row's height (many labels: a smaller font, down to
/// kSmallestLabelPoints), never one cut to "..." (Qt Charts cuts a name that is taller than its
/// row as well as one that is wider than the axis).
void fitNamesToRows(QChart* chart, QBarCategoryAxis* names) {
    names->setTruncateLabels(false);
    const QFont base = names->labelsFont();
    const auto fit = [names, base](const QRectF& plot) {
        const auto rows = std::max<qsizetype>(names->count(), 1);
        const qreal row = plot.height() / static_cast<qreal>(rows);
        QFont font = base;
        qreal points = base.pointSizeF();
        while (points > kSmallestLabelPoints && QFontMetricsF(font).height() + kLabelRowGap > row) {
            points = std::max(kSmallestLabelPoints, points - 0.5);
            font.setPointSizeF(points);
        }
        if (names->labelsFont() != font) {
            names->setLabelsFont(font);  // lays the chart out again: the plot keeps its height
        }
    };
    // The axis as context: the connection ends with it (clearChart deletes it).
    QObject::connect(chart, &QChart::plotAreaChanged, names, fit);
    fit(chart->plotArea());
}

}  // namespace

void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

void showCounts(QChart* chart, const QString& title, const QStringList& categories,
                const std::vector<std::size_t>& counts, const QString& axisTitle) {
    // The most frequent categories, in their order, when there are more than rows for them.
    std::vector<qsizetype> shown(static_cast<std::size_t>(categories.size()));
    std::iota(shown.begin(), shown.end(), 0);
    if (categories.size() > kMostCountBars) {
        std::stable_sort(shown.begin(), shown.end(), [&counts](qsizetype a, qsizetype b) {
            return counts[static_cast<std::size_t>(a)] > counts[static_cast<std::size_t>(b)];
        });
        shown.resize(kMostCountBars);
        std::sort(shown.begin(), shown.end());
        chart->setTitle(TaskSummary::tr("%1: the %2 most frequent of %3")
                            .arg(title)
                            .arg(kMostCountBars)
                            .arg(categories.size()));
    } else {
        chart->setTitle(title);
    }
    // Horizontal bars with a name on the left of each: a name under a vertical bar had the
    // bar's width and was cut to "ma..." once there were a few labels. Qt draws the first row
    // at the bottom: appended last to first, the first name is at the top, read downwards.
    auto* set = new QBarSet(TaskSummary::tr("examples"));
    QStringList names;
    std::size_t largest = 1;
    for (auto i = shown.rbegin(); i != shown.rend(); ++i) {
        const auto count = counts[static_cast<std::size_t>(*i)];
        *set << static_cast<double>(count);
        names << categories[*i];
        largest = std::max(largest, count);
    }
    auto* series = new QHorizontalBarSeries();
    series->setBarWidth(kCountBarWidth);
    series->append(set);
    chart->addSeries(series);
    auto* categoryAxis = new QBarCategoryAxis();
    categoryAxis->append(names);
    categoryAxis->setTitleText(axisTitle);
    categoryAxis->setGridLineVisible(false);
    chart->addAxis(categoryAxis, Qt::AlignLeft);
    series->attachAxis(categoryAxis);
    chart->legend()->hide();
    addCountAxis(chart, series, largest, Qt::AlignBottom);
    fitNamesToRows(chart, categoryAxis);
}

std::vector<HistogramTick> histogramTicks(double low, double width, std::size_t bins,
                                          int maxLabels) {
    std::vector<HistogramTick> ticks;
    if (bins == 0 || !(width > 0.0) || !std::isfinite(low)) {
        return ticks;
    }
    const double high = low + static_cast<double>(bins) * width;
    // Whole bins (token counts) are named by whole numbers. niceAxis counts intervals: one fewer
    // than the values it may name.
    const bool whole = low == std::floor(low) && width == std::floor(width);
    const auto nice = niceAxis(low, high, std::max(1, maxLabels - 1), whole);
    const int decimals =
        nice.interval >= 1.0
            ? 0
            : std::min(6, static_cast<int>(std::ceil(-std::log10(nice.interval) - 1e-9)));
    const double slack = 1e-9 * (high - low);
    for (int i = 0;; ++i) {
        const double value = nice.minimum + i * nice.interval;  // not summed: no drift
        if (value > high + slack) {
            break;
        }
        if (value < low - slack) {
            continue;
        }
        auto label = QString::number(value, 'f', decimals);
        if (label.toDouble() == 0.0) {
            label = QString::number(0.0, 'f', decimals);  // "0.0", not "-0.0"
        }
        ticks.push_back({(value - low) / width - 0.5, label});
    }
    return ticks;
}

void showHistogram(QChart* chart, const std::vector<std::size_t>& counts, double low, double width,
                   std::size_t longer, const QString& axisTitle) {
    const std::size_t bars = counts.size() + (longer > 0 ? 1 : 0);
    auto* inBins = new QBarSet(TaskSummary::tr("examples"));
    for (const auto count : counts) {
        *inBins << static_cast<double>(count);
    }
    // Stacked, so that the bar of the longer values stands in its own place, in its own colour.
    auto* series = new QStackedBarSeries();
    series->setBarWidth(kHistogramBarWidth);
    series->append(inBins);
    const double edge = low + static_cast<double>(counts.size()) * width;
    if (longer > 0) {
        *inBins << 0.0;
        auto* beyond =
            new QBarSet(TaskSummary::tr("longer than %1").arg(QString::number(edge, 'g', 6)));
        for (std::size_t b = 0; b < counts.size(); ++b) {
            *beyond << 0.0;
        }
        *beyond << static_cast<double>(longer);
        beyond->setColor(QColor(0x95, 0xa5, 0xa6));
        series->append(beyond);
    }
    chart->addSeries(series);
    // A value axis over the bars, labelled only at round values (QCategoryAxis places each
    // label on its value): a label under every bar was cut to "..." once the bars were narrow.
    auto* valueAxis = new QCategoryAxis();
    valueAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    valueAxis->setRange(-0.5, static_cast<double>(bars) - 0.5);
    valueAxis->setStartValue(-0.5);
    for (const auto& tick : histogramTicks(low, width, counts.size(), kHistogramLabels)) {
        valueAxis->append(tick.label, tick.position);
    }
    valueAxis->setTitleText(axisTitle);
    chart->addAxis(valueAxis, Qt::AlignBottom);
    series->attachAxis(valueAxis);
    chart->legend()->setVisible(longer > 0);
    chart->legend()->setAlignment(Qt::AlignBottom);
    std::size_t largest = longer;
    for (const auto count : counts) {
        largest = std::max(largest, count);
    }
    addCountAxis(chart, series, largest);
}

ValueHistogram histogramOf(const std::vector<double>& values, std::size_t bins) {
    ValueHistogram histogram;
    if (values.empty() || bins == 0) {
        return histogram;
    }
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    histogram.low = *low;
    histogram.width = *high > *low ? (*high - *low) / static_cast<double>(bins) : 1.0;
    histogram.counts.assign(*high > *low ? bins : 1, 0);
    for (const auto value : values) {
        auto bin = static_cast<std::size_t>((value - histogram.low) / histogram.width);
        ++histogram.counts[std::min(bin, histogram.counts.size() - 1)];  // the top edge: last bin
    }
    return histogram;
}

void fillCoOccurrence(QTableWidget* table, const MultiLabelMap& labels,
                      const std::vector<std::vector<std::int64_t>>& counts) {
    table->clear();
    const int n = static_cast<int>(labels.size());
    table->setRowCount(n);
    table->setColumnCount(n);
    QStringList names;
    for (const auto& name : labels.names()) {
        names << QString::fromStdString(name);
    }
    table->setHorizontalHeaderLabels(names);
    table->setVerticalHeaderLabels(names);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            auto* item = numberItem(static_cast<std::size_t>(
                counts[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]));
            if (i == j) {
                item->setToolTip(TaskSummary::tr("Examples with this label"));
                auto font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            table->setItem(i, j, item);
        }
    }
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void fillEntityCounts(QTableWidget* table, const TagSummary& summary) {
    table->clear();
    table->setColumnCount(3);
    table->setHorizontalHeaderLabels({TaskSummary::tr("Entity type"), TaskSummary::tr("Entities"),
                                      TaskSummary::tr("Tagged words")});
    table->setRowCount(static_cast<int>(summary.types.size()));
    int row = 0;
    for (const auto& type : summary.types) {
        std::size_t words = 0;
        for (const auto& [tag, count] : summary.tagCounts) {
            if (tag.size() > 2 && tag.compare(2, std::string::npos, type) == 0) {
                words += count;
            }
        }
        const auto entities = summary.entityCounts.find(type);
        table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(type)));
        table->setItem(row, 1,
                       numberItem(entities == summary.entityCounts.end() ? 0 : entities->second));
        table->setItem(row, 2, numberItem(words));
        ++row;
    }
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void fillSentencePreview(QTableWidget* table, const TaggedFile& file, int rows) {
    table->clear();
    const int shown = std::min(rows, static_cast<int>(file.sentences.size()));
    table->setColumnCount(3);
    table->setRowCount(shown);
    table->setHorizontalHeaderLabels(
        {TaskSummary::tr("Line"), TaskSummary::tr("Words"), TaskSummary::tr("Tags")});
    for (int r = 0; r < shown; ++r) {
        const auto& sentence = file.sentences[static_cast<std::size_t>(r)];
        QStringList words;
        QStringList tags;
        for (std::size_t w = 0; w < sentence.words.size(); ++w) {
            words << QString::fromStdString(sentence.words[w]);
            tags << QString::fromStdString(sentence.tags[w]);
        }
        table->setItem(r, 0, numberItem(sentence.line));
        table->setItem(r, 1, new QTableWidgetItem(words.join(QLatin1Char(' ')).left(300)));
        table->setItem(r, 2, new QTableWidgetItem(tags.join(QLatin1Char(' ')).left(300)));
    }
}

}  // namespace bert::ui
