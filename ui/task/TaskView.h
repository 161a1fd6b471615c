#pragma once

// The studio's side of a task: what the dataset tab, the training plan and Try it show for it.
// Each task implements it in ui/task/<kind>/<Kind>View.cpp, listed once in TaskView.cpp (one
// line of core's task/TaskList.h each); the pages ask the view instead of switching on the
// kind. The engine's side is core/task/Task.h. GUI thread only, but for readExamples.

#include <functional>
#include <optional>
#include <vector>

#include <QPair>
#include <QString>
#include <QStringList>

#include "data/Dataset.h"
#include "data/LabelCheck.h"
#include "runs/RunStore.h"
#include "task/TrainingData.h"
#include "task/multilabel/LabelSets.h"
#include "task/token/TagScheme.h"

QT_BEGIN_NAMESPACE
class QChart;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

struct TryItResult;
class TryItResultView;

/// The rows of a dataset as a task reads them on the dataset tab.
struct TaskExamples {
    ExampleSet examples;
    std::optional<std::vector<LabelSet>> labelSets;  ///< multi-label: each example's labels
};

/// What a task's dataset summary reads and where it draws.
struct DatasetSummaryParts {
    QChart* chart = nullptr;
    QTableWidget* table = nullptr;  ///< hidden until a task fills and shows it
    QLabel* summary = nullptr;
    const ExampleSet* examples = nullptr;              ///< a table's examples, when read
    const std::vector<LabelSet>* labelSets = nullptr;  ///< multi-label's, when read
    const TagSummary* tagSummary = nullptr;            ///< a tagged file's, when open
    bool labelsFromColumns = false;      ///< multi-label from one 0/1 column per label
    char separator = ';';                ///< multi-label: between the labels of a cell
    double rareShare = kRareLabelShare;  ///< under this share of the examples a class is rare
    QString labelColumn;
    QString file;
    std::function<void(const QString&)> showError;
    /// What reading the file skipped and mended, as a sentence ("" when nothing).
    std::function<QString(const ExampleSet&, bool labelRequired)> readingNotice;
};

class TaskView {
public:
    virtual ~TaskView() = default;
    virtual TaskKind kind() const = 0;
    /// The task's name in the studio: "Regression".
    virtual QString name() const = 0;

    // ---- the dataset tab ---------------------------------------------------------------------
    /// Whether the task reads tagged words (a CoNLL file...) rather than a table's rows.
    virtual bool readsTaggedWords() const { return false; }
    /// Whether the task has classes to count, stratify by and balance (the plan's class checks).
    virtual bool hasClasses() const { return false; }
    /// The form's rows the task uses: where a row's labels are (one column or 0/1 columns) and
    /// the decision threshold (multi-label), standardised targets (regression).
    virtual bool usesLabelChoice() const { return false; }
    virtual bool usesThreshold() const { return false; }
    virtual bool usesStandardizedTargets() const { return false; }
    /// The examples of spec as training reads them (any thread); throws InputError naming the
    /// file, line and column at fault.
    virtual TaskExamples readExamples(const DataSpec& spec, bool fromColumns, char separator) const;
    /// The task's chart, table and summary line for what the tab read; false when there is
    /// nothing yet to summarise.
    virtual bool showSummary(const DatasetSummaryParts& parts) const = 0;

    // ---- Try it ------------------------------------------------------------------------------
    /// Fills view with result as the task shows a prediction.
    virtual void showResult(TryItResultView& view, const TryItResult& result) const = 0;
    /// The result as (name, number) pairs for Copy result, most telling first.
    virtual QList<QPair<QString, double>> resultLines(const TryItResult& result) const;
    /// What a text cut at the max length loses: "the rest did not count".
    virtual QString whatCuttingLoses() const;
    /// A stored run in the model choice: "run 3: spam (accuracy 0.970)".
    virtual QString describeRun(const RunRecord& run) const;
};

/// The view of kind.
const TaskView& taskView(TaskKind kind);

/// Each task's view, defined in its folder (ui/task/<kind>/).
#define BERT_STUDIO_DECLARE_TASK_VIEW(Kind, id) const TaskView& id##View();
BERT_STUDIO_TASKS(BERT_STUDIO_DECLARE_TASK_VIEW)
#undef BERT_STUDIO_DECLARE_TASK_VIEW

}  // namespace bert::ui
