#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

QT_BEGIN_NAMESPACE
class QChartView;
class QHBoxLayout;
class QLabel;
class QTableWidget;
QT_END_NAMESPACE

namespace bert::ui {

/// The Model quality of an evaluation of a task other than single-label (issue 29, point 6),
/// from its stored task report (EvalMetrics::task): multi-label, the per-label precision,
/// recall, F1 and support and the threshold curve; regression, predicted against true as a
/// scatter and the residuals' histogram; token classification, entity precision, recall and F1
/// per type and the entity-type confusion table under them (hidden for runs stored before it).
/// GUI thread only.
class TaskReport : public QWidget {
    Q_OBJECT

public:
    explicit TaskReport(QWidget* parent = nullptr);

    /// Shows report (an evaluation's task JSON); clears everything for null.
    void showReport(const nlohmann::json& report);
    /// The per-label (multi-label) or per-type (token classification) table.
    QTableWidget* table() const { return table_; }
    /// The entity-type confusion (token classification): a row per true type and "spurious",
    /// a column per predicted type and "missed" (task/token/EntityConfusion.h).
    QTableWidget* confusionTable() const { return confusion_; }
    /// The threshold curve (multi-label) or the predicted-against-true scatter (regression).
    QChartView* firstChart() const { return first_; }
    /// The residuals' histogram (regression).
    QChartView* secondChart() const { return second_; }
    /// The figures line ("micro-F1 0.812, macro-F1 …").
    QString figuresText() const;

private:
    void showMultiLabel(const nlohmann::json& report);
    void showRegression(const nlohmann::json& report);
    void showTokenClassification(const nlohmann::json& report);
    /// Fills the confusion table from a stored "entity_confusion"; false when there is none.
    bool fillConfusion(const nlohmann::json& stored);
    /// Rows of a metrics table: name, precision, recall, F1, support (and predicted).
    void fillTable(const nlohmann::json& rows, const char* nameKey, const QString& nameHeader,
                   bool withPredicted);

    QHBoxLayout* columns_;  ///< the table's column and the charts' column
    QLabel* figures_;
    QLabel* tableTitle_;
    QTableWidget* table_;
    QLabel* confusionTitle_;
    QTableWidget* confusion_;
    QChartView* first_;
    QChartView* second_;
};

}  // namespace bert::ui
