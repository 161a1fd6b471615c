// Multi-label in the studio: labels from one column or from 0/1 columns, the examples per label
// and their co-occurrence, the decision threshold, a chip per label predicted.
#include <algorithm>

#include <QChart>
#include <QCoreApplication>
#include <QLabel>
#include <QTableWidget>

#include "dataset/DatasetPage.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "task/multilabel/MultiLabelMetrics.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

namespace {

constexpr int kLabelChars = 16;  // longer names are cut on the chart's axis

class MultiLabelView final : public TaskView {
public:
    TaskKind kind() const override { return TaskKind::MultiLabel; }
    QString name() const override {
        return QCoreApplication::translate("Names", "Multi-label classification");
    }
    bool usesLabelChoice() const override { return true; }
    bool usesThreshold() const override { return true; }

    TaskExamples readExamples(const DataSpec& spec, bool fromColumns,
                              char separator) const override {
        // As training reads them (task/multilabel/MultiLabelData.cpp): the rows with a text,
        // each with the labels of its 0/1 columns or of its label cell (none when the cell is
        // empty: an example without labels is one); a cell that is not 0/1 is refused with its
        // line and column.
        const auto& file = spec.trainFile;
        auto rows = loadTextRows(file, spec.columns);
        const auto all =
            fromColumns ? labelSetsFromIndicatorColumns(rows.table, spec.task.labelColumns, file)
                        : labelSetsFromColumn(rows.table, spec.columns.label, separator, file);
        std::vector<LabelSet> sets;
        for (const auto row : rows.rows) {
            sets.push_back(all[row]);
        }
        MultiLabelMap::fromLabelSets(sets, file);  // throws when no row has any label
        return {std::move(rows.set), std::move(sets)};
    }

    bool showSummary(const DatasetSummaryParts& parts) const override {
        if (parts.examples == nullptr || parts.labelSets == nullptr) {
            return false;
        }
        const auto& set = *parts.examples;
        const auto& sets = *parts.labelSets;
        const auto map = MultiLabelMap::fromLabelSets(sets, set.file);
        const auto together = labelCoOccurrence(map, sets);
        QStringList names;
        std::vector<std::size_t> counts;
        std::size_t labelsGiven = 0;
        for (std::size_t i = 0; i < map.size(); ++i) {
            names << QString::fromStdString(map.names()[i]).left(kLabelChars);
            counts.push_back(static_cast<std::size_t>(together[i][i]));
            labelsGiven += counts.back();
        }
        showCounts(parts.chart, DatasetPage::tr("Examples per label"), names, counts);
        std::vector<std::pair<std::string, std::size_t>> rareCandidates;
        for (std::size_t i = 0; i < map.size(); ++i) {
            rareCandidates.emplace_back(map.names()[i], counts[i]);
        }
        fillCoOccurrence(parts.table, map, together);
        parts.table->setToolTip(
            DatasetPage::tr("Label co-occurrence: examples that have both labels"));
        parts.table->show();
        const auto unlabelled = static_cast<int>(
            std::count_if(sets.begin(), sets.end(), [](const auto& s) { return s.empty(); }));
        const double perExample =
            set.examples.empty()
                ? 0.0
                : static_cast<double>(labelsGiven) / static_cast<double>(set.examples.size());
        const auto examples = static_cast<int>(set.examples.size());
        parts.summary->setText(
            (parts.labelsFromColumns
                 ? DatasetPage::tr("%n examples with %1 labels from their 0/1 columns, %2 labels "
                                   "per example on average.",
                                   nullptr, examples)
                       .arg(map.size())
                       .arg(perExample, 0, 'f', 2)
                 : DatasetPage::tr("%n examples with %1 labels, %2 labels per example on average "
                                   "(separator “%3”).",
                                   nullptr, examples)
                       .arg(map.size())
                       .arg(perExample, 0, 'f', 2)
                       .arg(QLatin1Char(parts.separator))) +
            (unlabelled > 0
                 ? QLatin1Char(' ') + DatasetPage::tr("%n with no label (kept: training reads them "
                                                      "as examples with none of the labels).",
                                                      nullptr, unlabelled)
                 : QString()) +
            QLatin1Char(' ') +
            DatasetPage::tr("The table counts the examples that have both labels.") +
            rareLabelsSentence("labels", parts.rareShare, rareCandidates, set.examples.size()) +
            parts.readingNotice(set, false));
        if (map.size() < 2) {
            parts.showError(parts.labelsFromColumns
                                ? DatasetPage::tr("%1: only one of the chosen columns has any 1: a "
                                                  "multi-label task needs at least two labels.")
                                      .arg(parts.file)
                                : DatasetPage::tr("%1 has a single label: a multi-label task needs "
                                                  "at least two. Is the separator right?")
                                      .arg(parts.file));
        }
        return true;
    }

    void showResult(TryItResultView& view, const TryItResult& result) const override {
        view.showLabelChips(result);
    }
};

}  // namespace

const TaskView& multiLabelView() {
    static const MultiLabelView view;
    return view;
}

}  // namespace bert::ui
