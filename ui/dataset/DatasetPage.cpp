#include "dataset/DatasetPage.h"

#include <algorithm>
#include <set>

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "common/AsyncTask.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "dataset/LabelColumnsChoice.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "task/regression/RegressionTargets.h"

namespace bert::ui {

namespace {
constexpr int kPreviewRows = 200;  // rows shown in the preview table
constexpr int kRecentFiles = 8;
const char* kRecentKey = "dataset/recent";
const QString kNone = QStringLiteral("—");
}  // namespace

DatasetPage::DatasetPage(QWidget* parent) : QWidget(parent) {
    setAcceptDrops(true);
    openButton_ = new QPushButton(tr("&Open dataset…"), this);
    openButton_->setObjectName(QStringLiteral("openDataset"));
    openButton_->setToolTip(
        tr("A CSV, TSV or JSON Lines file with a text column and a label column, or tagged words "
           "(CoNLL, JSON Lines of tokens and tags, span JSON)"));
    connect(openButton_, &QPushButton::clicked, this, &DatasetPage::chooseFile);
    auto* recentButton = new QToolButton(this);
    recentButton->setText(tr("Recent"));
    recentButton->setPopupMode(QToolButton::InstantPopup);
    recentMenu_ = new QMenu(recentButton);
    recentButton->setMenu(recentMenu_);
    fileLabel_ = new QLabel(tr("No dataset. Open one, or drop a file here."), this);
    fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_ = new QLabel(this);
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->hide();

    previewTable_ = new QTableWidget(this);
    previewTable_->setObjectName(QStringLiteral("datasetPreview"));
    previewTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // One Tab stop: Tab leaves the table (it walked 800 cells of a 400-row preview); the arrow
    // keys move inside it.
    previewTable_->setTabKeyNavigation(false);
    previewTable_->horizontalHeader()->setStretchLastSection(true);
    previewTable_->setWordWrap(false);

    task_ = new QComboBox(this);
    task_->setObjectName(QStringLiteral("task"));
    task_->setToolTip(
        tr("What a run learns to predict: one label, any number of labels, a "
           "number, or a tag per word"));
    for (const auto kind : allTaskKinds()) {
        task_->addItem(Names::task(kind), int(kind));
    }
    connect(task_, &QComboBox::currentIndexChanged, this, &DatasetPage::showTaskGuess);
    connect(task_, &QComboBox::currentIndexChanged, this, &DatasetPage::columnsChanged);
    labelChoice_ = new LabelColumnsChoice(this);
    connect(labelChoice_, &LabelColumnsChoice::changed, this, &DatasetPage::labelChoiceChanged);
    taskGuessLabel_ = new QLabel(this);
    taskGuessLabel_->setObjectName(QStringLiteral("taskGuess"));
    taskGuessLabel_->setWordWrap(true);
    taskTable_ = new QTableWidget(this);
    taskTable_->setObjectName(QStringLiteral("taskSummary"));
    taskTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    taskTable_->setTabKeyNavigation(false);
    taskTable_->hide();

    textColumn_ = new QComboBox(this);
    pairColumn_ = new QComboBox(this);
    labelColumn_ = new QComboBox(this);
    textColumn_->setObjectName(QStringLiteral("textColumn"));
    pairColumn_->setObjectName(QStringLiteral("pairColumn"));
    labelColumn_->setObjectName(QStringLiteral("labelColumn"));
    textColumn_->setToolTip(tr("The column with the text to classify"));
    pairColumn_->setToolTip(
        tr("An optional second text, for pair tasks (e.g. question and answer)"));
    labelColumn_->setToolTip(tr("The column with the class of each row"));
    for (auto* combo : {textColumn_, pairColumn_, labelColumn_}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &DatasetPage::columnsChanged);
    }
    validationFraction_ = new QDoubleSpinBox(this);
    validationFraction_->setRange(0.05, 0.5);
    validationFraction_->setSingleStep(0.05);
    validationFraction_->setValue(0.2);
    validationFraction_->setToolTip(
        tr("Share of each class held out for validation (stratified, seeded)"));
    summaryLabel_ = new QLabel(this);
    summaryLabel_->setWordWrap(true);
    unknownLabel_ = new QLabel(this);
    unknownLabel_->setWordWrap(true);
    unknownLabel_->setObjectName(QStringLiteral("unknownTokens"));

    form_ = new QFormLayout();
    form_->addRow(tr("Tas&k:"), task_);
    form_->addRow(QString(), taskGuessLabel_);
    form_->addRow(tr("Labels:"), labelChoice_);
    form_->addRow(tr("Te&xt column:"), textColumn_);
    form_->addRow(tr("&Second text column:"), pairColumn_);
    form_->addRow(tr("&Label column:"), labelColumn_);
    form_->addRow(tr("Vali&dation share:"), validationFraction_);
    form_->setRowVisible(labelChoice_, false);  // single-label until a file says otherwise
    addTaskSettings();

