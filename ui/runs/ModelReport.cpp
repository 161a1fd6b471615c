#include "runs/ModelReport.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>

#include "common/Names.h"
#include "runs/ReliabilityDiagram.h"
#include "runs/TaskReport.h"
#include "train/Metrics.h"

namespace bert::ui {

namespace {

/// Classes named in the "never predicted" line; the others are counted.
constexpr int kNeverPredictedNamed = 10;
/// Lines of warnings shown at most; more scroll.
constexpr int kWarningLines = 6;
/// The reliability diagram's width at least, beside the task's tables.
constexpr int kCalibrationWidth = 320;

QTableWidgetItem* cell(const QString& text, double shade = -1.0) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (shade >= 0.0) {
        // A blue whose strength is the row's share: the diagonal should be the dark cells.
        QColor background(52, 101, 164);
        background.setAlphaF(0.08 + 0.6 * shade);
        item->setBackground(background);
    }
    return item;
}

}  // namespace

ModelReport::ModelReport(std::vector<EvalMetrics> evaluations, std::vector<std::string> labels,
                         std::size_t bestStep, QWidget* parent)
    : QWidget(parent), evaluations_(std::move(evaluations)), labels_(std::move(labels)) {
    chooser_ = new QComboBox(this);
    int best = -1;
    for (std::size_t i = 0; i < evaluations_.size(); ++i) {
        const auto& eval = evaluations_[i];
        QString text;
        if (eval.task.is_object()) {
            const auto main = eval.task.value("main", std::string());
            const auto value = eval.task.value("figures", nlohmann::json::object())
                                   .value(main, std::numeric_limits<double>::quiet_NaN());
            text = tr("step %1 (epoch %2): %3 %4")
                       .arg(eval.step)
                       .arg(eval.epoch, 0, 'f', 2)
                       .arg(Names::figure(main))
                       .arg(value, 0, 'f', 4);
        } else {
            text = tr("step %1 (epoch %2): accuracy %3, macro-F1 %4")
                       .arg(eval.step)
                       .arg(eval.epoch, 0, 'f', 2)
                       .arg(eval.accuracy, 0, 'f', 4)
                       .arg(eval.macroF1, 0, 'f', 4);
        }
        if (eval.step == bestStep) {
            text += tr(" — best");
            best = static_cast<int>(i);
        }
        if (i + 1 == evaluations_.size()) {
            text += tr(" — last");
        }
        chooser_->addItem(text);
    }
    normalised_ = new QCheckBox(tr("&Shares of each true label"), this);
    normalised_->setToolTip(
        tr("Each row divided by its true label's count: the diagonal is "
           "that class's recall."));
    confusion_ = new QTableWidget(this);
    confusion_->setToolTip(
        tr("Rows: the true label. Columns: the predicted label. Click a cell "
           "to list its examples (of the best evaluation)."));
    connect(confusion_, &QTableWidget::cellClicked, this,
            [this](int truth, int predicted) { Q_EMIT cellChosen(truth, predicted); });
    classes_ = new QTableWidget(this);
    classes_->setColumnCount(4);
    classes_->setHorizontalHeaderLabels({tr("Precision"), tr("Recall"), tr("F1"), tr("Support")});
    for (auto* table : {confusion_, classes_}) {
        table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        table->setTabKeyNavigation(false);  // one Tab stop each
    }
    summary_ = new QLabel(this);
    warnings_ = new QLabel(this);
    warnings_->setObjectName(QStringLiteral("modelWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    warnings_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    warningsArea_ = new QScrollArea(this);
    warningsArea_->setWidget(warnings_);
    warningsArea_->setWidgetResizable(true);
    warningsArea_->setFrameShape(QFrame::NoFrame);
    warningsArea_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    warningsArea_->hide();

    auto* top = new QHBoxLayout();
    top->addWidget(new QLabel(tr("&Evaluation:"), this));
    static_cast<QLabel*>(top->itemAt(0)->widget())->setBuddy(chooser_);
    top->addWidget(chooser_, 1);
    top->addWidget(normalised_);
    singleLabel_ = new QWidget(this);
    taskReport_ = new TaskReport(this);
    taskReport_->hide();
    auto* tables = new QHBoxLayout(singleLabel_);
    tables->setContentsMargins(0, 0, 0, 0);
    auto* left = new QVBoxLayout();
    left->addWidget(
        new QLabel(tr("Confusion matrix (rows: true label, columns: predicted)"), singleLabel_));
    left->addWidget(confusion_);
    auto* right = new QVBoxLayout();
    right->addWidget(new QLabel(tr("Per class"), singleLabel_));
    right->addWidget(classes_);
    calibration_ = new ReliabilityDiagram(this);
    calibration_->setMinimumWidth(kCalibrationWidth);
    tables->addLayout(left, 1);
    tables->addLayout(right, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(summary_);
    layout->addWidget(warningsArea_);
    // The task's tables, and the reliability diagram beside them (square-ish, as such
    // diagrams are read).
    auto* body = new QHBoxLayout();
    body->addWidget(singleLabel_, 2);
    body->addWidget(taskReport_, 2);
    body->addWidget(calibration_, 1);
    layout->addLayout(body, 1);

    connect(chooser_, &QComboBox::currentIndexChanged, this, &ModelReport::showEvaluation);
    connect(normalised_, &QCheckBox::toggled, this, [this] { refresh(); });
    if (evaluations_.empty()) {
        summary_->setText(tr("This run has no evaluation yet."));
        chooser_->setEnabled(false);
        normalised_->setEnabled(false);
        return;
    }
    chooser_->setCurrentIndex(best >= 0 ? best : static_cast<int>(evaluations_.size()) - 1);
    showEvaluation(chooser_->currentIndex());
}

void ModelReport::showEvaluation(int index) {
    if (index < 0 || index >= static_cast<int>(evaluations_.size())) {
        return;
    }
    current_ = index;
    if (chooser_->currentIndex() != index) {
        chooser_->setCurrentIndex(index);  // comes back here once, with current_ set
    }
    refresh();
}

void ModelReport::setNormalised(bool normalised) {
    normalised_->setChecked(normalised);
}

void ModelReport::setTemperatureScaling(bool applied) {
    temperatureScaling_ = applied;
    refresh();
}

QString ModelReport::warningText() const {
    return warnings_->text();
}

void ModelReport::refresh() {
    if (current_ < 0) {
        return;
    }
    const auto& eval = evaluations_[static_cast<std::size_t>(current_)];
    const bool otherTask = eval.task.is_object();
    singleLabel_->setVisible(!otherTask);
    normalised_->setVisible(!otherTask);
    taskReport_->setVisible(otherTask);
    // Every task with classes measures its calibration; regression has none.
    calibration_->setVisible(eval.calibration.is_object());
    calibration_->showCalibration(eval.calibration, temperatureScaling_);
    if (otherTask) {
        taskReport_->showReport(eval.task);
        summary_->setText(tr("Validation loss %1.").arg(eval.loss, 0, 'f', 4));
        warnings_->clear();
        warningsArea_->hide();
        return;
    }
    const auto& matrix = eval.confusion;
    const int n = static_cast<int>(matrix.size());
    QStringList names;
    for (int c = 0; c < n; ++c) {
        names << (c < static_cast<int>(labels_.size())
                      ? QString::fromStdString(labels_[static_cast<std::size_t>(c)])
                      : QString::number(c));
    }
    const bool shares = normalised_->isChecked();
    confusion_->clear();
    confusion_->setRowCount(n);
    confusion_->setColumnCount(n);
    confusion_->setHorizontalHeaderLabels(names);
    confusion_->setVerticalHeaderLabels(names);
    for (int t = 0; t < n; ++t) {
        std::int64_t rowTotal = 0;
        for (int p = 0; p < n; ++p) {
            rowTotal += matrix[static_cast<std::size_t>(t)][static_cast<std::size_t>(p)];
        }
        for (int p = 0; p < n; ++p) {
            const auto count = matrix[static_cast<std::size_t>(t)][static_cast<std::size_t>(p)];
            const double share =
                rowTotal > 0 ? static_cast<double>(count) / static_cast<double>(rowTotal) : 0.0;
            confusion_->setItem(
                t, p,
                cell(shares ? QString::number(share, 'f', 3) : QString::number(count), share));
        }
    }
    const auto rows = perClassOf(matrix);
    classes_->setRowCount(n);
    classes_->setVerticalHeaderLabels(names);
    for (int c = 0; c < n; ++c) {
        const auto& row = rows[static_cast<std::size_t>(c)];
        classes_->setItem(c, 0, cell(QString::number(row.precision, 'f', 3)));
        classes_->setItem(c, 1, cell(QString::number(row.recall, 'f', 3)));
        classes_->setItem(c, 2, cell(QString::number(row.f1, 'f', 3)));
        classes_->setItem(c, 3, cell(QString::number(row.support)));
    }
    summary_->setText(tr("Accuracy %1, macro-F1 %2, validation loss %3 over %4 examples.")
                          .arg(eval.accuracy, 0, 'f', 4)
                          .arg(eval.macroF1, 0, 'f', 4)
                          .arg(eval.loss, 0, 'f', 4)
                          .arg(std::accumulate(rows.begin(), rows.end(), std::int64_t{0},
                                               [](std::int64_t sum, const ClassMetrics& r) {
                                                   return sum + r.support;
                                               })));
    QStringList lines;
    QStringList neverPredicted;
    std::int64_t neverSupport = 0;
    for (const auto& warning : modelWarnings(matrix, labels_)) {
        const auto classA = QString::fromStdString(warning.classA);
        const auto classB = QString::fromStdString(warning.classB);
        switch (warning.kind) {
            case ModelWarning::Kind::NeverPredicted:
                // One line for them all: a line each made a 500-class run's page 7,731
                // pixels tall.
                neverPredicted << classA;
                neverSupport += warning.support;
                break;
            case ModelWarning::Kind::Imbalanced:
                lines << tr("The labels are imbalanced: “%1” is %2% of the validation set, “%3” "
                            "%4%. Judge the model by macro-F1 and per-class recall, not accuracy.")
                             .arg(classA)
                             .arg(100.0 * warning.shareA, 0, 'f', 0)
                             .arg(classB)
                             .arg(100.0 * warning.shareB, 0, 'f', 0);
                break;
            case ModelWarning::Kind::AccuracyAboveF1:
                lines << tr("Accuracy %1 is far above macro-F1 %2: the smaller classes are "
                            "mostly missed.")
                             .arg(warning.shareA, 0, 'f', 2)
                             .arg(warning.shareB, 0, 'f', 2);
                break;
        }
    }
    if (neverPredicted.size() == 1) {
        lines.prepend(tr("“%1” is never predicted: its %2 validation examples are all given "
                         "other labels. Try class weighting (balanced), more epochs or a "
                         "higher learning rate.")
                          .arg(neverPredicted.front())
                          .arg(neverSupport));
    } else if (neverPredicted.size() > 1) {
        const auto count = static_cast<int>(neverPredicted.size());
        QStringList named = neverPredicted.mid(0, kNeverPredictedNamed);
        QString list = named.join(QStringLiteral(", "));
        if (count > kNeverPredictedNamed) {
            list += tr(", … and %n more", nullptr, count - kNeverPredictedNamed);
        }
        lines.prepend(tr("%n classes never predicted: %1. Their %2 validation examples are all "
                         "given other labels. Try class weighting (balanced), more epochs or a "
                         "higher learning rate.",
                         nullptr, count)
                          .arg(list)
                          .arg(neverSupport));
    }
    warnings_->setText(lines.join(QLatin1Char('\n')));
    warningsArea_->setVisible(!lines.isEmpty());
    fitWarnings();
}

void ModelReport::fitWarnings() {
    // As tall as its lines, up to kWarningLines of them; the rest scrolls.
    const int width = std::max(warningsArea_->viewport()->width(), 200);
    const int lines = fontMetrics().lineSpacing() * kWarningLines;
    const int frame = 2 * warningsArea_->frameWidth();
    warningsArea_->setFixedHeight(std::min(warnings_->heightForWidth(width), lines) + frame);
}

void ModelReport::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (warningsArea_->isVisibleTo(this)) {
        fitWarnings();
    }
}

}  // namespace bert::ui
