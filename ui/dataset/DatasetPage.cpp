#include "dataset/DatasetPage.h"

#include <algorithm>
#include <set>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
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
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include "common/Guard.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "dataset/TaskSummary.h"
#include "task/multilabel/LabelSets.h"
#include "task/regression/RegressionTargets.h"
#include "tokenizer/Tokenizer.h"

namespace bert::ui {

namespace {
constexpr int kPreviewRows = 200;            // rows shown in the preview table
constexpr std::size_t kProfileRows = 20000;  // rows tokenized for the histogram
constexpr std::size_t kHistogramBins = 16;
constexpr int kRecentFiles = 8;
const char* kRecentKey = "dataset/recent";
const QString kNone = QStringLiteral("—");

QString percent(double share) {
    return QString::number(share * 100.0, 'f', 1) + QLatin1Char('%');
}
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
    connect(task_, &QComboBox::currentIndexChanged, this, &DatasetPage::columnsChanged);
    separator_ = new QLineEdit(QStringLiteral(";"), this);
    separator_->setObjectName(QStringLiteral("labelSeparator"));
    separator_->setMaxLength(1);
    separator_->setMaximumWidth(60);
    separator_->setToolTip(tr("The character between the labels of a cell (multi-label)"));
    connect(separator_, &QLineEdit::editingFinished, this, &DatasetPage::columnsChanged);
    taskGuessLabel_ = new QLabel(this);
    taskGuessLabel_->setObjectName(QStringLiteral("taskGuess"));
    taskGuessLabel_->setWordWrap(true);
    taskTable_ = new QTableWidget(this);
    taskTable_->setObjectName(QStringLiteral("taskSummary"));
    taskTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    taskTable_->hide();

    textColumn_ = new QComboBox(this);
    pairColumn_ = new QComboBox(this);
    labelColumn_ = new QComboBox(this);
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

    auto* form = new QFormLayout();
    form->addRow(tr("Tas&k:"), task_);
    form->addRow(QString(), taskGuessLabel_);
    form->addRow(tr("Label se&parator:"), separator_);
    form->addRow(tr("&Text column:"), textColumn_);
    form->addRow(tr("&Second text column:"), pairColumn_);
    form->addRow(tr("&Label column:"), labelColumn_);
    form->addRow(tr("&Validation share:"), validationFraction_);

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
    paddingLabel_ = new QLabel(this);
    paddingLabel_->setWordWrap(true);

