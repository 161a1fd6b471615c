// The dataset tab's tasks (issue 29, point 6): the task choice and its guess, tagged files, and
// each task's summary. The rest of the page is in DatasetPage.cpp.
#include <cmath>
#include <numeric>
#include <set>

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QTableWidget>

#include "common/Guard.h"
#include "common/Names.h"
#include "dataset/DatasetPage.h"
#include "dataset/LabelColumnsChoice.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "task/multilabel/LabelSets.h"
#include "task/regression/RegressionTargets.h"

namespace bert::ui {

namespace {
constexpr int kPreviewSentences = 200;

// The reasons guessTask gives (task/TaskGuess.cpp), for lupdate: the page shows them translated.
[[maybe_unused]] const char* const kGuessReasons[] = {
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "a CoNLL file of tagged words"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "one 0/1 column per label"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "JSON lines of tokens and their tags"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "JSON lines of entity spans over texts"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "the data could not be read to guess"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "one label per text"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "the label column holds several labels per row"),
    QT_TRANSLATE_NOOP("bert::ui::DatasetPage", "the label column holds numbers"),
};

/// What reading the rows left out or mended, as a sentence (empty when nothing was): rows
/// without a text (or, where a label is required, without a label) and the first one's line,
/// the encoding read when not UTF-8, invalid UTF-8, control characters removed and where the
/// first was (core's readingNotes says the same in the training log).
QString readingNotice(const ExampleSet& set, bool labelRequired) {
    QStringList notes;
    const int skipped = static_cast<int>(set.skippedEmpty);
    if (skipped > 0) {
        notes << (labelRequired
                      ? DatasetPage::tr("%n rows without text or label skipped", nullptr, skipped)
                      : DatasetPage::tr("%n rows without text skipped", nullptr, skipped)) +
                     QLatin1Char(' ') +
                     DatasetPage::tr("(the first on line %1)").arg(set.firstSkippedLine);
    }
    if (!set.encoding.empty()) {
        notes << DatasetPage::tr("read as %1 (the file is not UTF-8)")
                     .arg(QString::fromStdString(set.encoding));
    }
    if (set.invalidUtf8Replaced > 0) {
        notes << DatasetPage::tr("%n invalid UTF-8 sequences replaced", nullptr,
                                 static_cast<int>(set.invalidUtf8Replaced));
    }
    if (const auto& controls = set.removedControls; controls.count > 0) {
        const auto first = controls.code == 0 ? QStringLiteral("NUL")
                                              : QStringLiteral("U+%1").arg(
                                                    QString::number(controls.code, 16).toUpper(), 4,
                                                    QLatin1Char('0'));
        notes << (controls.column.empty()
                      ? DatasetPage::tr("%n control characters removed (the first, %1, on line "
                                        "%2 in the header)",
                                        nullptr, static_cast<int>(controls.count))
                            .arg(first)
                            .arg(controls.line)
                      : DatasetPage::tr("%n control characters removed (the first, %1, on line "
                                        "%2 in column \"%3\")",
                                        nullptr, static_cast<int>(controls.count))
                            .arg(first)
                            .arg(controls.line)
                            .arg(QString::fromStdString(controls.column)));
    }
    return notes.isEmpty() ? QString()
                           : QLatin1Char(' ') + notes.join(QStringLiteral("; ")) + QLatin1Char('.');
}
}  // namespace

