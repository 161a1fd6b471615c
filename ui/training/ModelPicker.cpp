#include "training/ModelPicker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLocale>
#include <QPushButton>

#include "DefaultModel.h"
#include "common/Guard.h"

namespace bert::ui {

namespace {

bool sameFolder(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code error;
    return !a.empty() && !b.empty() && (a == b || std::filesystem::equivalent(a, b, error));
}

// "125.0 M", "41.2 k": tiny test models are not "0.0 M".
QString parameterCount(std::int64_t parameters) {
    const QLocale locale;
    const auto count = static_cast<double>(parameters);
    return count >= 1e6 ? ModelPicker::tr("%1 M").arg(locale.toString(count / 1e6, 'f', 1))
                        : ModelPicker::tr("%1 k").arg(locale.toString(count / 1e3, 'f', 1));
}

}  // namespace

ModelPicker::ModelPicker(QWidget* parent) : QWidget(parent) {
    box_ = new QComboBox(this);
    box_->setObjectName(QStringLiteral("modelPicker"));
    box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box_->setMinimumContentsLength(40);
    box_->setToolTip(
        tr("The bundled model and the models of the local Hugging Face cache (%1) that the "
           "studio can train. Nothing is downloaded.")
            .arg(QString::fromStdString(huggingFaceCache().string())));
    rescan_ = new QPushButton(tr("Rescan"), this);
    rescan_->setObjectName(QStringLiteral("rescanModels"));
    rescan_->setToolTip(tr("Read the Hugging Face cache again, for models downloaded since"));
    // activated: the user's choice only; showFolder's own updates must not reload the model.
    connect(box_, &QComboBox::activated, this,
            [this](int index) { guarded(this, tr("Choose a model"), [&] { choose(index); }); });
    connect(rescan_, &QPushButton::clicked, this,
            [this] { guarded(this, tr("Rescan"), [&] { rescan(); }); });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box_, 1);
    layout->addWidget(rescan_);
    rescan();
}

void ModelPicker::rescan() {
    models_.clear();
    if (auto bundled = describeModelFolder(defaultModelFolder())) {
        bundled->repoId = tr("all-MiniLM-L6-v2 (bundled)").toStdString();
        models_.push_back(std::move(*bundled));
    }
    for (auto& cached : listCachedModels()) {
        models_.push_back(std::move(cached));
    }
    const QLocale locale;
    box_->clear();
    for (const auto& model : models_) {
        box_->addItem(
            tr("%1 — %2, %3 parameters, vocabulary %4, up to %5 tokens")
                .arg(QString::fromStdString(model.repoId), QString::fromStdString(model.family),
                     parameterCount(model.parameters),
                     locale.toString(static_cast<qlonglong>(model.vocabularySize)),
                     locale.toString(static_cast<qlonglong>(model.maxSequenceLength))),
            QString::fromStdString(model.folder.string()));
    }
    box_->addItem(tr("Another folder (type it or browse below)"));
    showFolder(shown_);
}

void ModelPicker::showFolder(const std::filesystem::path& folder) {
    shown_ = folder;
    int index = box_->count() - 1;  // another folder
    for (std::size_t i = 0; i < models_.size(); ++i) {
        if (sameFolder(models_[i].folder, folder)) {
            index = static_cast<int>(i);
            break;
        }
    }
    box_->setCurrentIndex(index);
}

void ModelPicker::choose(int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= models_.size()) {
        return;  // "another folder": the field below is the user's
    }
    shown_ = models_[static_cast<std::size_t>(index)].folder;
    Q_EMIT folderChosen(QString::fromStdString(shown_.string()));
}

}  // namespace bert::ui
