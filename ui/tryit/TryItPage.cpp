#include "tryit/TryItPage.h"

#include <algorithm>

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "Error.h"
#include "common/AsyncTask.h"
#include "common/Guard.h"
#include "common/Names.h"
#include "data/LongText.h"
#include "data/UnknownTokens.h"
#include "hf/ModelFolder.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"
#include "runs/TaskPrediction.h"
#include "task/TaskView.h"
#include "train/Metrics.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

namespace {
constexpr std::size_t kTryItMaxLength = 512;      // tokens: a model folder's texts are cut here
constexpr int kMaxLengthRole = Qt::UserRole + 1;  // a run's model reads what the run read
constexpr int kRunIdRole = Qt::UserRole + 2;      // a run's threshold and scaling are its own

/// The max length a stored run trained at, or kTryItMaxLength when it does not say.
std::size_t maxLengthOfRun(const RunRecord& run) {
    const auto* training = trainingSettingsOfRunConfig(run.config);
    if (training != nullptr && training->contains("max_length") &&
        (*training)["max_length"].is_number_unsigned()) {
        return (*training)["max_length"].get<std::size_t>();
    }
    return kTryItMaxLength;
}

/// What the combo box says of a run: as its task describes it (single-label: its accuracy).
QString describeRun(const RunRecord& run) {
    return taskView(taskSettingsOfRun(run, {}).kind).describeRun(run);
}
}  // namespace

/// A loaded model and how its outputs are read: the run's task settings (runId > 0), or the
/// folder's config.json.
struct TryItPage::LoadedModel {
    ModelBundle bundle;
    std::filesystem::path folder;
    qint64 runId = 0;
    TaskSettings settings;
    ThresholdSource thresholdSource = ThresholdSource::Default;
};

struct TryItPage::Outcome {
    std::shared_ptr<LoadedModel> model;
    TryItResult result;
    QString modelKey;                ///< the model chosen when the classification started
    std::size_t maxLength = 0;       ///< tokens the model reads
    std::size_t textTokens = 0;      ///< tokens of the whole text (special tokens included)
    std::size_t templateTokens = 0;  ///< of those, the template's special tokens
    UnknownTokenShare unknown;       ///< of the whole text
    std::string unknownToken;        ///< the tokenizer's name for it ("[UNK]", "<unk>")
};

TryItPage::TryItPage(std::filesystem::path database, QWidget* parent)
    : QWidget(parent), database_(std::move(database)) {
    source_ = new QComboBox(this);
    source_->setToolTip(tr("The run whose best model classifies the text"));
    auto* folder = new QPushButton(tr("Model fol&der…"), this);
    connect(folder, &QPushButton::clicked, this, [this] {
        const auto path = QFileDialog::getExistingDirectory(this, tr("Model folder"));
        if (!path.isEmpty()) {
            userChose_ = true;
            source_->addItem(tr("folder %1").arg(path), path);
            source_->setCurrentIndex(source_->count() - 1);
        }
    });
    // A choice in the list is the user's: a run that finishes later does not replace it.
    connect(source_, &QComboBox::activated, this, [this] { userChose_ = true; });
    // A result belongs to the model that gave it.
    connect(source_, &QComboBox::currentIndexChanged, this, [this] {
        clearResult();
        error_->clear();
    });
    text_ = new QPlainTextEdit(this);
    text_->setPlaceholderText(tr("Type or paste a text to classify…"));
    pair_ = new QLineEdit(this);
    pair_->setObjectName(QStringLiteral("tryItPair"));
    pair_->setPlaceholderText(tr("Second text, for a model trained on pairs (optional)"));
    pair_->setToolTip(
        tr("A model trained on two texts (a question and its answer, say) reads "
           "this one as the second, as `predict --pair` does; leave it empty for "
           "a model trained on one text"));
    classify_ = new QPushButton(tr("C&lassify"), this);
    classify_->setToolTip(
        tr("What the model predicts for the text, as its task reads it (Ctrl+Return on this "
           "tab)"));
    connect(classify_, &QPushButton::clicked, this,
            [this] { guarded(this, tr("Classify"), [this] { classify(text_->toPlainText()); }); });
    // Nothing to classify in an empty text.
    classify_->setEnabled(false);
    connect(text_, &QPlainTextEdit::textChanged, this, &TryItPage::updateClassifyButton);
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
    notes_ = new QLabel(this);
    notes_->setObjectName(QStringLiteral("tryItNotes"));
    notes_->setWordWrap(true);
    notes_->hide();
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
    auto* pairRow = new QHBoxLayout();
    auto* pairLabel = new QLabel(tr("Second te&xt:"), this);
    pairLabel->setBuddy(pair_);
    pairRow->addWidget(pairLabel);
    pairRow->addWidget(pair_, 1);
    layout->addLayout(pairRow);
    layout->addWidget(classify_);
    layout->addWidget(error_);
    layout->addWidget(notes_);
    layout->addLayout(resultsArea_);
    layout->addStretch();
    refreshRuns();
}