    auto makeChart = [this](const QString& title) {
        auto* chart = new QChart();
        chart->setTitle(title);
        chart->legend()->hide();
        auto* view = new QChartView(chart, this);
        view->setRenderHint(QPainter::Antialiasing);
        view->setMinimumHeight(200);
        return view;
    };
    labelChart_ = makeChart(tr("Label counts"));
    labelChart_->setObjectName(QStringLiteral("taskChart"));
    lengthChart_ = makeChart(tr("Token lengths"));
    lengthChart_->setObjectName(QStringLiteral("lengthChart"));
    paddingLabel_ = new QLabel(this);
    paddingLabel_->setObjectName(QStringLiteral("paddingText"));
    paddingLabel_->setWordWrap(true);

    // While a file is read in the background: what, a busy bar, and Cancel.
    loadRow_ = new QWidget(this);
    loadRow_->setObjectName(QStringLiteral("datasetLoading"));
    loadLabel_ = new QLabel(loadRow_);
    auto* busy = new QProgressBar(loadRow_);
    busy->setRange(0, 0);
    busy->setMaximumWidth(200);
    cancelLoad_ = new QPushButton(tr("Cancel"), loadRow_);
    cancelLoad_->setObjectName(QStringLiteral("cancelLoading"));
    cancelLoad_->setToolTip(tr("Stop waiting for this file; the file open before stays open"));
    connect(cancelLoad_, &QPushButton::clicked, this, &DatasetPage::cancelLoading);
    auto* loadLayout = new QHBoxLayout(loadRow_);
    loadLayout->setContentsMargins(0, 0, 0, 0);
    loadLayout->addWidget(loadLabel_, 1);
    loadLayout->addWidget(busy);
    loadLayout->addWidget(cancelLoad_);
    loadRow_->hide();
    auto* top = new QHBoxLayout();
    top->addWidget(openButton_);
    top->addWidget(recentButton);
    top->addWidget(fileLabel_, 1);
    auto* middle = new QHBoxLayout();
    auto* left = new QVBoxLayout();
    left->addLayout(form_);
    left->addWidget(summaryLabel_);
    left->addWidget(unknownLabel_);
    left->addStretch();
    middle->addLayout(left);
    middle->addWidget(previewTable_, 1);
    auto* charts = new QHBoxLayout();
    charts->addWidget(labelChart_);
    charts->addWidget(taskTable_);
    auto* lengthBox = new QVBoxLayout();
    lengthBox->addWidget(lengthChart_);
    lengthBox->addWidget(paddingLabel_);
    charts->addLayout(lengthBox);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(loadRow_);
    layout->addWidget(errorLabel_);
    layout->addLayout(middle, 1);
    layout->addLayout(charts, 1);
    rebuildRecentMenu();
}

QString DatasetPage::fileFilter() {
    return tr(
        "Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.conll *.bio *.iob *.iobes);;All "
        "files (*)");
}

void DatasetPage::chooseFile() {
    const auto file = QFileDialog::getOpenFileName(this, tr("Open dataset"),
                                                   QFileInfo(file_).absolutePath(), fileFilter());
    if (!file.isEmpty()) {
        openInBackground(file);
    }
}

void DatasetPage::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) {
        event->acceptProposedAction();
    }
}

void DatasetPage::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) {
        openInBackground(urls.front().toLocalFile());
    }
}

void DatasetPage::showError(const QString& message) {
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
}

QString DatasetPage::errorText() const {
    return errorLabel_->isVisible() ? errorLabel_->text() : QString();
}

bool DatasetPage::openFile(const QString& file) {
    if (loading_) {
        // A file read in the background is not wanted any more.
        ++loadGeneration_;
        loading_ = false;
        loadRow_->hide();
    }
    Opened opened;
    try {
        opened = readOpened(file);
    } catch (...) {
        showOpenError(std::current_exception());
        return false;
    }
    return showOpened(std::move(opened));
}

