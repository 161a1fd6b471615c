#include "training/TechniquesPage.h"

#include <tuple>

#include <QAbstractSpinBox>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QPen>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <QValueAxis>

#include "DefaultModel.h"
#include "Error.h"
#include "common/EngineText.h"
#include "common/Format.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "common/NiceAxis.h"
#include "memory/DeviceTraits.h"
#include "memory/MemoryMonitor.h"
#include "model/FamilyTraits.h"
#include "tokenizer/Tokenizer.h"
#include "train/DefaultPrecision.h"
#include "train/EvaluationForecast.h"
#include "training/ModelPicker.h"
#include "training/OptionForm.h"

namespace bert::ui {

namespace {
constexpr int kForecastChartHeight = 270;
constexpr int kForecastTicks = 4;
// The cap's line, in the charts' vermillion (MetricsCharts).
const QColor kCapColour(213, 94, 0);
}  // namespace

/// suggestFit's advice in the interface's language: its changes, each with its cost, the
/// forecast, and the cost in all.
QString TechniquesPage::describeAdvice(const FitAdvice& advice) {
    QStringList changes;
    for (const auto& change : advice.changes) {
        changes << EngineText::translate(change);
    }
    QString joined;
    for (int i = 0; i < changes.size(); ++i) {
        joined += (i == 0                    ? QString()
                   : i + 1 == changes.size() ? tr(" and ")
                                             : tr(", ")) +
                  changes[i];
    }
    QString text = tr("%1: forecast %2").arg(joined, mib(advice.forecastBytes));
    if (changes.size() > 1) {
        const double factor = advice.timeFactor;
        const QString cost = factor > 1.05   ? tr("about %1x slower").arg(factor, 0, 'g', 2)
                             : factor < 0.95 ? tr("about %1x faster").arg(1.0 / factor, 0, 'g', 2)
                                             : tr("about as fast");
        text += tr(", %1 in all").arg(cost);
    }
    return text;
}

TechniquesPage::TechniquesPage(QWidget* parent) : QWidget(parent) {
    // ---- model ----
    fineTune_ = new QRadioButton(tr("Fine-tune a &model folder"), this);
    fromScratch_ = new QRadioButton(tr("Train from &scratch"), this);
    fineTune_->setChecked(true);
    modelFolder_ = new QLineEdit(QString::fromStdString(defaultModelFolder().string()), this);
    modelFolder_->setObjectName(QStringLiteral("modelFolder"));
    QStringList families;
    for (const auto* family : modelFamilies()) {
        families << QString::fromStdString(family->name);
    }
    modelFolder_->setToolTip(
        tr("A Hugging Face model folder of a supported family (%1): config.json, "
           "model.safetensors (or its shards) and a tokenizer (tokenizer.json, vocab.txt or "
           "spm.model)")
            .arg(families.join(QStringLiteral(", "))));
    picker_ = new ModelPicker(this);
    connect(picker_, &ModelPicker::folderChosen, this, &TechniquesPage::setModelFolder);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const auto folder =
            QFileDialog::getExistingDirectory(this, tr("Model folder"), modelFolder_->text());
        if (!folder.isEmpty()) {
            setModelFolder(folder);
        }
    });
    presetBox_ = new QComboBox(this);
    for (const auto& name : EncoderConfig::presetNames()) {
        presetBox_->addItem(Names::preset(name), QString::fromStdString(name));
    }
    presetBox_->setToolTip(
        tr("Randomly initialised BERT of this size, using the folder's tokenizer"));
    modelInfo_ = new QLabel(this);
    modelInfo_->setObjectName(QStringLiteral("modelInfo"));
    modelError_ = new QLabel(this);
    modelError_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    modelError_->setWordWrap(true);
    connect(modelFolder_, &QLineEdit::editingFinished, this, &TechniquesPage::loadModel);
    connect(fromScratch_, &QRadioButton::toggled, this, &TechniquesPage::loadModel);
    connect(presetBox_, &QComboBox::currentIndexChanged, this, &TechniquesPage::loadModel);

    auto* modelBox = new QGroupBox(tr("Model"), this);
    auto* modelLayout = new QFormLayout(modelBox);
    auto* folderRow = new QHBoxLayout();
    folderRow->addWidget(modelFolder_, 1);
    folderRow->addWidget(browse);
    auto* presetRow = new QHBoxLayout();
    presetRow->addWidget(fromScratch_);
    presetRow->addWidget(presetBox_);
    presetRow->addStretch();
    modelLayout->addRow(fineTune_);
    modelLayout->addRow(picker_);
    modelLayout->addRow(folderRow);
    modelLayout->addRow(presetRow);
    modelLayout->addRow(modelInfo_);
    modelLayout->addRow(modelError_);

    // ---- options: one row per entry of the option table ----
    options_ = new OptionForm(this);
    connect(options_, &OptionForm::changed, this, &TechniquesPage::updateForecast);

    // ---- forecast ----
    auto* chart = new QChart();
    chart->setTitle(tr("Memory forecast"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 2, 4, 2));
    forecastChart_ = new QChartView(chart, this);
    // Room for the title, two bars, the axis labels and title, and the legend: at 200 pixels
    // the tick labels and the axis title were drawn as "…" at 1280 x 800 and maximised.
    forecastChart_->setMinimumHeight(kForecastChartHeight);
    forecastChart_->setRenderHint(QPainter::Antialiasing);
    forecastLabel_ = new QLabel(this);
    forecastLabel_->setObjectName(QStringLiteral("forecastText"));
    forecastLabel_->setWordWrap(true);
    warningLabel_ = new QLabel(this);
    warningLabel_->setWordWrap(true);
    warningLabel_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    applyAdvice_ = new QPushButton(tr("Apply the suggested change"), this);
    applyAdvice_->hide();
    connect(applyAdvice_, &QPushButton::clicked, this, &TechniquesPage::applyAdvice);
    undoAdvice_ = new QPushButton(tr("&Undo the change"), this);
    undoAdvice_->setToolTip(tr("Restore the settings from before the suggested change"));
    undoAdvice_->hide();
    connect(undoAdvice_, &QPushButton::clicked, this, &TechniquesPage::undoAdvice);
    largestBatch_ = new QPushButton(tr("Largest batch that fits"), this);
    largestBatch_->setToolTip(
        tr("Find the largest micro-batch the device or the memory cap allows (the forecast "
           "proposes, a trial step on the longest micro-batch confirms) and set the accumulation "
           "so the effective batch stays the same."));
    connect(largestBatch_, &QPushButton::clicked, this, &TechniquesPage::largestBatchRequested);

    auto* switches = new QHBoxLayout();
    switches->addWidget(options_->groupBox(OptionGroup::Batching));
    switches->addWidget(options_->groupBox(OptionGroup::Memory));
    auto* lastColumn = new QVBoxLayout();
    lastColumn->addWidget(options_->groupBox(OptionGroup::Optimisation));
    // A small preview of the learning-rate schedule, over the run's share of steps.
    auto* lrChart = new QChart();
    lrChart->setTitle(tr("Learning rate over the run"));
    lrChart->legend()->hide();
    lrChart->setMargins(QMargins(2, 2, 2, 2));
    lrSeries_ = new QLineSeries();
    lrChart->addSeries(lrSeries_);
    auto* shareAxis = new QValueAxis();
    shareAxis->setRange(0.0, 100.0);
    shareAxis->setLabelFormat(QStringLiteral("%d%%"));
    shareAxis->setTickCount(3);
    auto* rateAxis = new QValueAxis();
    rateAxis->setLabelFormat(QStringLiteral("%.0e"));
    rateAxis->setTickCount(2);
    lrChart->addAxis(shareAxis, Qt::AlignBottom);
    lrChart->addAxis(rateAxis, Qt::AlignLeft);
    lrSeries_->attachAxis(shareAxis);
    lrSeries_->attachAxis(rateAxis);
    lrRateAxis_ = rateAxis;
    lrPreview_ = new QChartView(lrChart, this);
    lrPreview_->setRenderHint(QPainter::Antialiasing);
    lrPreview_->setFixedHeight(130);
    lastColumn->addWidget(lrPreview_);
    lastColumn->addWidget(options_->groupBox(OptionGroup::Run));
    lastColumn->addStretch();
    switches->addLayout(lastColumn);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(modelBox);
    layout->addLayout(switches);
    layout->addWidget(forecastChart_);
    layout->addWidget(forecastLabel_);
    auto* warningRow = new QHBoxLayout();
    warningRow->addWidget(warningLabel_, 1);
    warningRow->addWidget(applyAdvice_);
    warningRow->addWidget(undoAdvice_);
    warningRow->addWidget(largestBatch_);
    layout->addLayout(warningRow);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    // The fields take the wheel only once clicked or tabbed into; until then it scrolls the page.
    for (auto* field : content->findChildren<QWidget*>()) {
        if (qobject_cast<QAbstractSpinBox*>(field) != nullptr ||
            qobject_cast<QComboBox*>(field) != nullptr) {
            field->setFocusPolicy(Qt::StrongFocus);
            field->installEventFilter(this);
        }
    }
    constructed_ = true;
    loadModel();
}

