#pragma once

#include <optional>

#include <QWidget>

#include "task/ExampleResults.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

/// "Examples" of a stored run: the per-example results of its best evaluation
/// (task/ExampleResults.h), the validation examples with the highest loss first. Sortable by
/// any column; filtered by a search over the text, truth and prediction, by "wrong only", and,
/// for single-label runs, by true and predicted class (the Model quality tab's confusion matrix
/// sets those two when a cell is clicked: showCell). Regression shows each residual; multi-label
/// and token classification the labels or entities missed and added. Double-clicking a row
/// (or Enter on it) asks for the example in Try it (tryRequested). GUI thread only; reads
/// nothing after construction.
class ExamplesView : public QWidget {
    Q_OBJECT

public:
    /// examples: none for a run that kept none (the view says why); labels: the run's classes.
    ExamplesView(std::optional<EvaluationExamples> examples, std::vector<std::string> labels,
                 QWidget* parent = nullptr);

    /// Lists the examples of true class truth predicted as predicted (the confusion matrix's
    /// cell), clearing the search and "wrong only".
    void showCell(int truth, int predicted);
    QTableWidget* table() const { return table_; }
    QLineEdit* search() const { return search_; }
    QCheckBox* wrongOnly() const { return wrongOnly_; }
    QComboBox* truthFilter() const { return truth_; }
    QComboBox* predictedFilter() const { return predicted_; }
    /// The rows shown now (not filtered out).
    int visibleRows() const;
    /// What the view says above the table: which evaluation, how many examples.
    QString summaryText() const;

Q_SIGNALS:
    /// A row was double-clicked: its text (and a pair's second text) to try.
    void tryRequested(const QString& text, const QString& pair);

private:
    void fill();
    void applyFilters();

    std::optional<EvaluationExamples> examples_;
    std::vector<std::string> labels_;
    QLabel* summary_;
    QLineEdit* search_;
    QCheckBox* wrongOnly_;
    QComboBox* truth_;
    QComboBox* predicted_;
    QTableWidget* table_;
};

}  // namespace bert::ui
