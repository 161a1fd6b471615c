#pragma once

#include <filesystem>
#include <memory>

#include <QList>
#include <QPair>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace bert {
struct ModelBundle;
}

namespace bert::ui {

/// "Try it" tab: type or paste a text and see the label probabilities from a run's model (or
/// any model folder). Classify, or Ctrl+Return anywhere on the tab. A run's model reads the
/// text as the run did: cut at the run's max length (a model folder's at 512 tokens).
///
/// Loading the model and classifying run off the GUI thread (runAsync): the tensors they make
/// are not counted against a running trainer's memory cap, and the window never waits on
/// LibTorch. One classification at a time: classify() while one is running is ignored. The
/// loaded model is shared with the running task and only replaced on the GUI thread when no task
/// runs. Results arrive through classified(); errors are shown on the page.
class TryItPage : public QWidget {
    Q_OBJECT

public:
    using Probabilities = QList<QPair<QString, double>>;  ///< label, probability; most likely first

    explicit TryItPage(std::filesystem::path database, QWidget* parent = nullptr);
    ~TryItPage() override;

    void refreshRuns();
    /// Starts classifying text with the chosen model; classified() follows (or an error shown).
    void classify(const QString& text);
    bool busy() const { return busy_; }
    /// The last result shown.
    Probabilities lastResult() const { return lastResult_; }
    /// The rows (label and bar) shown now.
    int resultRows() const;
    void chooseRun(qint64 runId);
    /// The model chosen now, as the list shows it.
    QString currentModelText() const;
    QString errorText() const;

Q_SIGNALS:
    void classified(const bert::ui::TryItPage::Probabilities& result);
    /// A classification ended with an error (shown on the page).
    void failed(const QString& message);

private:
    void showResult(const Probabilities& result);
    void setBusy(bool busy);

    std::filesystem::path database_;
    std::shared_ptr<ModelBundle> model_;
    std::filesystem::path loadedFolder_;
    Probabilities lastResult_;
    bool busy_ = false;
    QComboBox* source_;
    QPlainTextEdit* text_;
    QPushButton* classify_;
    QVBoxLayout* resultsArea_;
    QWidget* results_ = nullptr;  ///< the rows of the result shown; replaced by the next
    QLabel* error_;
};

}  // namespace bert::ui