void DatasetPage::showTable(const Table& table) {
    previewTable_->clear();
    previewTable_->setColumnCount(static_cast<int>(table.columns.size()));
    previewTable_->setRowCount(static_cast<int>(table.rows.size()));
    QStringList headers;
    for (const auto& column : table.columns) {
        headers << QString::fromStdString(column);
    }
    previewTable_->setHorizontalHeaderLabels(headers);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        for (std::size_t c = 0; c < table.columns.size(); ++c) {
            auto text = QString::fromStdString(table.rows[r][c]);
            text.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
            previewTable_->setItem(static_cast<int>(r), static_cast<int>(c),
                                   new QTableWidgetItem(text.left(300)));
        }
    }
    // Guess the columns by name; the user can change them.
    auto guess = [&](const QStringList& names) {
        for (int i = 0; i < headers.size(); ++i) {
            if (names.contains(headers[i], Qt::CaseInsensitive)) {
                return i;
            }
        }
        return -1;
    };
    {
        const QSignalBlocker blockText(textColumn_);
        const QSignalBlocker blockPair(pairColumn_);
        const QSignalBlocker blockLabel(labelColumn_);
        for (auto* combo : {textColumn_, pairColumn_, labelColumn_}) {
            combo->clear();
            combo->setEnabled(true);
        }
        textColumn_->addItems(headers);
        pairColumn_->addItem(kNone);
        pairColumn_->addItems(headers);
        labelColumn_->addItem(kNone);  // no label column chosen (none looks like one)
        labelColumn_->addItems(headers);
        const int text =
            guess({QStringLiteral("text"), QStringLiteral("sentence"), QStringLiteral("review"),
                   QStringLiteral("body"), QStringLiteral("message"), QStringLiteral("content")});
        textColumn_->setCurrentIndex(text >= 0 ? text : 0);
        int label =
            guess({QStringLiteral("label"), QStringLiteral("labels"), QStringLiteral("class"),
                   QStringLiteral("category"), QStringLiteral("sentiment"),
                   QStringLiteral("target"), QStringLiteral("score"), QStringLiteral("rating")});
        if (label < 0) {
            label = guessLabelColumn(headers, textColumn_->currentIndex());
        }
        labelColumn_->setCurrentIndex(label + 1);  // after "—"
        pairColumn_->setCurrentIndex(0);
    }
    labelChoice_->setColumns(headers);
    // The text column gets the room; the others fit their contents.
    previewTable_->horizontalHeader()->setStretchLastSection(false);
    for (int c = 0; c < previewTable_->columnCount(); ++c) {
        previewTable_->horizontalHeader()->setSectionResizeMode(
            c, c == textColumn_->currentIndex() ? QHeaderView::Stretch
                                                : QHeaderView::ResizeToContents);
    }
}

int DatasetPage::guessLabelColumn(const QStringList& headers, int textColumn) const {
    if (!preview_) {
        return -1;
    }
    for (int c = static_cast<int>(headers.size()) - 1; c >= 0; --c) {
        if (c == textColumn) {
            continue;
        }
        std::set<std::string> values;
        std::size_t filled = 0;
        std::size_t numbers = 0;
        for (const auto& row : preview_->rows) {
            const auto& cell = row[static_cast<std::size_t>(c)];
            if (!cell.empty()) {
                values.insert(cell);
                ++filled;
                numbers += parseTargetValue(cell).has_value() ? 1 : 0;
            }
        }
        // Classes repeat: at most half as many values as rows (and at least two of them).
        if (values.size() >= 2 && values.size() * 2 <= filled) {
            return c;
        }
        // A regression target: several different numbers, in every filled cell but for a typo
        // (its load names it).
        if (values.size() >= 2 && mostlyNumbers(numbers, filled)) {
            return c;
        }
    }
    return -1;
}

void DatasetPage::columnsChanged() {
    if (applyingLoad_) {
        return;  // a background open is filling the page: it reads the examples next
    }
    if (loading_) {
        // The user changed the columns while the file was read: theirs are read now.
        ++loadGeneration_;
        loading_ = false;
        loadRow_->hide();
    }
    if (!prepareColumns()) {
        return;
    }
    try {
        readExamples();
        showError({});
    } catch (...) {
        examples_.reset();
        labelSets_.reset();
        showError(describeError(std::current_exception()));
    }
    refreshProfile();
    Q_EMIT datasetChanged();
}

bool DatasetPage::prepareColumns() {
    // Where a row's labels are is a multi-label question: shown only then.
    const auto& view = taskView(task());
    labelChoice_->setEnabled(view.usesLabelChoice());
    form_->setRowVisible(labelChoice_, view.usesLabelChoice());
    if (!tagged_) {
        labelColumn_->setEnabled(!labelsFromColumns());  // the 0/1 columns are the labels
    }
    form_->setRowVisible(labelColumn_, !labelsFromColumns());
    form_->setRowVisible(standardizeTargets_, view.usesStandardizedTargets());
    form_->setRowVisible(thresholdRow_, view.usesThreshold());
    if (file_.isEmpty()) {
        return false;
    }
    const auto name = QFileInfo(file_).fileName();
    examples_.reset();
    labelSets_.reset();
    if (tagged_ || view.readsTaggedWords()) {
        showError(!tagged_ ? tr("%1 is a table: token classification reads tagged words (a CoNLL "
                                "file, JSON Lines of tokens and tags, or span JSON).")
                                 .arg(name)
                  : !view.readsTaggedWords()
                      ? tr("%1 holds tagged words: only token classification reads it.").arg(name)
                      : QString());
        refreshProfile();
        Q_EMIT datasetChanged();
        return false;
    }
    if (textColumn_->count() == 0) {
        return false;
    }
    if (labelColumn_->currentIndex() <= 0 && !labelsFromColumns()) {
        // Never the text column by default: a run would then learn to read its own input, and
        // Start refused later for another reason.
        showError(tr("%1: no label column; choose the column that holds the classes (Label "
                     "column).")
                      .arg(name));
        refreshProfile();
        Q_EMIT datasetChanged();
        return false;
    }
    return true;
}

