#pragma once

#include <string>
#include <vector>

#include <QColor>
#include <QString>
#include <QWidget>

#include "runs/TaskPrediction.h"

namespace bert::ui {

/// Where a multi-label threshold came from, said beside it.
enum class ThresholdSource {
    Run,     ///< the run's fixed or tuned threshold
    Folder,  ///< the model folder's config.json ("bert_studio_task")
    Default  ///< neither says: 0.5
};

/// One text's prediction as Try it shows it: made off the GUI thread, shown on it.
struct TryItResult {
    TaskSettings settings;
    ThresholdSource thresholdSource = ThresholdSource::Default;
    std::vector<std::string> labels;  ///< the model's labels, in id order
    TextPrediction prediction;
};

/// The view of one result, as its task's view (ui/task/TaskView.h) composes it:
///  - single-label: a row per label, most likely first, with its probability as a bar;
///  - multi-label: a chip per label at or above the threshold (its probability on it), the
///    threshold said, and the other labels below, dimmed, with their probabilities;
///  - regression: the predicted number in the target's units, under the target column's name;
///  - token classification: the text with each entity highlighted in its type's colour and its
///    type beside it, a legend of the model's entity types, and a table of the entities (text,
///    type, first and last character, counted in code points as `predict` writes them).
/// Children carry object names the tests find them by (tryItChip, tryItValue, ...).
class TryItResultView : public QWidget {
    Q_OBJECT

public:
    TryItResultView(const TryItResult& result, QWidget* parent);

    /// The colour of an entity type among the model's types (a fixed palette, in type order).
    static QColor typeColour(int typeIndex);
    /// The entity types of a token model's labels (B-PER, I-PER... give PER), sorted.
    static std::vector<std::string> entityTypes(const std::vector<std::string>& labels);

    // What each task's view (ui/task/) builds its result from:
    void showProbabilities(const TryItResult& result);
    void showLabelChips(const TryItResult& result);
    void showValue(const TryItResult& result);
    void showEntities(const TryItResult& result);
};

}  // namespace bert::ui
