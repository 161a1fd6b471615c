#include "runs/ExamplesView.h"

#include <cmath>

#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

namespace bert::ui {

namespace {

enum Column { kLoss, kProbability, kTruth, kPredicted, kMissed, kAdded, kLine, kText, kColumns };

/// The row of examples_->rows an item's line shows, kept on its first cell.
constexpr int kRowRole = Qt::UserRole + 1;
/// A cell's number, which it sorts by (its text is rounded).
constexpr int kNumberRole = Qt::UserRole + 2;

/// A cell that sorts by its number, not its text ("10.2" after "9.1").
class NumberItem final : public QTableWidgetItem {
public:
    NumberItem(double value, int decimals)
        : QTableWidgetItem(std::isnan(value) ? QStringLiteral("nan")
                                             : QString::number(value, 'f', decimals)) {
        setData(kNumberRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(kNumberRole).toDouble() < other.data(kNumberRole).toDouble();
    }
};

/// A text on one line, for a cell (the tooltip holds it whole).
QString oneLine(const std::string& text) {
    return QString::fromStdString(text).simplified();
}

}  // namespace

ExamplesView::ExamplesView(std::optional<EvaluationExamples> examples,
                           std::vector<std::string> labels, QWidget* parent)
    : QWidget(parent), examples_(std::move(examples)), labels_(std::move(labels)) {
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    search_ = new QLineEdit(this);
    search_->setPlaceholderText(tr("Search the texts, truths and predictions"));
    search_->setClearButtonEnabled(true);
    wrongOnly_ = new QCheckBox(tr("&Wrong only"), this);
    truth_ = new QComboBox(this);
    predicted_ = new QComboBox(this);
    for (auto* combo : {truth_, predicted_}) {
        combo->addItem(tr("any"), -1);
        for (std::size_t c = 0; c < labels_.size(); ++c) {
            combo->addItem(QString::fromStdString(labels_[c]), static_cast<int>(c));
        }
    }
    table_ = new QTableWidget(this);
    table_->setColumnCount(kColumns);
    table_->setHorizontalHeaderLabels({tr("Loss"), tr("P(truth)"), tr("Truth"), tr("Predicted"),
                                       tr("Missed"), tr("Added"), tr("Line"), tr("Text")});
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setTabKeyNavigation(false);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setToolTip(tr("Double-click an example (or press Enter) to try it in Try it."));

    auto* filters = new QHBoxLayout();
    auto* searchLabel = new QLabel(tr("Sea&rch:"), this);
    searchLabel->setBuddy(search_);
    filters->addWidget(searchLabel);
    filters->addWidget(search_, 1);
    auto* truthLabel = new QLabel(tr("&True:"), this);
    truthLabel->setBuddy(truth_);
    auto* predictedLabel = new QLabel(tr("Pre&dicted:"), this);
    predictedLabel->setBuddy(predicted_);
    filters->addWidget(truthLabel);
    filters->addWidget(truth_);
    filters->addWidget(predictedLabel);
    filters->addWidget(predicted_);
    filters->addWidget(wrongOnly_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addLayout(filters);
    layout->addWidget(table_, 1);

    fill();
    // Class filters only where each example has one class and one prediction.
    const bool classes = examples_ && !examples_->rows.empty() &&
                         examples_->rows.front().truthClass >= 0 && !labels_.empty();
    for (QWidget* widget :
         {static_cast<QWidget*>(truth_), static_cast<QWidget*>(predicted_),
          static_cast<QWidget*>(truthLabel), static_cast<QWidget*>(predictedLabel)}) {
        widget->setVisible(classes);
    }
    connect(search_, &QLineEdit::textChanged, this, [this] { applyFilters(); });
    connect(wrongOnly_, &QCheckBox::toggled, this, [this] { applyFilters(); });
    connect(truth_, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });
    connect(predicted_, &QComboBox::currentIndexChanged, this, [this] { applyFilters(); });
    auto tryRow = [this](int row) {
        const auto* first = table_->item(row, kLoss);
        if (first == nullptr || !examples_) {
            return;
        }
        const auto index = first->data(kRowRole).toULongLong();
        if (index < examples_->rows.size()) {
            const auto& example = examples_->rows[index];
            Q_EMIT tryRequested(QString::fromStdString(example.text),
                                QString::fromStdString(example.pair));
        }
    };
    // Activated: a double-click, or Enter (one signal for both, so one classification).
    connect(table_, &QTableWidget::itemActivated, this,
            [tryRow](QTableWidgetItem* item) { tryRow(item->row()); });
}

void ExamplesView::fill() {
    if (!examples_ || examples_->rows.empty()) {
        summary_->setText(
            tr("This run kept no per-example results: it was not evaluated, or it was trained "
               "by a version of BERT Studio that did not keep them."));
        table_->setRowCount(0);
        return;
    }
    const auto& rows = examples_->rows;
    const bool regression = rows.front().residual.has_value();
    bool lists = false;  // labels or entities missed and added
    for (const auto& row : rows) {
        lists = lists || !row.missed.empty() || !row.added.empty();
    }
    const QLocale locale;
    summary_->setText(
        examples_->evaluated <= rows.size()
            ? tr("The evaluation at step %1 (the best): all %2 validation examples, highest "
                 "loss first.")
                  .arg(examples_->step)
                  .arg(locale.toString(static_cast<qulonglong>(rows.size())))
            : tr("The evaluation at step %1 (the best): the %2 of %3 validation examples with "
                 "the highest loss, highest first.")
                  .arg(examples_->step)
                  .arg(locale.toString(static_cast<qulonglong>(rows.size())))
                  .arg(locale.toString(static_cast<qulonglong>(examples_->evaluated))));
    table_->horizontalHeaderItem(kProbability)
        ->setText(regression ? tr("Residual") : tr("P(truth)"));
    table_->setColumnHidden(kMissed, !lists);
    table_->setColumnHidden(kAdded, !lists);
    table_->setSortingEnabled(false);
    table_->setRowCount(static_cast<int>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const int r = static_cast<int>(i);
        auto* loss = new NumberItem(row.loss, 4);
        loss->setData(kRowRole, static_cast<qulonglong>(i));
        table_->setItem(r, kLoss, loss);
        const double second =
            regression ? row.residual.value_or(0.0) : row.truthProbability.value_or(std::nan(""));
        table_->setItem(r, kProbability, new NumberItem(second, 4));
        auto* truth = new QTableWidgetItem(QString::fromStdString(row.truth));
        auto* predicted = new QTableWidgetItem(QString::fromStdString(row.predicted));
        if (row.correct && !*row.correct) {
            predicted->setForeground(QColor(192, 57, 43));  // the warnings' red
        }
        table_->setItem(r, kTruth, truth);
        table_->setItem(r, kPredicted, predicted);
        table_->setItem(r, kMissed,
                        new QTableWidgetItem(QString::fromStdString(joinedList(row.missed))));
        table_->setItem(r, kAdded,
                        new QTableWidgetItem(QString::fromStdString(joinedList(row.added))));
        table_->setItem(r, kLine, new NumberItem(static_cast<double>(row.line), 0));
        auto text = oneLine(row.text);
        if (!row.pair.empty()) {
            text += QStringLiteral("  |  ") + oneLine(row.pair);
        }
        auto* textItem = new QTableWidgetItem(text);
        textItem->setToolTip(QString::fromStdString(row.text));
        table_->setItem(r, kText, textItem);
    }
    table_->setSortingEnabled(true);
    table_->sortByColumn(kLoss, Qt::DescendingOrder);
    table_->resizeColumnsToContents();
    // The text takes what is left; truths and predictions never crowd it out.
    for (const int column : {kTruth, kPredicted, kMissed, kAdded}) {
        table_->setColumnWidth(column, std::min(table_->columnWidth(column), 220));
    }
}

void ExamplesView::applyFilters() {
    if (!examples_) {
        return;
    }
    const auto needle = search_->text().trimmed();
    const int truth = truth_->currentData().toInt();
    const int predicted = predicted_->currentData().toInt();
    for (int r = 0; r < table_->rowCount(); ++r) {
        const auto index = table_->item(r, kLoss)->data(kRowRole).toULongLong();
        const auto& row = examples_->rows[index];
        bool shown = !wrongOnly_->isChecked() || (row.correct && !*row.correct);
        shown = shown && (truth < 0 || row.truthClass == truth);
        shown = shown && (predicted < 0 || row.predictedClass == predicted);
        if (shown && !needle.isEmpty()) {
            shown = false;
            for (const auto* text : {&row.text, &row.pair, &row.truth, &row.predicted}) {
                shown =
                    shown || QString::fromStdString(*text).contains(needle, Qt::CaseInsensitive);
            }
        }
        table_->setRowHidden(r, !shown);
    }
}

void ExamplesView::showCell(int truth, int predicted) {
    const QSignalBlocker blockSearch(search_);
    const QSignalBlocker blockWrong(wrongOnly_);
    const QSignalBlocker blockTruth(truth_);
    const QSignalBlocker blockPredicted(predicted_);
    search_->clear();
    wrongOnly_->setChecked(false);
    truth_->setCurrentIndex(std::max(0, truth_->findData(truth)));
    predicted_->setCurrentIndex(std::max(0, predicted_->findData(predicted)));
    applyFilters();
}

int ExamplesView::visibleRows() const {
    int visible = 0;
    for (int r = 0; r < table_->rowCount(); ++r) {
        visible += table_->isRowHidden(r) ? 0 : 1;
    }
    return visible;
}

QString ExamplesView::summaryText() const {
    return summary_->text();
}

}  // namespace bert::ui
