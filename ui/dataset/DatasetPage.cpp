#include "dataset/DatasetPage.h"

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
#include "common/NiceAxis.h"
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
        tr("A CSV, TSV or JSON Lines file with a text column and a label column"));
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
    previewTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    previewTable_->horizontalHeader()->setStretchLastSection(true);
    previewTable_->setWordWrap(false);

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
        tr("Datasets (*.csv *.tsv *.tab *.jsonl *.ndjson);;All files (*)"));
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
    try {
        preview_ = readTable(file.toStdString(), std::nullopt, kPreviewRows);
    } catch (...) {
        showError(describeError(std::current_exception()));
        return false;
    }
    file_ = file;
    showError({});
    fileLabel_->setText(QDir::toNativeSeparators(file));
    rememberRecent(file);
    const auto& table = *preview_;
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
    for (auto* combo : {textColumn_, pairColumn_, labelColumn_}) {
        const QSignalBlocker block(combo);
        combo->clear();
    }
    {
        const QSignalBlocker blockText(textColumn_);
        const QSignalBlocker blockPair(pairColumn_);
        const QSignalBlocker blockLabel(labelColumn_);
        textColumn_->addItems(headers);
        pairColumn_->addItem(kNone);
        pairColumn_->addItems(headers);
        labelColumn_->addItem(kNone);  // no label column chosen (none looks like one)
        labelColumn_->addItems(headers);
        const int text =
            guess({QStringLiteral("text"), QStringLiteral("sentence"), QStringLiteral("review"),
                   QStringLiteral("body"), QStringLiteral("message"), QStringLiteral("content")});
        textColumn_->setCurrentIndex(text >= 0 ? text : 0);
        int label = guess({QStringLiteral("label"), QStringLiteral("labels"),
                           QStringLiteral("class"), QStringLiteral("category"),
                           QStringLiteral("sentiment"), QStringLiteral("target")});
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
    columnsChanged();
    return errorText().isEmpty();
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
    }
    return -1;
}

void DatasetPage::columnsChanged() {
    if (file_.isEmpty() || textColumn_->count() == 0) {
        return;
    }
    if (labelColumn_->currentIndex() <= 0) {
        // Never the text column by default: a run would then learn to read its own input, and
        // Start refused later for another reason.
        examples_.reset();
        showError(tr("%1: no label column; choose the column that holds the classes (Label "
                     "column).")
                      .arg(QFileInfo(file_).fileName()));
        refreshProfile();
        Q_EMIT datasetChanged();
        return;
    }
    try {
        examples_ = loadExamples(file_.toStdString(), dataSpec().columns);
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
    auto* labelChart = labelChart_->chart();
    auto* lengthChart = lengthChart_->chart();
    labelChart->removeAllSeries();
    lengthChart->removeAllSeries();
    for (auto* chart : {labelChart, lengthChart}) {
        for (auto* axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
    }
    lengths_.clear();
    unknown_ = {};
    unknownLabel_->clear();
    lengthChart->setTitle(tr("Token lengths"));
    if (!examples_) {
        summaryLabel_->clear();
        paddingLabel_->clear();
        return;
    }
    const auto& set = *examples_;
    LabelMap labels;
    std::set<std::string> names;
    for (const auto& example : set.examples) {
        names.insert(example.label);
    }
    labels.names.assign(names.begin(), names.end());
    const auto counts = labelCounts(set, labels);
    auto* countSet = new QBarSet(tr("examples"));
    QStringList categories;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        *countSet << static_cast<double>(counts[i]);
        categories << QString::fromStdString(labels.names[i]).left(16);
    }
    auto* countSeries = new QBarSeries();
    countSeries->append(countSet);
    labelChart->addSeries(countSeries);
    auto* categoryAxis = new QBarCategoryAxis();
    categoryAxis->append(categories);
    labelChart->addAxis(categoryAxis, Qt::AlignBottom);
    countSeries->attachAxis(categoryAxis);
    auto* countAxis = new QValueAxis();
    countAxis->setLabelFormat("%d");
    labelChart->addAxis(countAxis, Qt::AlignLeft);
    countSeries->attachAxis(countAxis);
    setRoundCounts(countAxis, *std::max_element(counts.begin(), counts.end()));

    summaryLabel_->setText(
        tr("%1 examples in %2 classes; %3 rows without text or label skipped; %4 invalid "
           "UTF-8 sequences replaced.")
            .arg(set.examples.size())
            .arg(labels.size())
            .arg(set.skippedEmpty)
            .arg(set.invalidUtf8Replaced));
    if (labels.size() < 2) {
        showError(tr("%1 has a single class: a classifier needs at least two labels.").arg(file_));
    }
    if (!tokenizer_) {
        paddingLabel_->setText(tr("Choose a model to see token lengths."));
        return;
    }
    const std::size_t rows = std::min(set.examples.size(), kProfileRows);
    // Through the tokenizer interface, so any family's tokenizer counts its own unknown token.
    const auto unknownId = tokenizer_->unkId();
    const auto specialIds = tokenizer_->specialIds();
    for (std::size_t i = 0; i < rows; ++i) {
        const auto& example = set.examples[i];
        const auto encoding = example.pair.empty()
                                  ? tokenizer_->encode(example.text)
                                  : tokenizer_->encodePair(example.text, example.pair);
        lengths_.push_back(encoding.size());
        unknown_.add(encoding.inputIds, unknownId, specialIds);
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
    return examples_.has_value();
}

DataSpec DatasetPage::dataSpec() const {
    DataSpec spec;
    spec.trainFile = file_.toStdString();
    spec.columns.text = textColumn_->currentText().toStdString();
    spec.columns.label =
        labelColumn_->currentIndex() > 0 ? labelColumn_->currentText().toStdString() : "";
    spec.columns.textPair =
        pairColumn_->currentIndex() > 0 ? pairColumn_->currentText().toStdString() : "";
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
