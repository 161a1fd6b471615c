#pragma once

#include <filesystem>
#include <memory>

#include <QList>
#include <QPair>
#include <QWidget>

#include "task/TaskKind.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace bert::ui {

/// "Try it" tab: type or paste a text and see what a run's model (or any model folder) predicts
/// for it, as its task reads it (issue 29, point 6; the views in TryItResultView.h): the label
/// probabilities (single-label), the labels at or above the run's threshold as chips
/// (multi-label), the number in the target's units (regression), or the text with its entities
/// highlighted by type (token classification). Classify, or Ctrl+Return anywhere on the tab. A
/// run's model reads the text as the run did: cut at the run's max length (a model folder's at
/// 512 tokens), with the run's threshold and target scaling (a folder's from its config.json).
/// The prediction is runs/TaskPrediction.h's, the one `bert-studio-cli predict` prints.
///
/// Loading the model and classifying run off the GUI thread (runAsync): the tensors they make
/// are not counted against a running trainer's memory cap, and the window never waits on
/// LibTorch. One classification at a time: classify() while one is running is ignored. The
/// loaded model is shared with the running task and only replaced on the GUI thread when no task
/// runs. Results arrive through classified(); errors are shown on the page.
///
/// A result belongs to its model: choosing another model clears it (and a result that arrives
/// for a model no longer chosen is not shown). Classify is disabled while the text is empty.
/// Beside the result the page says when the text was longer than the model reads ("Cut at N
/// tokens"), and when many of its tokens are unknown to the model's vocabulary (above
/// kUnknownTokenWarningShare, as the Dataset tab warns). A finished run becomes the chosen model
/// (followRun) unless the user chose one in the list or with "Model folder…".
class TryItPage : public QWidget {
    Q_OBJECT

public:
    /// Label and score, highest first: each label's probability (single- and multi-label), or
    /// the target column's name and the predicted value (regression); empty for token
    /// classification, whose entities the page shows.
    using Probabilities = QList<QPair<QString, double>>;

    explicit TryItPage(std::filesystem::path database, QWidget* parent = nullptr);
    ~TryItPage() override;

    void refreshRuns();
    /// Starts classifying text with the chosen model; classified() follows (or an error shown).
    void classify(const QString& text);
    bool busy() const { return busy_; }
    /// The last result shown.
    Probabilities lastResult() const { return lastResult_; }
    /// The task of the last result shown.
    TaskKind lastTask() const { return lastTask_; }
    /// The probability bars shown now (a row per label; dimmed rows for multi-label's labels
    /// below the threshold).
    int resultRows() const;
    void chooseRun(qint64 runId);
    /// Puts text (and a pair's second text) on the page and classifies it with run runId's
    /// model, as the user chose: an example from a run's Examples.
    void tryExample(qint64 runId, const QString& text, const QString& pair);
    /// A run finished: it becomes the chosen model, unless the user chose one.
    void followRun(qint64 runId);
    /// What the page says about the text of the last result (cut at the max length, unknown
    /// tokens), one note per line; empty when nothing.
    QString notesText() const;
    /// The model chosen now, as the list shows it.
    QString currentModelText() const;
    QString errorText() const;

Q_SIGNALS:
    void classified(const bert::ui::TryItPage::Probabilities& result);
    /// A classification ended with an error (shown on the page).
    void failed(const QString& message);

private:
    struct LoadedModel;  // the model, with its task settings
    struct Outcome;

    void showOutcome(const Outcome& outcome);
    /// What the model read of a text longer than its max length, as the run reads long texts.
    QString longTextNote(const Outcome& outcome) const;
    void clearResult();
    void setBusy(bool busy);
    /// Classify is enabled when no classification runs and there is a text.
    void updateClassifyButton();
    /// The chosen model, as "run:<id>" or "folder:<path>"; empty when none.
    QString chosenModelKey() const;

    std::filesystem::path database_;
    std::shared_ptr<LoadedModel> model_;
    std::filesystem::path loadedFolder_;
    Probabilities lastResult_;
    TaskKind lastTask_ = allTaskKinds().front();
    bool busy_ = false;
    bool userChose_ = false;  ///< the user chose a model: a finished run does not replace it
    QComboBox* source_;
    QPlainTextEdit* text_;
    /// The second text, for a model trained on pairs (question and answer...): optional.
    QLineEdit* pair_;
    QPushButton* classify_;
    QVBoxLayout* resultsArea_;
    QWidget* results_ = nullptr;  ///< the view of the result shown; replaced by the next
    QLabel* error_;
    QLabel* notes_;  ///< cut at the max length, unknown tokens
};

}  // namespace bert::ui