bool DatasetPage::setDataSpec(const DataSpec& spec, double validationFraction) {
    validationFraction_->setValue(validationFraction);
    if (!openFile(QString::fromStdString(spec.trainFile.string()))) {
        return false;
    }
    {
        const QSignalBlocker block(task_);
        task_->setCurrentIndex(task_->findData(int(spec.task.kind)));
    }
    showTaskGuess();
    if (!spec.task.labelSeparator.empty()) {
        labelChoice_->setSeparator(spec.task.labelSeparator.front());
    }
    showTaskSettings(spec.task);
    if (tagged_) {
        columnsChanged();
        return hasData();
    }
    const bool fromColumns =
        taskView(spec.task.kind).usesLabelChoice() && !spec.task.labelColumns.empty();
    labelChoice_->setFromColumns(fromColumns);
    if (fromColumns) {
        if (const auto missing = labelChoice_->checkColumns(spec.task.labelColumns);
            !missing.isEmpty()) {
            showError(tr("%1 has no column %2.").arg(file_, missing.join(QStringLiteral(", "))));
            return false;
        }
    }
    const int text = textColumn_->findText(QString::fromStdString(spec.columns.text));
    const int namedLabel = labelColumn_->findText(QString::fromStdString(spec.columns.label));
    // With 0/1 label columns the label column is not read: none, or the one named.
    const int label = fromColumns                  ? std::max(0, namedLabel)
                      : spec.columns.label.empty() ? -1
                                                   : namedLabel;
    const int pair = spec.columns.textPair.empty()
                         ? 0
                         : pairColumn_->findText(QString::fromStdString(spec.columns.textPair));
    if (text < 0 || label < 0 || pair < 0) {
        showError(tr("%1 has no column %2.")
                      .arg(file_, QString::fromStdString(text < 0    ? spec.columns.text
                                                         : label < 0 ? spec.columns.label
                                                                     : spec.columns.textPair)));
        return false;
    }
    {
        const QSignalBlocker blockText(textColumn_);
        const QSignalBlocker blockPair(pairColumn_);
        const QSignalBlocker blockLabel(labelColumn_);
        textColumn_->setCurrentIndex(text);
        pairColumn_->setCurrentIndex(pair);
        labelColumn_->setCurrentIndex(label);
    }
    columnsChanged();
    return hasData();
}

ColumnSpec DatasetPage::chosenColumns() const {
    ColumnSpec columns;
    columns.text = textColumn_->currentText().toStdString();
    columns.label =
        labelColumn_->currentIndex() > 0 ? labelColumn_->currentText().toStdString() : "";
    columns.textPair =
        pairColumn_->currentIndex() > 0 ? pairColumn_->currentText().toStdString() : "";
    return columns;
}

DataSpec DatasetPage::dataSpec() const {
    DataSpec spec;
    spec.trainFile = file_.toStdString();
    spec.columns = chosenColumns();
    spec.task.kind = task();
    const auto& view = taskView(spec.task.kind);
    if (labelsFromColumns()) {
        spec.task.labelColumns = labelChoice_->checkedColumns();
        spec.columns.label.clear();  // not read: the job says so
    } else if (view.usesLabelChoice()) {
        spec.task.labelSeparator = std::string(1, labelSeparator());
    }
    spec.task.standardizeTargets =
        view.usesStandardizedTargets() && standardizeTargets_->isChecked();
    if (view.usesThreshold() && thresholdFixed_->isChecked()) {
        spec.task.threshold = threshold_->value();
    }
    return spec;
}

double DatasetPage::validationFraction() const {
    return validationFraction_->value();
}

QStringList DatasetPage::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void DatasetPage::rememberRecent(const QString& file) {
    QStringList recent = recentFiles();
    recent.removeAll(file);
    recent.prepend(file);
    while (recent.size() > kRecentFiles) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void DatasetPage::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const auto& file : recentFiles()) {
        recentMenu_->addAction(file, this, [this, file] { openInBackground(file); });
    }
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

}  // namespace bert::ui