    auto* top = new QHBoxLayout();
    top->addWidget(openButton_);
    top->addWidget(recentButton);
    top->addWidget(fileLabel_, 1);
    auto* middle = new QHBoxLayout();
    auto* left = new QVBoxLayout();
    left->addLayout(form);
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
    layout->addWidget(errorLabel_);
    layout->addLayout(middle, 1);
    layout->addLayout(charts, 1);
    rebuildRecentMenu();
}

void DatasetPage::chooseFile() {
    const auto file = QFileDialog::getOpenFileName(
        this, tr("Open dataset"), QFileInfo(file_).absolutePath(),
        tr("Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson *.json *.conll *.bio *.iob *.iobes);;All "
           "files (*)"));
    if (!file.isEmpty()) {
        openFile(file);
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
        openFile(urls.front().toLocalFile());
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
    DataSpec probe;
    probe.trainFile = file.toStdString();
    const auto fileGuess = guessTask(probe);
    if (fileGuess.kind == TaskKind::TokenClassification) {
        return openTagged(file, fileGuess);
    }
    try {
        preview_ = readTable(file.toStdString(), std::nullopt, kPreviewRows);
    } catch (...) {
        showError(describeError(std::current_exception()));
        return false;
    }
    file_ = file;
    tagged_.reset();
    tagSummary_.reset();
    showError({});
    fileLabel_->setText(QDir::toNativeSeparators(file));
    rememberRecent(file);
    showTable(*preview_);
    DataSpec spec = dataSpec();
    spec.task = {};
    setTaskGuess(guessTask(spec));
    columnsChanged();
    return errorText().isEmpty();
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
        for (const auto& row : preview_->rows) {
            if (!row[static_cast<std::size_t>(c)].empty()) {
                values.insert(row[static_cast<std::size_t>(c)]);
                ++filled;
            }
        }
        // Classes repeat: at most half as many values as rows (and at least two of them).
        if (values.size() >= 2 && values.size() * 2 <= filled) {
            return c;
        }
        // A regression target: numbers in every filled cell, several different ones.
        if (values.size() >= 2 && std::all_of(values.begin(), values.end(), [](const auto& v) {
                return parseTargetValue(v).has_value();
            })) {
            return c;
        }
    }
    return -1;
}

void DatasetPage::columnsChanged() {
    separator_->setEnabled(task() == TaskKind::MultiLabel);
    if (file_.isEmpty()) {
        return;
    }
    const auto name = QFileInfo(file_).fileName();
    if (tagged_ || task() == TaskKind::TokenClassification) {
        examples_.reset();
        showError(!tagged_ ? tr("%1 is a table: token classification reads tagged words (a CoNLL "
                                "file, JSON Lines of tokens and tags, or span JSON).")
                                 .arg(name)
                  : task() != TaskKind::TokenClassification
                      ? tr("%1 holds tagged words: only token classification reads it.").arg(name)
                      : QString());
        refreshProfile();
        Q_EMIT datasetChanged();
        return;
    }
    if (textColumn_->count() == 0) {
        return;
    }
    if (labelColumn_->currentIndex() <= 0) {
        // Never the text column by default: a run would then learn to read its own input, and
        // Start refused later for another reason.
        examples_.reset();
        showError(tr("%1: no label column; choose the column that holds the classes (Label "
                     "column).")
                      .arg(name));
        refreshProfile();
        Q_EMIT datasetChanged();
        return;
    }
    try {
        examples_ = loadExamples(file_.toStdString(), dataSpec().columns);
        checkExamplesForTask();
        showError({});
    } catch (...) {
        examples_.reset();
        showError(describeError(std::current_exception()));
    }
    refreshProfile();
    Q_EMIT datasetChanged();
}

void DatasetPage::setTokenizer(std::shared_ptr<const Tokenizer> tokenizer) {
    tokenizer_ = std::move(tokenizer);
    refreshProfile();
}

void DatasetPage::setBatching(std::size_t maxLength, std::size_t batchSize) {
    if (maxLength == maxLength_ && batchSize == batchSize_) {
        return;
    }
    maxLength_ = maxLength;
    batchSize_ = batchSize;
    refreshProfile();
}

namespace {

// Count axes end on round ticks (0, 50, 100, 150), never 37, 75, 112.
void setRoundCounts(QValueAxis* axis, std::size_t largest) {
    constexpr int kMaxTicks = 5;
    setNiceRange(axis, 0.0, static_cast<double>(std::max<std::size_t>(largest, 1)), kMaxTicks,
                 true);
}

}  // namespace

void DatasetPage::refreshProfile() {
    auto* lengthChart = lengthChart_->chart();
    clearChart(labelChart_->chart());
    clearChart(lengthChart);
    lengths_.clear();
    unknown_ = {};
    unknownLabel_->clear();
    lengthChart->setTitle(tr("Token lengths"));
    if (!hasData()) {
        summaryLabel_->clear();
        paddingLabel_->clear();
        taskTable_->hide();
        return;
    }
    refreshTaskSummary();
    if (!tokenizer_) {
        paddingLabel_->setText(tr("Choose a model to see token lengths."));
        return;
    }
    // Through the tokenizer interface, so any family's tokenizer counts its own unknown token.
    const auto unknownId = tokenizer_->unkId();
    const auto specialIds = tokenizer_->specialIds();
    if (tagged_) {
        // Sub-words per sentence, as the words are tokenized for training.
        const auto rows = std::min(tagged_->sentences.size(), kProfileRows);
        for (std::size_t i = 0; i < rows; ++i) {
            std::string text;
            for (const auto& word : tagged_->sentences[i].words) {
                text += (text.empty() ? "" : " ") + word;
            }
            const auto encoding = tokenizer_->encode(text);
            lengths_.push_back(encoding.size());
            unknown_.add(encoding.inputIds, unknownId, specialIds);
        }
    } else {
        const auto& set = *examples_;
        const std::size_t rows = std::min(set.examples.size(), kProfileRows);
        for (std::size_t i = 0; i < rows; ++i) {
            const auto& example = set.examples[i];
            const auto encoding = example.pair.empty()
                                      ? tokenizer_->encode(example.text)
                                      : tokenizer_->encodePair(example.text, example.pair);
            lengths_.push_back(encoding.size());
            unknown_.add(encoding.inputIds, unknownId, specialIds);
        }
    }
    unknownLabel_->setText(unknownTokenText());
    unknownLabel_->setStyleSheet(
        unknown_.warns() ? QStringLiteral("color: #c0392b; font-weight: bold") : QString());
    const auto bins = binLengths(lengths_, kHistogramBins);
    auto* lengthSet = new QBarSet(tr("examples"));
    QStringList binNames;
    for (std::size_t b = 0; b < bins.counts.size(); ++b) {
        *lengthSet << static_cast<double>(bins.counts[b]);
        binNames << QString::number((b + 1) * bins.width);
    }
    if (bins.longer > 0) {
        *lengthSet << static_cast<double>(bins.longer);
        binNames << tr("> %1").arg(bins.counts.size() * bins.width);
    }
    auto* lengthSeries = new QBarSeries();
    lengthSeries->append(lengthSet);
    lengthChart->addSeries(lengthSeries);
    auto* binAxis = new QBarCategoryAxis();
    binAxis->append(binNames);
    binAxis->setTitleText(tr("tokens (up to)"));
    binAxis->setLabelsAngle(-60);
    lengthChart->addAxis(binAxis, Qt::AlignBottom);
    lengthSeries->attachAxis(binAxis);
    auto* lengthAxis = new QValueAxis();
    lengthAxis->setLabelFormat("%d");
    lengthChart->addAxis(lengthAxis, Qt::AlignLeft);
    lengthSeries->attachAxis(lengthAxis);
    std::size_t tallest = bins.longer;
    for (const auto count : bins.counts) {
        tallest = std::max(tallest, count);
    }
    setRoundCounts(lengthAxis, tallest);
    shares_ = estimatePaddingShares(lengths_, maxLength_, batchSize_);
    const auto truncated = std::count_if(lengths_.begin(), lengths_.end(),
                                         [&](std::size_t l) { return l > maxLength_; });
    paddingLabel_->setText(
        tr("At max length %1 and batch %2, padding would be %3 of the tokens with fixed "
           "padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded batches "
           "compute none of it. %6 examples are longer than %1 tokens and will be truncated.")
            .arg(maxLength_)
            .arg(batchSize_)
            .arg(percent(shares_.fixed), percent(shares_.dynamic), percent(shares_.grouped))
            .arg(truncated) +
        QLatin1Char(' ') +
        tr("Lengths: half of the examples have up to %1 tokens, 90% up to %2, 99% up to %3: "
           "a max length of %3 keeps 99% of them whole.")
            .arg(bins.p50)
            .arg(bins.p90)
            .arg(bins.p99));
    lengthChart->setTitle(
        tr("Token lengths (p50 %1, p90 %2, p99 %3)").arg(bins.p50).arg(bins.p90).arg(bins.p99));
}

QString DatasetPage::unknownTokenText() const {
    if (unknown_.tokens == 0) {
        return {};
    }
    const QString share = percent(unknown_.share());
    if (!unknown_.warns()) {
        return tr("Unknown tokens: %1 of the tokens are not in the model's vocabulary.").arg(share);
    }
    return tr("%1 of the tokens are unknown to the model's vocabulary ([UNK]): it cannot read "
              "this text, and a run would stay at chance. Choose a model for this language in "
              "Model & techniques (a transformers folder, for example one in the local model "
              "cache, ~/.cache/huggingface/hub).")
        .arg(share);
}

std::size_t DatasetPage::longestExample() const {
    return lengths_.empty() ? 0 : *std::max_element(lengths_.begin(), lengths_.end());
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
    if (!spec.task.labelSeparator.empty()) {
        separator_->setText(QString::fromStdString(spec.task.labelSeparator));
    }
    if (tagged_) {
        columnsChanged();
        return hasData();
    }
    const int text = textColumn_->findText(QString::fromStdString(spec.columns.text));
    const int label = spec.columns.label.empty()
                          ? -1
                          : labelColumn_->findText(QString::fromStdString(spec.columns.label));
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

DataSpec DatasetPage::dataSpec() const {
    DataSpec spec;
    spec.trainFile = file_.toStdString();
    spec.columns.text = textColumn_->currentText().toStdString();
    spec.columns.label =
        labelColumn_->currentIndex() > 0 ? labelColumn_->currentText().toStdString() : "";
    spec.columns.textPair =
        pairColumn_->currentIndex() > 0 ? pairColumn_->currentText().toStdString() : "";
    spec.task.kind = task();
    if (spec.task.kind == TaskKind::MultiLabel) {
        spec.task.labelSeparator = std::string(1, labelSeparator());
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
        recentMenu_->addAction(file, this, [this, file] { openFile(file); });
    }
    recentMenu_->setEnabled(!recentMenu_->isEmpty());
}

}  // namespace bert::ui