void DatasetPage::addTaskSettings() {
    // Checked by default: a head that starts near zero learns a target of 5 to 8 badly (a
    // regression run on log lengths ended at R² -118 without it, 0.58 RMSE with it).
    standardizeTargets_ = new QCheckBox(
        tr("Standardise the target (train on zero mean, unit variance; undone at prediction)"),
        this);
    standardizeTargets_->setObjectName(QStringLiteral("standardizeTargets"));
    standardizeTargets_->setChecked(true);
    standardizeTargets_->setToolTip(
        tr("The model's output starts near zero: a target far from zero or on a large scale "
           "(say 5 to 8, or 0 to 1000) is learnt slowly and badly. Training on (target − mean) ÷ "
           "standard deviation of the training rows fixes that; predictions are turned back "
           "into the target's units."));
    form_->addRow(QString(), standardizeTargets_);
    form_->setRowVisible(standardizeTargets_, false);

    // Multi-label: the probability from which a label is predicted, tuned on validation (the
    // engine's default) or fixed.
    thresholdRow_ = new QWidget(this);
    thresholdTuned_ = new QRadioButton(tr("t&uned on validation"), thresholdRow_);
    thresholdTuned_->setObjectName(QStringLiteral("thresholdTuned"));
    thresholdTuned_->setToolTip(
        tr("After each evaluation, the threshold with the best micro-F1 "
           "on the validation rows"));
    thresholdFixed_ = new QRadioButton(tr("&fixed at"), thresholdRow_);
    thresholdFixed_->setObjectName(QStringLiteral("thresholdFixed"));
    threshold_ = new QDoubleSpinBox(thresholdRow_);
    threshold_->setObjectName(QStringLiteral("threshold"));
    threshold_->setRange(0.01, 0.99);
    threshold_->setDecimals(2);
    threshold_->setSingleStep(0.05);
    threshold_->setValue(0.5);
    threshold_->setToolTip(tr("A label is predicted when its probability reaches this"));
    thresholdTuned_->setChecked(true);
    threshold_->setEnabled(false);
    connect(thresholdFixed_, &QRadioButton::toggled, threshold_, &QWidget::setEnabled);
    auto* thresholdLayout = new QHBoxLayout(thresholdRow_);
    thresholdLayout->setContentsMargins(0, 0, 0, 0);
    thresholdLayout->addWidget(thresholdTuned_);
    thresholdLayout->addWidget(thresholdFixed_);
    thresholdLayout->addWidget(threshold_);
    thresholdLayout->addStretch();
    form_->addRow(tr("Decision thres&hold:"), thresholdRow_);
    form_->setRowVisible(thresholdRow_, false);
}

void DatasetPage::showTaskSettings(const TaskSpec& task) {
    const auto& view = taskView(task.kind);
    if (view.usesStandardizedTargets()) {
        standardizeTargets_->setChecked(task.standardizeTargets);
    }
    if (view.usesThreshold()) {
        (task.threshold ? thresholdFixed_ : thresholdTuned_)->setChecked(true);
        threshold_->setValue(task.threshold.value_or(threshold_->value()));
    }
}

void DatasetPage::showTagged(Opened& opened) {
    const auto file = opened.file;
    tagSummary_ = std::move(opened.tagSummary);
    tagged_ = std::move(opened.tagged);
    file_ = file;
    preview_.reset();
    showError({});
    fileLabel_->setText(QDir::toNativeSeparators(file) + QStringLiteral(" (") +
                        QString::fromStdString(taggedFormatName(tagged_->format)) +
                        QLatin1Char(')'));
    rememberRecent(file);
    fillSentencePreview(previewTable_, *tagged_, kPreviewSentences);
    previewTable_->horizontalHeader()->setStretchLastSection(true);
    previewTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    previewTable_->resizeColumnsToContents();
    for (auto* combo : {textColumn_, pairColumn_, labelColumn_}) {
        const QSignalBlocker block(combo);
        combo->clear();
        combo->setEnabled(false);  // words and tags are the file's, not columns
    }
}

void DatasetPage::showOpenError(const std::exception_ptr& error) {
    showOpenError(describeError(error));  // DatasetLoading.cpp
}

