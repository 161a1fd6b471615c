#pragma once

// The dataset tab's summary of each task (issue 29, point 6): label counts and co-occurrence for
// multi-label, the target's histogram for regression, entities per type and the tagged sentences
// for token classification. Parsing is the engine's (task/multilabel/LabelSets.h,
// task/regression/RegressionTargets.h, task/token/TagScheme.h); this only draws. GUI thread only.

#include <string>
#include <utility>
#include <vector>

#include <QString>
#include <QStringList>

#include "data/TaggedReader.h"
#include "task/multilabel/LabelSets.h"
#include "task/token/TagScheme.h"

QT_BEGIN_NAMESPACE
class QChart;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

/// The engine's sentence on the classes (labels) under share (a fraction) of total examples and
/// what weighs them up (data/LabelCheck.h rareLabelWarning), translated, as a sentence to add
/// to a summary (" Rare classes: ..."); empty when none is rare.
QString rareLabelsSentence(const char* noun, double share,
                           const std::vector<std::pair<std::string, std::size_t>>& counts,
                           std::size_t total);

/// Removes the chart's series and axes.
void clearChart(QChart* chart);
/// The chart titled `title`: a horizontal bar per category with its count along a round count
/// axis, the categories' names whole on the left, the first at the top, in a font that fits
/// their rows. Past 20 categories, the 20 with the most counts (in their order), the title
/// saying so.
void showCounts(QChart* chart, const QString& title, const QStringList& categories,
                const std::vector<std::size_t>& counts, const QString& axisTitle = {});

/// A histogram of values in equal-width bins.
struct ValueHistogram {
    double low = 0.0;
    double width = 1.0;
    std::vector<std::size_t> counts;
};
ValueHistogram histogramOf(const std::vector<double>& values, std::size_t bins);

/// Draws a histogram whose bin b counts the values in (low + b x width, low + (b + 1) x width]:
/// touching bars over an axis labelled at a few round values of what was binned (histogramTicks),
/// not under every bar, so that no label is ever cut short; longer > 0 adds a bar past the last
/// bin for the values beyond it, in another colour and named in the legend.
void showHistogram(QChart* chart, const std::vector<std::size_t>& counts, double low, double width,
                   std::size_t longer, const QString& axisTitle);

/// A label of a histogram's axis: a round value, and where it falls on the axis of the bars
/// (bar b spans b - 0.5 to b + 0.5).
struct HistogramTick {
    double position = 0.0;
    QString label;
};
/// The round values (1, 2 or 5 times a power of ten apart, at most maxLabels of them) within
/// [low, low + bins x width], each with as many decimals as their interval needs (whole numbers
/// when low and width are).
std::vector<HistogramTick> histogramTicks(double low, double width, std::size_t bins,
                                          int maxLabels);

/// The label-by-label co-occurrence (counts[i][j] examples have labels i and j; the diagonal is
/// each label's count) in a table with the labels as row and column headers.
void fillCoOccurrence(QTableWidget* table, const MultiLabelMap& labels,
                      const std::vector<std::vector<std::int64_t>>& counts);
/// One row per entity type: the type, its entities and the words tagged with it.
void fillEntityCounts(QTableWidget* table, const TagSummary& summary);
/// The first sentences of a tagged file: its line, its words and its tags.
void fillSentencePreview(QTableWidget* table, const TaggedFile& file, int rows);

}  // namespace bert::ui
