#include "tryit/TryItPage.h"

#include <algorithm>

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "common/AsyncTask.h"
#include "common/Guard.h"
#include "hf/ModelFolder.h"
#include "model/Inference.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "train/Metrics.h"

namespace bert::ui {

namespace {
constexpr std::size_t kTryItMaxLength = 512;      // tokens: a model folder's texts are cut here
constexpr int kMaxLengthRole = Qt::UserRole + 1;  // a run's model reads what the run read

/// The max length a stored run trained at, or kTryItMaxLength when it does not say.
std::size_t maxLengthOfRun(const RunRecord& run) {
    const auto* training = trainingSettingsOfRunConfig(run.config);
    if (training != nullptr && training->contains("max_length") &&
        (*training)["max_length"].is_number_unsigned()) {
        return (*training)["max_length"].get<std::size_t>();
    }
    return kTryItMaxLength;
}
}  // namespace

TryItPage::TryItPage(std::filesystem::path database, QWidget* parent)
    : QWidget(parent), database_(std::move(database)) {
    source_ = new QComboBox(this);
    source_->setToolTip(tr("The run whose best model classifies the text"));
    auto* folder = new QPushButton(tr("Model &folder…"), this);
    connect(folder, &QPushButton::clicked, this, [this] {
        const auto path = QFileDialog::getExistingDirectory(this, tr("Model folder"));
        if (!path.isEmpty()) {
            source_->addItem(tr("folder %1").arg(path), path);
            source_->setCurrentIndex(source_->count() - 1);
        }
    });
    text_ = new QPlainTextEdit(this);
    text_->setPlaceholderText(tr("Type or paste a text to classify…"));
    classify_ = new QPushButton(tr("C&lassify"), this);
    classify_->setToolTip(tr("Label probabilities of the text (Ctrl+Return on this tab)"));
    connect(classify_, &QPushButton::clicked, this, [this] { classify(text_->toPlainText()); });
    // Ctrl+Return classifies here; the main window's Start is not bound to it on this tab.
    for (const auto& keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, classify_, &QPushButton::click);
    }
    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    error_->setWordWrap(true);
    auto* top = new QHBoxLayout();
    auto* modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(source_);  // the & is a shortcut to the list, not a character to show
    top->addWidget(modelLabel);
    top->addWidget(source_, 1);
    top->addWidget(folder);
    resultsArea_ = new QVBoxLayout();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(text_, 1);
    layout->addWidget(classify_);
    layout->addWidget(error_);
    layout->addLayout(resultsArea_);
    layout->addStretch();
    refreshRuns();
}

TryItPage::~TryItPage() = default;

void TryItPage::refreshRuns() {
    const auto current = source_->currentData();
    source_->clear();
    error_->clear();
    try {
        RunStore store(database_, RunStore::Access::ReadOnly);
        auto runs = store.runs();
        for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
            const auto checkpoint = modelCheckpointOfRun(store, it->id);
            if (!checkpoint.empty()) {
                source_->addItem(tr("run %1: %2 (accuracy %3)")
                                     .arg(it->id)
                                     .arg(QString::fromStdString(it->name))
                                     .arg(it->bestAccuracy, 0, 'f', 3),
                                 QString::fromStdString(checkpoint.string()));
                source_->setItemData(source_->count() - 1,
                                     static_cast<qulonglong>(maxLengthOfRun(*it)), kMaxLengthRole);
            }
        }
    } catch (...) {
        error_->setText(describeError(std::current_exception()));
    }
    const int index = source_->findData(current);
    if (index >= 0) {
        source_->setCurrentIndex(index);
    }
}

void TryItPage::chooseRun(qint64 runId) {
    for (int i = 0; i < source_->count(); ++i) {
        if (source_->itemText(i).startsWith(tr("run %1:").arg(runId))) {
            source_->setCurrentIndex(i);
        }
    }
}

QString TryItPage::currentModelText() const {
    return source_->currentText();
}

QString TryItPage::errorText() const {
    return error_->text();
}

void TryItPage::setBusy(bool busy) {
    busy_ = busy;
    classify_->setEnabled(!busy);
}

void TryItPage::classify(const QString& text) {
    if (busy_) {
        return;
    }
    error_->clear();
    if (source_->count() == 0) {
        error_->setText(tr("No trained model yet: train a run first, or choose a model folder."));
        return;
    }
    const std::filesystem::path folder = source_->currentData().toString().toStdString();
    const auto maxLength = source_->currentData(kMaxLengthRole).isValid()
                               ? source_->currentData(kMaxLengthRole).toULongLong()
                               : kTryItMaxLength;
    // The task gets the loaded model when it is the chosen one, and loads it otherwise.
    auto model = folder == loadedFolder_ ? model_ : nullptr;
    struct Outcome {
        std::shared_ptr<ModelBundle> model;
        Probabilities probabilities;
    };
    setBusy(true);
    runAsync<Outcome>(
        this,
        [model, folder, maxLength, input = text.toStdString()]() mutable {
            if (!model) {
                model = std::make_shared<ModelBundle>(loadModelFolder(folder));
            }
            const auto probabilities = predictProbabilities(
                *model->model, *model->tokenizer, {input}, maxLength, 1, c10::Device(c10::kCPU));
            Outcome outcome{model, {}};
            for (std::size_t i = 0; i < model->config.labels.size(); ++i) {
                outcome.probabilities.append({QString::fromStdString(model->config.labels[i]),
                                              static_cast<double>(probabilities[0][i])});
            }
            std::sort(outcome.probabilities.begin(), outcome.probabilities.end(),
                      [](const auto& a, const auto& b) { return a.second > b.second; });
            return outcome;
        },
        [this, folder](Outcome outcome) {
            model_ = std::move(outcome.model);
            loadedFolder_ = folder;
            setBusy(false);
            showResult(outcome.probabilities);
            Q_EMIT classified(outcome.probabilities);
        },
        [this](const QString& message) {
            setBusy(false);
            error_->setText(message);
            showResult({});
            Q_EMIT failed(message);
        });
}

void TryItPage::showResult(const Probabilities& result) {
    lastResult_ = result;
    // One widget holds a result's rows: the next result replaces it whole. (Taking the layout's
    // items one by one deleted a row's layout twice, and its labels and bars never: the second
    // Classify crashed the studio.)
    delete results_;
    results_ = new QWidget(this);
    results_->setObjectName(QStringLiteral("tryItResults"));
    auto* rows = new QVBoxLayout(results_);
    rows->setContentsMargins(0, 0, 0, 0);
    for (const auto& [label, probability] : result) {
        auto* row = new QHBoxLayout();
        auto* name = new QLabel(label, results_);
        name->setMinimumWidth(120);
        auto* bar = new QProgressBar(results_);
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(probability * 1000.0));
        bar->setFormat(QString::number(probability * 100.0, 'f', 1) + QLatin1Char('%'));
        row->addWidget(name);
        row->addWidget(bar, 1);
        rows->addLayout(row);
    }
    resultsArea_->addWidget(results_);
}

int TryItPage::resultRows() const {
    return results_ == nullptr ? 0
                               : static_cast<int>(results_->findChildren<QProgressBar*>().size());
}

}  // namespace bert::ui
