#include "task/TaskView.h"

#include <algorithm>

#include "tryit/TryItPage.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

TaskExamples TaskView::readExamples(const DataSpec& spec, bool /*fromColumns*/,
                                    char /*separator*/) const {
    return {loadExamples(spec.trainFile, spec.columns), std::nullopt};
}

QList<QPair<QString, double>> TaskView::resultLines(const TryItResult& result) const {
    QList<QPair<QString, double>> lines;
    const auto& scores = result.prediction.scores;
    for (std::size_t l = 0; l < scores.size() && l < result.labels.size(); ++l) {
        lines.append({QString::fromStdString(result.labels[l]), scores[l]});
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    return lines;
}

QString TaskView::whatCuttingLoses() const {
    return TryItPage::tr("the rest did not count");
}

QString TaskView::describeRun(const RunRecord& run) const {
    return TryItPage::tr("run %1: %2 (%3)")
        .arg(run.id)
        .arg(QString::fromStdString(run.name), name());
}

const TaskView& taskView(TaskKind kind) {
#define BERT_STUDIO_TASK_VIEW_ENTRY(Kind, id) &id##View(),
    static const TaskView* const views[] = {BERT_STUDIO_TASKS(BERT_STUDIO_TASK_VIEW_ENTRY)};
#undef BERT_STUDIO_TASK_VIEW_ENTRY
    for (const auto* view : views) {
        if (view->kind() == kind) {
            return *view;
        }
    }
    return *views[0];  // unreachable: every kind has its line
}

}  // namespace bert::ui
