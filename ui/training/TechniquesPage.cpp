#include "training/TechniquesPage.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QBarSet>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>

#include "DefaultModel.h"
#include "Error.h"
#include "memory/MemoryMonitor.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert::ui {

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
QString mib(std::int64_t bytes) { return QString::number(static_cast<double>(bytes) / kMiB, 'f', 0) + QStringLiteral(" MiB"); }
}  // namespace

TechniquesPage::TechniquesPage(QWidget* parent) : QWidget(parent) {
    // ---- model ----
    fineTune_ = new QRadioButton(tr("Fine-tune a &model folder"), this);
    fromScratch_ = new QRadioButton(tr("Train from &scratch"), this);
    fineTune_->setChecked(true);
    modelFolder_ = new QLineEdit(QString::fromStdString(defaultModelFolder().string()), this);
    modelFolder_->setToolTip(tr("A Hugging Face BERT folder: config.json, vocab.txt, model.safetensors"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const auto folder = QFileDialog::getExistingDirectory(this, tr("Model folder"), modelFolder_->text());
        if (!folder.isEmpty()) {
            setModelFolder(folder);
        }
    });
    presetBox_ = new QComboBox(this);
    for (const auto& name : BertConfig::presetNames()) {
        presetBox_->addItem(QString::fromStdString(name));
    }
    presetBox_->setToolTip(tr("Randomly initialised BERT of this size, using the folder's tokenizer"));
    modelInfo_ = new QLabel(this);
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
    modelLayout->addRow(folderRow);
    modelLayout->addRow(presetRow);
    modelLayout->addRow(modelInfo_);
    modelLayout->addRow(modelError_);

    // ---- switches ----
    auto spin = [this](int low, int high, int value, const QString& tip) {
        auto* box = new QSpinBox(this);
        box->setRange(low, high);
        box->setValue(value);
        box->setToolTip(tip);
        connect(box, &QSpinBox::valueChanged, this, &TechniquesPage::updateForecast);
        return box;
    };
    auto dspin = [this](double low, double high, double value, int decimals, const QString& tip) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(low, high);
        box->setDecimals(decimals);
        box->setValue(value);
        box->setSingleStep(value > 0 ? value / 2 : 0.1);
        box->setToolTip(tip);
        connect(box, &QDoubleSpinBox::valueChanged, this, &TechniquesPage::updateForecast);
        return box;
    };
    auto check = [this](const QString& text, const QString& tip) {
        auto* box = new QCheckBox(text, this);
        box->setToolTip(tip);
        connect(box, &QCheckBox::toggled, this, &TechniquesPage::updateForecast);
        return box;
    };
    auto combo = [this](const QStringList& items, const QString& tip) {
        auto* box = new QComboBox(this);
        box->addItems(items);
        box->setToolTip(tip);
        connect(box, &QComboBox::currentIndexChanged, this, &TechniquesPage::updateForecast);
        return box;
    };
    batchSize_ = spin(1, 4096, 16, tr("Examples per forward/backward pass. Activation memory grows with it; larger is faster per example."));
    accumulation_ = spin(1, 1024, 1, tr("Micro-batches summed before each optimizer step: the effective batch grows without the activation memory; costs time per example."));
    evalBatch_ = spin(1, 4096, 64, tr("Examples per evaluation pass (no gradients are kept, so it can be larger)."));
    maxLength_ = spin(8, 4096, 128, tr("Tokens per example; longer texts are truncated. Activation memory grows with it, attention quadratically."));
    padding_ = combo({tr("dynamic"), tr("fixed")}, tr("Dynamic pads each batch to its longest example instead of max length: less memory and time, same results."));
    padMultiple_ = spin(1, 64, 1, tr("Round padded lengths up to a multiple (8 suits tensor cores under fp16); costs a little padding."));
    groupByLength_ = check(tr("Group by length"), tr("Batches of similar lengths (longest first, so an out-of-memory shows at once): far less padding; slightly less random batches."));
    freezeEmbeddings_ = check(tr("Freeze embeddings"), tr("No gradients or optimizer state for the embeddings (a quarter to half of a small BERT's weights); usually costs little accuracy."));
    freezeLayers_ = spin(0, 48, 0, tr("Freeze the lowest N encoder layers: no gradients, optimizer state or (with frozen embeddings) activations for them; may cost accuracy."));
    precision_ = combo({QStringLiteral("fp32"), QStringLiteral("bf16"), QStringLiteral("fp16")},
                       tr("bf16/fp16 autocast stores activations in half precision and runs faster on GPUs; fp16 adds dynamic loss scaling. Weights stay fp32."));
    checkpointing_ = check(tr("Gradient checkpointing"), tr("Keep only each layer's input and recompute the layer in backward: activation memory falls to about one layer; about 20-30% slower."));
    cacheRelease_ = combo({tr("never"), tr("after evaluation"), tr("every N steps")},
                          tr("Return the CUDA allocator's cached memory to the device: helps other processes and fragmentation; every step costs speed."));
    cacheReleaseSteps_ = spin(1, 100000, 100, tr("N for cache release every N steps."));
    capEnabled_ = check(tr("Memory cap (MiB)"), tr("Refuse allocations past this size, as a smaller GPU would: rehearse a 16 GB card on a bigger one, or test on the CPU."));
    capMiB_ = spin(16, 1 << 22, 4096, tr("The budget in MiB."));
    oomRecovery_ = check(tr("Recover from out-of-memory"), tr("On out-of-memory, halve the micro-batch and double accumulation: the effective batch stays the same."));
    oomRecovery_->setChecked(true);
    epochs_ = spin(1, 1000, 1, tr("Passes over the training data."));
    maxSteps_ = spin(0, 10000000, 0, tr("Stop after this many optimizer steps (0: no limit)."));
    learningRate_ = dspin(1e-7, 1.0, 5e-5, 7, tr("Peak learning rate of AdamW (linear warmup, then linear decay)."));
    weightDecay_ = dspin(0.0, 1.0, 0.01, 4, tr("AdamW weight decay; not applied to biases and LayerNorm."));
    warmup_ = dspin(0.0, 0.9, 0.06, 3, tr("Share of steps spent warming the learning rate up from zero."));
    gradNorm_ = dspin(0.0, 100.0, 1.0, 2, tr("Clip the gradient norm (after unscaling under fp16); 0 turns clipping off."));
    seed_ = spin(0, 2147483647, 42, tr("Seed of the split, initialisation, shuffling and dropout: equal seeds, equal runs on the CPU."));
    evalEvery_ = spin(0, 1000000, 0, tr("Evaluate every N steps as well as at each epoch end (0: epoch ends only)."));
    device_ = combo({QStringLiteral("cpu")}, tr("Where training runs."));
    for (int i = 0; i < cudaDeviceCount(); ++i) {
        device_->addItem(QStringLiteral("cuda:%1").arg(i));
    }

    auto* batching = new QGroupBox(tr("Batching"), this);
    auto* batchingForm = new QFormLayout(batching);
    batchingForm->addRow(tr("&Batch size:"), batchSize_);
    batchingForm->addRow(tr("&Accumulation steps:"), accumulation_);
    batchingForm->addRow(tr("Evaluation batch:"), evalBatch_);
    batchingForm->addRow(tr("Max &length:"), maxLength_);
    batchingForm->addRow(tr("&Padding:"), padding_);
    batchingForm->addRow(tr("Pad to multiple of:"), padMultiple_);
    batchingForm->addRow(groupByLength_);

    auto* memory = new QGroupBox(tr("Memory"), this);
    auto* memoryForm = new QFormLayout(memory);
    memoryForm->addRow(freezeEmbeddings_);
    memoryForm->addRow(tr("Freeze lowest layers:"), freezeLayers_);
    memoryForm->addRow(tr("P&recision:"), precision_);
    memoryForm->addRow(checkpointing_);
    memoryForm->addRow(tr("Cache release:"), cacheRelease_);
    memoryForm->addRow(tr("Release every N steps:"), cacheReleaseSteps_);
    auto* capRow = new QHBoxLayout();
    capRow->addWidget(capEnabled_);
    capRow->addWidget(capMiB_);
    memoryForm->addRow(capRow);
    memoryForm->addRow(oomRecovery_);
    memoryForm->addRow(tr("&Device:"), device_);

    auto* optimisation = new QGroupBox(tr("Optimisation"), this);
    auto* optimisationForm = new QFormLayout(optimisation);
    optimisationForm->addRow(tr("&Epochs:"), epochs_);
    optimisationForm->addRow(tr("Max steps:"), maxSteps_);
    optimisationForm->addRow(tr("Learning rate:"), learningRate_);
    optimisationForm->addRow(tr("Weight decay:"), weightDecay_);
    optimisationForm->addRow(tr("Warmup share:"), warmup_);
    optimisationForm->addRow(tr("Clip gradient norm:"), gradNorm_);
    optimisationForm->addRow(tr("Seed:"), seed_);
    optimisationForm->addRow(tr("Evaluate every N steps:"), evalEvery_);

    // ---- forecast ----
    auto* chart = new QChart();
    chart->setTitle(tr("Memory forecast"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    forecastChart_ = new QChartView(chart, this);
    forecastChart_->setMinimumHeight(170);
    forecastChart_->setRenderHint(QPainter::Antialiasing);
    forecastLabel_ = new QLabel(this);
    forecastLabel_->setWordWrap(true);
    warningLabel_ = new QLabel(this);
    warningLabel_->setWordWrap(true);
    warningLabel_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    applyAdvice_ = new QPushButton(tr("Apply the suggested change"), this);
    applyAdvice_->hide();
    connect(applyAdvice_, &QPushButton::clicked, this, &TechniquesPage::applyAdvice);

    auto* switches = new QHBoxLayout();
    switches->addWidget(batching);
    switches->addWidget(memory);
    switches->addWidget(optimisation);
    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(modelBox);
    layout->addLayout(switches);
    layout->addWidget(forecastChart_);
    layout->addWidget(forecastLabel_);
    auto* warningRow = new QHBoxLayout();
    warningRow->addWidget(warningLabel_, 1);
    warningRow->addWidget(applyAdvice_);
    layout->addLayout(warningRow);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    constructed_ = true;
    loadModel();
}

void TechniquesPage::setModelFolder(const QString& folder) {
    modelFolder_->setText(folder);
    loadModel();
}

std::filesystem::path TechniquesPage::modelFolder() const { return modelFolder_->text().toStdString(); }

std::string TechniquesPage::preset() const {
    return fromScratch_->isChecked() ? presetBox_->currentText().toStdString() : std::string();
}

QString TechniquesPage::modelError() const { return modelError_->text(); }
QString TechniquesPage::adviceText() const { return warningLabel_->text(); }

void TechniquesPage::loadModel() {
    modelConfig_.reset();
    tokenizer_.reset();
    modelError_->clear();
    try {
        const std::filesystem::path folder = modelFolder();
        tokenizer_ = std::make_shared<WordPieceTokenizer>(WordPieceTokenizer::fromModelFolder(folder));
        if (fromScratch_->isChecked()) {
            modelConfig_ = BertConfig::preset(presetBox_->currentText().toStdString(),
                                              static_cast<std::int64_t>(tokenizer_->vocabularySize()));
        } else {
            modelConfig_ = BertConfig::fromFile(folder / "config.json");
        }
        const auto counts = countParameters(*modelConfig_);
        const auto parameters = counts.total(modelConfig_->numHiddenLayers);
        modelInfo_->setText(tr("%1 layers, hidden size %2, %3 heads; %4 M parameters, %5 of weights (fp32); "
                               "vocabulary %6 (%7)")
                                .arg(modelConfig_->numHiddenLayers)
                                .arg(modelConfig_->hiddenSize)
                                .arg(modelConfig_->numAttentionHeads)
                                .arg(static_cast<double>(parameters) / 1e6, 0, 'f', 1)
                                .arg(mib(parameters * 4))
                                .arg(tokenizer_->vocabularySize())
                                .arg(tokenizer_->options().lowercase ? tr("uncased") : tr("cased")));
        freezeLayers_->setMaximum(static_cast<int>(modelConfig_->numHiddenLayers));
        maxLength_->setMaximum(static_cast<int>(modelConfig_->maxPositionEmbeddings));
    } catch (const InputError& error) {
        modelInfo_->clear();
        modelError_->setText(QString::fromStdString(error.what()));
        tokenizer_.reset();
    }
    Q_EMIT modelChanged();
    updateForecast();
}

void TechniquesPage::setLongestExample(std::size_t tokens) {
    longest_ = tokens;
    updateForecast();
}

TrainingConfig TechniquesPage::config() const {
    TrainingConfig c;
    c.batchSize = static_cast<std::size_t>(batchSize_->value());
    c.accumulationSteps = static_cast<std::size_t>(accumulation_->value());
    c.evalBatchSize = static_cast<std::size_t>(evalBatch_->value());
    c.maxLength = static_cast<std::size_t>(maxLength_->value());
    c.padding = padding_->currentIndex() == 0 ? PaddingMode::Dynamic : PaddingMode::Fixed;
    c.padToMultipleOf = static_cast<std::size_t>(padMultiple_->value());
    c.groupByLength = groupByLength_->isChecked();
    c.freezeEmbeddings = freezeEmbeddings_->isChecked();
    c.freezeLayers = static_cast<std::size_t>(freezeLayers_->value());
    c.precision = static_cast<Precision>(precision_->currentIndex());
    c.gradientCheckpointing = checkpointing_->isChecked();
    c.cacheRelease = static_cast<CacheRelease>(cacheRelease_->currentIndex());
    c.cacheReleaseSteps = static_cast<std::size_t>(cacheReleaseSteps_->value());
    if (capEnabled_->isChecked()) {
        c.memoryCapBytes = static_cast<std::int64_t>(capMiB_->value()) * 1024 * 1024;
    }
    c.recoverFromOom = oomRecovery_->isChecked();
    c.epochs = static_cast<std::size_t>(epochs_->value());
    c.maxSteps = static_cast<std::size_t>(maxSteps_->value());
    c.learningRate = learningRate_->value();
    c.weightDecay = weightDecay_->value();
    c.warmupRatio = warmup_->value();
    c.maxGradNorm = gradNorm_->value();
    c.seed = static_cast<std::uint64_t>(seed_->value());
    c.evalEverySteps = static_cast<std::size_t>(evalEvery_->value());
    c.device = device_->currentText().toStdString();
    return c;
}

void TechniquesPage::setConfig(const TrainingConfig& c) {
    const QSignalBlocker block(this);
    batchSize_->setValue(static_cast<int>(c.batchSize));
    accumulation_->setValue(static_cast<int>(c.accumulationSteps));
    evalBatch_->setValue(static_cast<int>(c.evalBatchSize));
    maxLength_->setValue(static_cast<int>(c.maxLength));
    padding_->setCurrentIndex(c.padding == PaddingMode::Dynamic ? 0 : 1);
    padMultiple_->setValue(static_cast<int>(c.padToMultipleOf));
    groupByLength_->setChecked(c.groupByLength);
    freezeEmbeddings_->setChecked(c.freezeEmbeddings);
    freezeLayers_->setValue(static_cast<int>(c.freezeLayers));
    precision_->setCurrentIndex(static_cast<int>(c.precision));
    checkpointing_->setChecked(c.gradientCheckpointing);
    cacheRelease_->setCurrentIndex(static_cast<int>(c.cacheRelease));
    cacheReleaseSteps_->setValue(static_cast<int>(c.cacheReleaseSteps));
    capEnabled_->setChecked(c.memoryCapBytes.has_value());
    if (c.memoryCapBytes) {
        capMiB_->setValue(static_cast<int>(*c.memoryCapBytes / (1024 * 1024)));
    }
    oomRecovery_->setChecked(c.recoverFromOom);
    epochs_->setValue(static_cast<int>(c.epochs));
    maxSteps_->setValue(static_cast<int>(c.maxSteps));
    learningRate_->setValue(c.learningRate);
    weightDecay_->setValue(c.weightDecay);
    warmup_->setValue(c.warmupRatio);
    gradNorm_->setValue(c.maxGradNorm);
    seed_->setValue(static_cast<int>(c.seed));
    evalEvery_->setValue(static_cast<int>(c.evalEverySteps));
    const int device = device_->findText(QString::fromStdString(c.device));
    device_->setCurrentIndex(device >= 0 ? device : 0);
    updateForecast();
}

void TechniquesPage::updateForecast() {
    if (!constructed_) {
        return;
    }
    cacheReleaseSteps_->setEnabled(cacheRelease_->currentIndex() == static_cast<int>(CacheRelease::EveryNSteps));
    capMiB_->setEnabled(capEnabled_->isChecked());
    Q_EMIT configChanged();
    auto* chart = forecastChart_->chart();
    chart->removeAllSeries();
    for (auto* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    advice_.reset();
    applyAdvice_->hide();
    warningLabel_->clear();
    if (!modelConfig_) {
        forecastLabel_->setText(tr("Choose a readable model to see the memory forecast."));
        return;
    }
    const auto c = config();
    const std::size_t longest = longest_ > 0 ? longest_ : c.maxLength;
    forecast_ = forecastMemory(*modelConfig_, c, longest);
    const std::int64_t budget = c.memoryCapBytes.value_or(deviceMemoryBytes(c10::Device(c.device)));
    const QString budgetName = c.memoryCapBytes ? tr("memory cap") : tr("device memory");

    auto* series = new QHorizontalStackedBarSeries();
    const std::pair<QString, std::int64_t> parts[] = {
        {tr("weights"), forecast_.weights},
        {tr("gradients (alive at the peak)"),
         forecast_.total() - forecast_.weights - forecast_.optimizerState - forecast_.activations},
        {tr("optimizer state"), forecast_.optimizerState},
        {tr("activations"), forecast_.activations}};
    for (const auto& [name, bytes] : parts) {
        auto* set = new QBarSet(name);
        *set << static_cast<double>(bytes) / kMiB;
        series->append(set);
    }
    chart->addSeries(series);
    auto* axis = new QValueAxis();
    axis->setTitleText(tr("MiB (%1: %2)").arg(budgetName, mib(budget)));
    axis->setRange(0.0, std::max(static_cast<double>(budget), static_cast<double>(forecast_.total())) / kMiB);
    chart->addAxis(axis, Qt::AlignBottom);
    series->attachAxis(axis);
    auto* category = new QBarCategoryAxis();
    category->append(tr("peak"));
    chart->addAxis(category, Qt::AlignLeft);
    series->attachAxis(category);

    fits_ = forecast_.total() <= budget;
    const std::int64_t peakGradients =
        forecast_.total() - forecast_.weights - forecast_.optimizerState - forecast_.activations;
    forecastLabel_->setText(tr("Forecast peak %1 of %2 %3 (%4%): weights %5, gradients %6 (%7 of them alive at the "
                               "peak), optimizer state %8, activations %9 for %10 examples of up to %11 tokens.")
                                .arg(mib(forecast_.total()), mib(budget), budgetName)
                                .arg(100.0 * static_cast<double>(forecast_.total()) / static_cast<double>(budget), 0, 'f', 0)
                                .arg(mib(forecast_.weights), mib(forecast_.gradients), mib(peakGradients),
                                     mib(forecast_.optimizerState), mib(forecast_.activations))
                                .arg(c.batchSize)
                                .arg(std::min(longest, c.maxLength)));
    if (!fits_) {
        const auto advice = suggestFit(*modelConfig_, c, longest, budget);
        if (advice.fits) {
            advice_ = advice.config;
            warningLabel_->setText(tr("This will not fit. To fit: %1.").arg(QString::fromStdString(advice.description)));
            applyAdvice_->show();
        } else {
            warningLabel_->setText(tr("This will not fit, even with every memory technique on."));
        }
    }
}

void TechniquesPage::applyAdvice() {
    if (advice_) {
        const auto config = *advice_;
        setConfig(config);
    }
}

}  // namespace bert::ui
