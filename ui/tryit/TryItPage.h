#pragma once

#include <QWidget>

#include <filesystem>
#include <memory>

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
/// any model folder). Inference of one text runs on the GUI thread: it takes milliseconds.
class TryItPage : public QWidget {
    Q_OBJECT

public:
    explicit TryItPage(std::filesystem::path database, QWidget* parent = nullptr);
    ~TryItPage() override;

    void refreshRuns();
    /// Classifies the text with the chosen model; returns label -> probability (for tests).
    QList<QPair<QString, double>> classify(const QString& text);
    void chooseRun(qint64 runId);
    QString errorText() const;

private:
    void loadChosenModel();
    void showResult(const QList<QPair<QString, double>>& result);

    std::filesystem::path database_;
    std::unique_ptr<ModelBundle> model_;
    std::filesystem::path loadedFolder_;
    QComboBox* source_;
    QPlainTextEdit* text_;
    QPushButton* classify_;
    QVBoxLayout* results_;
    QLabel* error_;
};

}  // namespace bert::ui