bool TechniquesPage::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Wheel) {
        if (auto* field = qobject_cast<QWidget*>(watched); field != nullptr && !field->hasFocus()) {
            event->ignore();  // passed on to the scroll area
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TechniquesPage::setModelFolder(const QString& folder) {
    modelFolder_->setText(folder);
    loadModel();
}

void TechniquesPage::setModel(const QString& folder, const QString& preset) {
    {
        const QSignalBlocker blockScratch(fromScratch_);
        const QSignalBlocker blockFineTune(fineTune_);
        const QSignalBlocker blockPreset(presetBox_);
        (preset.isEmpty() ? fineTune_ : fromScratch_)->setChecked(true);
        if (!preset.isEmpty()) {
            presetBox_->setCurrentIndex(std::max(0, presetBox_->findData(preset)));
        }
    }
    setModelFolder(folder);
}

std::filesystem::path TechniquesPage::modelFolder() const {
    return modelFolder_->text().toStdString();
}

std::string TechniquesPage::preset() const {
    return fromScratch_->isChecked() ? presetBox_->currentData().toString().toStdString()
                                     : std::string();
}

std::vector<std::string> TechniquesPage::modelLabels() const {
    if (!modelConfig_ || fromScratch_->isChecked()) {
        return {};
    }
    return modelConfig_->labels;
}

QString TechniquesPage::modelError() const {
    return modelError_->text();
}
QString TechniquesPage::adviceText() const {
    return warningLabel_->text();
}

void TechniquesPage::loadModel() {
    modelConfig_.reset();
    tokenizer_.reset();
    modelError_->clear();
    picker_->showFolder(modelFolder());
    try {
        const std::filesystem::path folder = modelFolder();
        tokenizer_ = loadTokenizer(folder);
        if (fromScratch_->isChecked()) {
            modelConfig_ =
                EncoderConfig::preset(presetBox_->currentData().toString().toStdString(),
                                      static_cast<std::int64_t>(tokenizer_->vocabularySize()));
        } else {
            modelConfig_ = EncoderConfig::fromFile(folder / "config.json");
        }
        const auto counts = countParameters(*modelConfig_);
        const auto parameters = counts.total(modelConfig_->numHiddenLayers);
        modelInfo_->setText(
            tr("%8: %1 layers, hidden size %2, %3 heads; %4 M parameters, %5 of weights (fp32); "
               "vocabulary %6 (%7)")
                .arg(modelConfig_->numHiddenLayers)
                .arg(modelConfig_->hiddenSize)
                .arg(modelConfig_->numAttentionHeads)
                .arg(static_cast<double>(parameters) / 1e6, 0, 'f', 1)
                .arg(mib(parameters * 4))
                .arg(tokenizer_->vocabularySize())
                .arg(tokenizer_->lowercases() ? tr("uncased") : tr("cased"))
                .arg(QString::fromStdString(familyOf(modelConfig_->modelType).name)));
        options_->setMaximum("freeze_layers", static_cast<int>(modelConfig_->numHiddenLayers));
        options_->setMaximum("max_length", static_cast<int>(modelConfig_->maxSequenceLength()));
        followModelPrecision();
    } catch (...) {
        // A folder that cannot be read is shown on the page, whatever the reason.
        modelConfig_.reset();
        modelInfo_->clear();
        modelError_->setText(describeError(std::current_exception()));
        tokenizer_.reset();
    }
    Q_EMIT modelChanged();
    updateForecast();
}

void TechniquesPage::followModelPrecision() {
    auto c = config();
    const auto preferred = defaultPrecision(*modelConfig_, deviceTraits(c.device));
    if (preferred == Precision::Bf16 && c.precision == Precision::Fp32) {
        c.precision = Precision::Bf16;
        precisionFromModel_ = true;
    } else if (preferred == Precision::Fp32 && precisionFromModel_ &&
               c.precision == Precision::Bf16) {
        c.precision = Precision::Fp32;
        precisionFromModel_ = false;
    } else {
        return;
    }
    options_->write(c);
}

void TechniquesPage::setExampleLengths(const std::vector<std::size_t>& tokens) {
    lengths_.reset();
    if (!tokens.empty()) {
        lengths_ = ExampleLengths::of(tokens);
    }
    updateForecast();
}

TrainingConfig TechniquesPage::config() const {
    TrainingConfig config = hidden_;
    options_->read(config);
    return config;
}

void TechniquesPage::setConfig(const TrainingConfig& config) {
    // The form emits changed() once at the end, which rebuilds the forecast and emits
    // configChanged() once: the dataset page's padding estimate follows (it did not, when this
    // page blocked its own signals here), and the chart is not rebuilt once per row.
    hidden_ = config;
    options_->write(config);
}

void TechniquesPage::updateLearningRatePreview() {
    constexpr std::size_t kPreviewSteps = 100;  // percent of the run's steps
    const auto c = config();
    QList<QPointF> points;
    for (std::size_t step = 0; step <= kPreviewSteps; ++step) {
        points.append({static_cast<double>(step),
                       scheduledLearningRate(c, std::min(step, kPreviewSteps - 1), kPreviewSteps)});
    }
    lrSeries_->replace(points);
    lrRateAxis_->setRange(0.0, c.learningRate * 1.05);
}

QList<QPointF> TechniquesPage::learningRatePreview() const {
    return lrSeries_->points();
}

void TechniquesPage::updateForecast() {
    if (!constructed_) {
        return;
    }
    ++forecastUpdates_;
    Q_EMIT configChanged();
    updateLearningRatePreview();
    auto* chart = forecastChart_->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    advice_.reset();
    applyAdvice_->hide();
    warningLabel_->clear();
    options_->setNote("precision", QString());
    if (!modelConfig_) {
        forecastLabel_->setText(tr("Choose a readable model to see the memory forecast."));
        return;
    }
    const auto c = config();
    const ExampleLengths lengths = lengths_.value_or(ExampleLengths(c.maxLength));
    const std::size_t longest = lengths.longest();
    forecast_ = forecastMemory(*modelConfig_, c, lengths);
    const std::int64_t budget = c.memoryCapBytes.value_or(deviceMemoryBytes(c10::Device(c.device)));
    const QString budgetName = c.memoryCapBytes ? tr("memory cap") : tr("device memory");

    evaluationPeak_ = forecastEvaluationPeak(*modelConfig_, c, lengths);
    const std::int64_t trainingPeak = forecast_.total();
    const std::int64_t peakGradients =
        trainingPeak - forecast_.weights - forecast_.optimizerState - forecast_.activations;
    const std::int64_t evaluationActivations =
        evaluationPeak_ - forecast_.weights - forecast_.optimizerState;

    // Two bars: a training step's peak and an evaluation's, each split by kind.
    auto* series = new QHorizontalStackedBarSeries();
    const std::tuple<QString, std::int64_t, std::int64_t> parts[] = {
        {tr("weights"), forecast_.weights, forecast_.weights},
        {tr("gradients (alive at the peak)"), peakGradients, 0},
        {tr("optimizer state"), forecast_.optimizerState, forecast_.optimizerState},
        {tr("activations"), forecast_.activations, evaluationActivations}};
    for (const auto& [name, training, evaluation] : parts) {
        auto* set = new QBarSet(name);
        // A horizontal chart draws its first category at the bottom: evaluation, then the step.
        *set << toMiB(static_cast<double>(evaluation)) << toMiB(static_cast<double>(training));
        series->append(set);
    }
    // CUDA: what the process takes beyond its tensors (memory/CudaFootprint.h), in both bars.
    const std::pair<QString, std::int64_t> cudaParts[] = {
        {tr("allocator overhead"), forecast_.allocatorOverhead},
        {tr("CUDA context and NCCL"), forecast_.outsideAllocator}};
    for (const auto& [name, bytes] : cudaParts) {
        if (bytes > 0) {
            auto* set = new QBarSet(name);
            *set << toMiB(static_cast<double>(bytes)) << toMiB(static_cast<double>(bytes));
            series->append(set);
        }
    }
    series->setBarWidth(0.6);
    chart->addSeries(series);
    auto* axis = new QValueAxis();
    axis->setTitleText(tr("MiB"));
    // Round ticks (0, 500, 1000 MiB), never 689.9; few of them, so that they are read whole.
    const double peakMiB =
        toMiB(static_cast<double>(std::max(trainingPeak, evaluationPeak_) +
                                  forecast_.allocatorOverhead + forecast_.outsideAllocator));
    setNiceRange(axis, 0.0, std::max(toMiB(static_cast<double>(budget)), peakMiB) * 1.02,
                 kForecastTicks, false);
    chart->addAxis(axis, Qt::AlignBottom);
    series->attachAxis(axis);
    auto* category = new QBarCategoryAxis();
    category->append({tr("evaluation"), tr("training step")});
    chart->addAxis(category, Qt::AlignLeft);
    series->attachAxis(category);
    // The budget, marked across both bars: a line on a hidden axis spanning the categories.
    auto* span = new QValueAxis();
    span->setRange(-0.5, 1.5);
    span->setVisible(false);
    chart->addAxis(span, Qt::AlignRight);
    auto* capLine = new QLineSeries();
    capLine->setName(tr("%1 %2").arg(budgetName, mib(budget)));
    capLine->setPen(QPen(kCapColour, 2.0, Qt::DashLine));
    capLine->append(toMiB(static_cast<double>(budget)), -0.5);
    capLine->append(toMiB(static_cast<double>(budget)), 1.5);
    chart->addSeries(capLine);
    capLine->attachAxis(axis);
    capLine->attachAxis(span);

    // Like with like (issue 24): on CUDA a cap limits what the caching allocator reserves, and
    // the device must hold all the process takes; on the CPU both are the tensors' peak. An
    // evaluation's tensors carry the same terms beyond the tensors as a step's.
    const std::int64_t budgeted = budgetedBytes(forecast_, c);
    const std::int64_t beyondTensors = budgeted - trainingPeak;
    fits_ = budgeted <= budget && evaluationPeak_ + beyondTensors <= budget;
    forecastLabel_->setText(
        tr("Forecast peak %1 of %2 %3 (%4%): weights %5, gradients %6 (%7 of them alive at the "
           "peak), optimizer state %8, activations %9 for %10 examples of up to %11 tokens.")
            .arg(mib(trainingPeak), mib(budget), budgetName)
            .arg(100.0 * static_cast<double>(trainingPeak) / static_cast<double>(budget), 0, 'f', 0)
            .arg(mib(forecast_.weights), mib(forecast_.gradients), mib(peakGradients),
                 mib(forecast_.optimizerState), mib(forecast_.activations))
            .arg(c.batchSize)
            .arg(std::min(longest, c.maxLength)) +
        QLatin1Char(' ') +
        tr("Evaluation, in batches of %1 without gradients: peak %2 (%3%).")
            .arg(c.evalBatchSize)
            .arg(mib(evaluationPeak_))
            .arg(100.0 * static_cast<double>(evaluationPeak_) / static_cast<double>(budget), 0, 'f',
                 0) +
        (forecast_.allocatorOverhead > 0 || forecast_.outsideAllocator > 0
             ? QStringLiteral(" ") +
                   tr("That is the peak of allocated tensors, what a trial step measures. On "
                      "CUDA the caching allocator reserves %1 (what a memory cap limits: cuBLAS "
                      "workspaces, rounding, cached blocks), and the process takes %2 of the "
                      "device with the CUDA context%3; %4% of the %5 is compared.")
                       .arg(mib(forecast_.reserved()), mib(forecast_.processTotal()),
                            c.processes > 1 ? tr(" and NCCL's buffers") : QString())
                       .arg(100.0 * static_cast<double>(budgeted) / static_cast<double>(budget), 0,
                            'f', 0)
                       .arg(budgetName)
             : QString()));
    // A large vocabulary's embeddings are most of the optimizer state: say what freezing frees.
    if (const auto note = largeEmbeddingNote(*modelConfig_, c); !note.empty()) {
        forecastLabel_->setText(forecastLabel_->text() + QLatin1Char('\n') +
                                EngineText::sentence(note));
    }
    if (!fits_) {
        const auto advice = suggestFit(*modelConfig_, c, lengths, budget, deviceTraits(c.device));
        const QString what =
            budgeted > budget ? tr("This will not fit.") : tr("Evaluation will not fit.");
        if (advice.fits) {
            advice_ = advice.config;
            adviceDescription_ = describeAdvice(advice);
            warningLabel_->setText(tr("%1 To fit: %2.").arg(what, adviceDescription_));
            applyAdvice_->show();
        } else {
            warningLabel_->setText(tr("This will not fit, even with every memory technique on."));
        }
    }
    // fp16 stays the user's choice, but the form says why bf16 is the one for this family, under
    // the precision it concerns: the engine's own sentence (what a run is warned), translated.
    // bf16 the model chose says so there too, until the user chooses another.
    precisionFromModel_ = precisionFromModel_ && c.precision == Precision::Bf16;
    const auto caution = c.precision == Precision::Fp16 ? fp16Caution(*modelConfig_)
                         : precisionFromModel_
                             ? defaultPrecisionReason(*modelConfig_, deviceTraits(c.device))
                             : std::string();
    options_->setNote("precision", caution.empty() ? QString() : EngineText::sentence(caution));
    // An applied suggestion can be undone until something else changes.
    if (applied_ && c.toJson() != applied_->toJson()) {
        applied_.reset();
        beforeAdvice_.reset();
    }
    undoAdvice_->setVisible(canUndoAdvice());
}

void TechniquesPage::setLargestBatchSearching(bool searching) {
    largestBatch_->setEnabled(!searching);
    largestBatch_->setText(searching ? tr("Finding the largest batch…")
                                     : tr("Largest batch that fits"));
}

void TechniquesPage::applyAdvice() {
    if (advice_) {
        const auto config = *advice_;
        const auto description = adviceDescription_;
        beforeAdvice_ = this->config();
        applied_ = config;
        setConfig(config);
        Q_EMIT adviceApplied(description);
    }
}

bool TechniquesPage::canUndoAdvice() const {
    return beforeAdvice_.has_value() && applied_.has_value();
}

void TechniquesPage::undoAdvice() {
    if (!canUndoAdvice()) {
        return;
    }
    const auto previous = *beforeAdvice_;
    beforeAdvice_.reset();
    applied_.reset();
    setConfig(previous);
    Q_EMIT adviceApplied(QString());
}

}  // namespace bert::ui