void DatasetPage::setTaskGuess(const TaskGuess& guess) {
    {
        const QSignalBlocker block(task_);
        task_->setCurrentIndex(task_->findData(int(guess.kind)));
    }
    QString reason = tr(guess.reason.c_str());
    const bool labelChoice = taskView(guess.kind).usesLabelChoice();
    if (labelChoice && preview_ && !guess.labelColumns.empty()) {
        labelChoice_->checkColumns(guess.labelColumns);
        labelChoice_->setFromColumns(true);
        QStringList names;
        for (const auto& column : guess.labelColumns) {
            names << QString::fromStdString(column);
        }
        // A label column guessed among the 0/1 columns is one of the labels, not the labels.
        if (names.contains(labelColumn_->currentText())) {
            const QSignalBlocker block(labelColumn_);
            labelColumn_->setCurrentIndex(0);
        }
        reason = tr("%1: %2 hold only 0 and 1").arg(reason, names.join(QStringLiteral(", ")));
    } else if (labelChoice && preview_) {
        const auto column = preview_->columnIndex(chosenColumns().label);
        const auto separator = column ? guessLabelSeparator(*preview_, *column) : std::nullopt;
        labelChoice_->setSeparator(separator.value_or(';'));
    }
    guessedTask_ = guess.kind;
    guessReason_ = reason;
    showTaskGuess();
}

void DatasetPage::showTaskGuess() {
    const auto guessed = Names::task(guessedTask_);
    taskGuessLabel_->setText(task() == guessedTask_
                                 ? tr("Guessed from the data: %1 (%2). Change it if it is wrong.")
                                       .arg(guessed, guessReason_)
                                 : tr("Chosen by hand: %1. The data looked like %2 (%3).")
                                       .arg(task_->currentText(), guessed, guessReason_));
}

void DatasetPage::labelChoiceChanged() {
    if (labelChoice_->fromColumns() && labelChoice_->checkedColumns().empty() && preview_) {
        guarded(this, tr("Label columns"), [this] {
            labelChoice_->checkColumns(indicatorColumns(*preview_, chosenColumns()));
        });
    }
    columnsChanged();
}

bool DatasetPage::labelsFromColumns() const {
    return taskView(task()).usesLabelChoice() && labelChoice_->fromColumns();
}

TaskKind DatasetPage::task() const {
    return static_cast<TaskKind>(task_->currentData().toInt());
}

QString DatasetPage::taskGuessText() const {
    return taskGuessLabel_->text();
}

QString DatasetPage::summaryText() const {
    return summaryLabel_->text();
}

bool DatasetPage::hasData() const {
    return taskView(task()).readsTaggedWords()
               ? tagged_.has_value() && errorLabel_->text().isEmpty()
               : examples_.has_value();
}

char DatasetPage::labelSeparator() const {
    return labelChoice_->separator();
}

void DatasetPage::readExamples() {
    auto read = readExamplesOf(dataSpec(), labelsFromColumns(), labelSeparator());
    labelSets_ = std::move(read.labelSets);
    examples_ = std::move(read.examples);
}

void DatasetPage::setRareShare(double share) {
    if (share == rareShare_) {
        return;
    }
    rareShare_ = share;
    if (hasData()) {
        refreshTaskSummary();
    }
}

void DatasetPage::refreshTaskSummary() {
    taskTable_->hide();
    DatasetSummaryParts parts;
    parts.chart = labelChart_->chart();
    parts.table = taskTable_;
    parts.summary = summaryLabel_;
    parts.examples = examples_ ? &*examples_ : nullptr;
    parts.labelSets = labelSets_ ? &*labelSets_ : nullptr;
    parts.tagSummary = tagged_ && tagSummary_ ? &*tagSummary_ : nullptr;
    parts.labelsFromColumns = labelsFromColumns();
    parts.separator = labelSeparator();
    parts.rareShare = rareShare_;
    parts.labelColumn = QString::fromStdString(dataSpec().columns.label);
    parts.file = file_;
    parts.showError = [this](const QString& message) { showError(message); };
    parts.readingNotice = [](const ExampleSet& set, bool labelRequired) {
        return readingNotice(set, labelRequired);
    };
    taskView(task()).showSummary(parts);
}

}  // namespace bert::ui
