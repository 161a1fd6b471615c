// Single-label in the studio: the label counts, the accuracy of a run, a probability per label.
#include <map>

#include <QChart>
#include <QCoreApplication>
#include <QLabel>

#include "dataset/DatasetPage.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "tryit/TryItPage.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

namespace {

constexpr int kLabelChars = 16;  // longer names are cut on the chart's axis

class SingleLabelView final : public TaskView {
public:
    TaskKind kind() const override { return TaskKind::SingleLabel; }
    QString name() const override {
        return QCoreApplication::translate("Names", "Single-label classification");
    }
    bool hasClasses() const override { return true; }

    bool showSummary(const DatasetSummaryParts& parts) const override {
        if (parts.examples == nullptr) {
            return false;
        }
        const auto& set = *parts.examples;
        std::map<std::string, std::size_t> classes;
        for (const auto& example : set.examples) {
            ++classes[example.label];
        }
        QStringList names;
        std::vector<std::size_t> counts;
        for (const auto& [label, count] : classes) {
            names << QString::fromStdString(label).left(kLabelChars);
            counts.push_back(count);
        }
        showCounts(parts.chart, DatasetPage::tr("Label counts"), names, counts);
        // A rare class, named with what weighs it up (the run says the same before training).
        const std::vector<std::pair<std::string, std::size_t>> named(classes.begin(),
                                                                     classes.end());
        parts.summary->setText(
            DatasetPage::tr("%n examples in %1 classes.", nullptr,
                            static_cast<int>(set.examples.size()))
                .arg(classes.size()) +
            rareLabelsSentence("classes", parts.rareShare, named, set.examples.size()) +
            parts.readingNotice(set, true));
        if (classes.size() < 2) {
            parts.showError(
                DatasetPage::tr("%1 has a single class: a classifier needs at least two labels.")
                    .arg(parts.file));
        }
        return true;
    }

    void showResult(TryItResultView& view, const TryItResult& result) const override {
        view.showProbabilities(result);
    }
    QString describeRun(const RunRecord& run) const override {
        return TryItPage::tr("run %1: %2 (accuracy %3)")
            .arg(run.id)
            .arg(QString::fromStdString(run.name))
            .arg(run.bestAccuracy, 0, 'f', 3);
    }
};

}  // namespace

const TaskView& singleLabelView() {
    static const SingleLabelView view;
    return view;
}

}  // namespace bert::ui