TryItPage::~TryItPage() = default;

void TryItPage::refreshRuns() {
    const auto current = chosenModelKey();
    // The folders the user added stay in the list.
    QList<QPair<QString, QVariant>> folders;
    for (int i = 0; i < source_->count(); ++i) {
        if (!source_->itemData(i, kRunIdRole).isValid()) {
            folders.append({source_->itemText(i), source_->itemData(i)});
        }
    }
    const QSignalBlocker block(source_);  // the same model chosen again keeps its result
    source_->clear();
    error_->clear();
    try {
        RunStore store(database_, RunStore::Access::ReadOnly);
        auto runs = store.runs();
        for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
            const auto checkpoint = modelCheckpointOfRun(store, it->id);
            if (!checkpoint.empty()) {
                source_->addItem(describeRun(*it), QString::fromStdString(checkpoint.string()));
                source_->setItemData(source_->count() - 1,
                                     static_cast<qulonglong>(maxLengthOfRun(*it)), kMaxLengthRole);
                source_->setItemData(source_->count() - 1, static_cast<qlonglong>(it->id),
                                     kRunIdRole);
            }
        }
    } catch (...) {
        error_->setText(describeError(std::current_exception()));
    }
    for (const auto& [text, path] : folders) {
        source_->addItem(text, path);
    }
    for (int i = 0; i < source_->count(); ++i) {
        source_->setCurrentIndex(i);
        if (chosenModelKey() == current) {
            break;
        }
    }
    if (chosenModelKey() != current) {
        // The model chosen is gone (its checkpoints removed): the first one is chosen now.
        source_->setCurrentIndex(source_->count() > 0 ? 0 : -1);
        clearResult();
    }
}

void TryItPage::chooseRun(qint64 runId) {
    const int index = source_->findData(static_cast<qlonglong>(runId), kRunIdRole);
    if (index >= 0) {
        source_->setCurrentIndex(index);
    }
}

void TryItPage::tryExample(qint64 runId, const QString& text, const QString& pair) {
    if (busy_) {
        return;  // one classification at a time; the example stays in its list
    }
    const int index = source_->findData(static_cast<qlonglong>(runId), kRunIdRole);
    text_->setPlainText(text);
    pair_->setText(pair);
    if (index < 0) {
        // Another model would answer for the run's example: say so instead.
        clearResult();
        error_->setText(tr("Run %1 has no model on disk to try (its checkpoints were removed, "
                           "or it has none yet).")
                            .arg(runId));
        return;
    }
    userChose_ = true;  // the user asked for this run's model
    source_->setCurrentIndex(index);
    classify(text);
}

void TryItPage::followRun(qint64 runId) {
    if (!userChose_) {
        chooseRun(runId);
    }
}

QString TryItPage::chosenModelKey() const {
    if (source_->currentIndex() < 0) {
        return {};
    }
    const auto run = source_->currentData(kRunIdRole);
    return run.isValid() ? QStringLiteral("run:%1").arg(run.toLongLong())
                         : QStringLiteral("folder:") + source_->currentData().toString();
}

