// Regression in the studio: the target's histogram and spread, standardised targets, the number
// predicted in the target's units.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <QChart>
#include <QCoreApplication>
#include <QLabel>

#include "dataset/DatasetPage.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "task/regression/RegressionTargets.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

namespace {

constexpr std::size_t kTargetBins = 10;  // few enough that each bin names its edge

class RegressionView final : public TaskView {
public:
    TaskKind kind() const override { return TaskKind::Regression; }
    QString name() const override { return QCoreApplication::translate("Names", "Regression"); }
    bool usesStandardizedTargets() const override { return true; }

    TaskExamples readExamples(const DataSpec& spec, bool /*fromColumns*/,
                              char /*separator*/) const override {
        TaskExamples read{loadExamples(spec.trainFile, spec.columns), std::nullopt};
        for (const auto& example : read.examples.examples) {
            // Throws, with the line.
            parseTarget(example.label, spec.trainFile, example.line, spec.columns.label);
        }
        return read;
    }

    bool showSummary(const DatasetSummaryParts& parts) const override {
        if (parts.examples == nullptr) {
            return false;
        }
        const auto& set = *parts.examples;
        std::vector<double> targets;
        for (const auto& example : set.examples) {
            targets.push_back(parseTargetValue(example.label).value_or(0.0));  // checked on load
        }
        const auto histogram = histogramOf(targets, kTargetBins);
        parts.chart->setTitle(DatasetPage::tr("Target histogram"));
        showHistogram(parts.chart, histogram.counts, histogram.low, histogram.width, 0,
                      parts.labelColumn);
        const double mean = targets.empty() ? 0.0
                                            : std::accumulate(targets.begin(), targets.end(), 0.0) /
                                                  static_cast<double>(targets.size());
        double squares = 0.0;
        for (const auto target : targets) {
            squares += (target - mean) * (target - mean);
        }
        const auto [low, high] = std::minmax_element(targets.begin(), targets.end());
        parts.summary->setText(
            DatasetPage::tr("%n examples; target “%1” from %2 to %3, mean %4, standard deviation "
                            "%5.",
                            nullptr, static_cast<int>(set.examples.size()))
                .arg(parts.labelColumn)
                .arg(targets.empty() ? 0.0 : *low, 0, 'g', 6)
                .arg(targets.empty() ? 0.0 : *high, 0, 'g', 6)
                .arg(mean, 0, 'g', 6)
                .arg(targets.empty() ? 0.0 : std::sqrt(squares / targets.size()), 0, 'g', 6) +
            parts.readingNotice(set, true));
        return true;
    }

    void showResult(TryItResultView& view, const TryItResult& result) const override {
        view.showValue(result);
    }
    QList<QPair<QString, double>> resultLines(const TryItResult& result) const override {
        const auto target = result.labels.empty() ? std::string() : result.labels.front();
        return {{QString::fromStdString(target), result.prediction.value}};
    }
};

}  // namespace

const TaskView& regressionView() {
    static const RegressionView view;
    return view;
}

}  // namespace bert::ui
