#include "tryit/TryItPage.h"

#include <algorithm>

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "common/AsyncTask.h"
#include "common/Guard.h"
#include "hf/ModelFolder.h"
#include "model/Inference.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"

namespace bert::ui {

namespace {
constexpr std::size_t kTryItMaxLength = 512;  // tokens; longer texts are truncated
}

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
    classify_->setToolTip(tr("Label probabilities of the text (Ctrl+Return in the text box)"));
    connect(classify_, &QPushButton::clicked, this, [this] { classify(text_->toPlainText()); });
    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
    error_->setWordWrap(true);
    auto* top = new QHBoxLayout();
    auto* modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(source_);  // the & is a shortcut to the list, not a character to show
    top->addWidget(modelLabel);
    top->addWidget(source_, 1);
    top->addWidget(folder);
    results_ = new QVBoxLayout();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(text_, 1);
    layout->addWidget(classify_);
    layout->addWidget(error_);
    layout->addLayout(results_);
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
    // The task gets the loaded model when it is the chosen one, and loads it otherwise.
    auto model = folder == loadedFolder_ ? model_ : nullptr;
    struct Outcome {
        std::shared_ptr<ModelBundle> model;
        Probabilities probabilities;
    };
    setBusy(true);
    runAsync<Outcome>(
        this,
        [model, folder, input = text.toStdString()]() mutable {
            if (!model) {
                model = std::make_shared<ModelBundle>(loadModelFolder(folder));
            }
            const auto probabilities =
                predictProbabilities(*model->model, *model->tokenizer, {input}, kTryItMaxLength, 1,
                                     c10::Device(c10::kCPU));
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
    while (auto* item = results_->takeAt(0)) {
        delete item->widget();
        delete item->layout();
        delete item;
    }
    for (const auto& [label, probability] : result) {
        auto* row = new QHBoxLayout();
        auto* name = new QLabel(label, this);
        name->setMinimumWidth(120);
        auto* bar = new QProgressBar(this);
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(probability * 1000.0));
        bar->setFormat(QString::number(probability * 100.0, 'f', 1) + QLatin1Char('%'));
        row->addWidget(name);
        row->addWidget(bar, 1);
        results_->addLayout(row);
    }
}

}  // namespace bert::ui