QString TryItPage::notesText() const {
    return notes_->isVisible() ? notes_->text() : QString();
}

void TryItPage::updateClassifyButton() {
    classify_->setEnabled(!busy_ && !text_->toPlainText().trimmed().isEmpty());
}

QString TryItPage::currentModelText() const {
    return source_->currentText();
}

QString TryItPage::errorText() const {
    return error_->text();
}

void TryItPage::setBusy(bool busy) {
    busy_ = busy;
    updateClassifyButton();
}

void TryItPage::classify(const QString& text) {
    if (busy_) {
        return;
    }
    error_->clear();
    if (text.trimmed().isEmpty()) {
        error_->setText(tr("Type a text to classify."));
        return;
    }
    if (source_->count() == 0) {
        error_->setText(tr("No trained model yet: train a run first, or choose a model folder."));
        return;
    }
    const std::filesystem::path folder = source_->currentData().toString().toStdString();
    const auto maxLength = source_->currentData(kMaxLengthRole).isValid()
                               ? source_->currentData(kMaxLengthRole).toULongLong()
                               : kTryItMaxLength;
    const qint64 runId = source_->currentData(kRunIdRole).isValid()
                             ? source_->currentData(kRunIdRole).toLongLong()
                             : 0;
    // The task gets the loaded model when it is the chosen one, and loads it otherwise.
    auto model = model_ && model_->folder == folder && model_->runId == runId ? model_ : nullptr;
    setBusy(true);
    runAsync<Outcome>(
        this,
        [model, folder, runId, maxLength, key = chosenModelKey(), database = database_,
         input = text.toStdString(), pair = pair_->text().toStdString()]() mutable {
            if (!model) {
                model = std::make_shared<LoadedModel>();
                model->bundle = loadModelFolder(folder);
                model->folder = folder;
                model->runId = runId;
                if (runId > 0) {
                    // As `predict --run` reads a run: its threshold and target scaling.
                    RunStore store(database, RunStore::Access::ReadOnly);
                    const auto run = store.run(runId);
                    if (!run) {
                        throw InputError(store.file(), "has no run " + std::to_string(runId));
                    }
                    model->settings = taskSettingsOfRun(*run, store.evaluations(runId));
                    model->thresholdSource = ThresholdSource::Run;
                } else {
                    const auto& config = model->bundle.config;
                    model->settings = taskSettingsOfConfig(config, folder / "config.json");
                    const auto& original = config.original;
                    model->thresholdSource =
                        original.is_object() && original.contains(kTaskSettingsKey) &&
                                original[kTaskSettingsKey].contains("threshold")
                            ? ThresholdSource::Folder
                            : ThresholdSource::Default;
                }
            }
            Outcome outcome;
            outcome.model = model;
            outcome.modelKey = key;
            outcome.maxLength = static_cast<std::size_t>(maxLength);
            // How much of the text the model reads, and how much of it the vocabulary knows.
            const auto& tokenizer = *model->bundle.tokenizer;
            const auto whole = tokenizer.encode(input);
            outcome.textTokens = whole.size();
            outcome.templateTokens = templateShapeOf(tokenizer).total();
            outcome.unknown.add(whole, tokenizer);
            if (const auto unknownId = tokenizer.unkId()) {
                outcome.unknownToken = tokenizer.tokenString(*unknownId);
            }
            outcome.result.settings = model->settings;
            outcome.result.thresholdSource = model->thresholdSource;
            outcome.result.labels = model->bundle.config.labels;
            outcome.result.prediction =
                predictTexts(
                    model->settings, *model->bundle.model, *model->bundle.tokenizer, {input},
                    maxLength, 1, c10::Device(c10::kCPU),
                    pair.empty() ? std::vector<std::string>{} : std::vector<std::string>{pair})
                    .front();
            return outcome;
        },
        [this](Outcome outcome) {
            model_ = std::move(outcome.model);
            setBusy(false);
            if (outcome.modelKey != chosenModelKey()) {
                return;  // another model was chosen meanwhile: its result is not this one
            }
            showOutcome(outcome);
            Q_EMIT classified(lastResult_);
        },
        [this](const QString& message) {
            setBusy(false);
            error_->setText(message);
            clearResult();
            Q_EMIT failed(message);
        });
}

