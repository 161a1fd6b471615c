#include "tryit/TryItPage.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "Error.h"
#include "checkpoint/ModelFolder.h"
#include "model/Inference.h"
#include "store/RunStore.h"
#include "train/TrainingJob.h"

namespace bert::ui {

namespace {
constexpr std::size_t kTryItMaxLength = 512;  // tokens; longer texts are truncated
}

TryItPage::TryItPage(std::filesystem::path database, QWidget* parent) : QWidget(parent), database_(std::move(database)) {
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
    top->addWidget(new QLabel(tr("&Model:"), this));
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
    try {
        RunStore store(database_);
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
    } catch (const InputError& error) {
        error_->setText(QString::fromStdString(error.what()));
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

QString TryItPage::errorText() const { return error_->text(); }

void TryItPage::loadChosenModel() {
    const std::filesystem::path folder = source_->currentData().toString().toStdString();
    if (folder.empty() || (model_ && folder == loadedFolder_)) {
        return;
    }
    model_ = std::make_unique<ModelBundle>(loadModelFolder(folder));
    loadedFolder_ = folder;
}

QList<QPair<QString, double>> TryItPage::classify(const QString& text) {
    QList<QPair<QString, double>> result;
    error_->clear();
    if (source_->count() == 0) {
        error_->setText(tr("No trained model yet: train a run first, or choose a model folder."));
        return result;
    }
    try {
        loadChosenModel();
        const auto probabilities = predictProbabilities(*model_->model, model_->tokenizer, {text.toStdString()},
                                                        kTryItMaxLength, 1, c10::Device(c10::kCPU));
        for (std::size_t i = 0; i < model_->config.labels.size(); ++i) {
            result.append({QString::fromStdString(model_->config.labels[i]), static_cast<double>(probabilities[0][i])});
        }
        std::sort(result.begin(), result.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    } catch (const InputError& error) {
        error_->setText(QString::fromStdString(error.what()));
    }
    showResult(result);
    return result;
}

void TryItPage::showResult(const QList<QPair<QString, double>>& result) {
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