void TryItPage::clearResult() {
    notes_->clear();
    notes_->hide();
    lastResult_.clear();
    delete results_;
    results_ = nullptr;
}

QString TryItPage::longTextNote(const Outcome& outcome) const {
    // As the run reads long texts (data/LongText.h): what of this one the model read.
    const auto& spec = outcome.result.settings.longText;
    const auto& prediction = outcome.result.prediction;
    const auto room = outcome.maxLength - std::min(outcome.maxLength, outcome.templateTokens);
    const auto textTokens =
        outcome.textTokens - std::min(outcome.textTokens, outcome.templateTokens);
    switch (spec.mode) {
        case LongTextMode::HeadTail: {
            const auto head = std::min(spec.headTokens, room);
            return tr("Longer than %1 tokens: the model read the first %2 and the last %3 of the "
                      "text's %4 tokens (head+tail), and nothing between them.")
                .arg(outcome.maxLength)
                .arg(head)
                .arg(room - head)
                .arg(textTokens);
        }
        case LongTextMode::Windows: {
            auto note =
                tr("Longer than %1 tokens: the model read all %2 of the text's tokens in %3 "
                   "windows of up to %1, overlapping by %4, and pooled their scores (%5).")
                    .arg(outcome.maxLength)
                    .arg(textTokens)
                    .arg(prediction.windows)
                    .arg(spec.stride)
                    .arg(spec.pooling == WindowPooling::Max ? tr("the largest") : tr("the mean"));
            if (const auto& window = prediction.decidingWindow) {
                note += QLatin1Char(' ') + tr("Window %1 (tokens %2 to %3) gave the answer its "
                                              "highest score.")
                                               .arg(window->index + 1)
                                               .arg(window->firstToken + 1)
                                               .arg(window->endToken);
            }
            return note;
        }
        case LongTextMode::Truncate:
            break;
    }
    return tr("Cut at %1 tokens: the model read the first %1 of the text's %2 tokens, and "
              "nothing after them (%3).")
        .arg(outcome.maxLength)
        .arg(outcome.textTokens)
        .arg(taskView(lastTask_).whatCuttingLoses());
}

void TryItPage::showOutcome(const Outcome& outcome) {
    const auto& result = outcome.result;
    lastTask_ = result.settings.kind;
    lastResult_ = taskView(lastTask_).resultLines(result);
    // What the text itself calls for: it was cut, or the vocabulary cannot read it.
    // A text read whole in windows is information; a cut text or an unreadable one a warning.
    QStringList notes;
    bool warns = false;
    if (outcome.textTokens > outcome.maxLength) {
        notes << longTextNote(outcome);
        warns = !result.settings.longText.windows();
    }
    if (outcome.unknown.warns()) {
        warns = true;
        notes << tr("%1% of the text's tokens are unknown to the model's vocabulary (%2): it "
                    "cannot read them. A model for this language reads it.")
                     .arg(100.0 * outcome.unknown.share(), 0, 'f', 1)
                     .arg(QString::fromStdString(outcome.unknownToken));
    }
    notes_->setText(notes.join(QLatin1Char('\n')));
    notes_->setStyleSheet(warns ? QStringLiteral("color: #c0392b") : QString());
    notes_->setVisible(!notes.isEmpty());
    // One widget holds a result's view: the next result replaces it whole. (Taking the layout's
    // items one by one deleted a row's layout twice, and its labels and bars never: the second
    // Classify crashed the studio.)
    delete results_;
    results_ = new TryItResultView(result, this);
    resultsArea_->addWidget(results_);
    results_->show();  // now, not when the layout's queued show comes: classified() follows
}

int TryItPage::resultRows() const {
    return results_ == nullptr ? 0
                               : static_cast<int>(results_->findChildren<QProgressBar*>().size());
}

}  // namespace bert::ui
