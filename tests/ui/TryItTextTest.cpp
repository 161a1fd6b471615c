// Try it and the text typed: an empty text was "classified", a text longer than the model reads
// was cut without a word, a text the vocabulary cannot read was not warned of, a result stayed
// under another model, and a finished run replaced the model the user had chosen.
#include <cstdlib>
#include <filesystem>

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <nlohmann/json.hpp>

#include "StudioFixture.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "tryit/TryItPage.h"

namespace bert::test {
namespace {

class TryItText : public StudioFixture {
protected:
    ui::TryItPage* tryIt() const { return window_->tryItPage(); }
    QPlainTextEdit* textBox() const { return tryIt()->findChild<QPlainTextEdit*>(); }
    QAbstractButton* classifyButton() const {
        return findButton(tryIt(), QStringLiteral("Classify"));
    }

    /// Puts text into Try it's box as a person pastes it: a click into it, Ctrl+A, Ctrl+V.
    void pasteText(const QString& text) {
        auto* box = textBox();
        ASSERT_NE(box, nullptr);
        window_->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
        bringToFront(box);
        QTest::mouseClick(box->viewport(), Qt::LeftButton);
        QGuiApplication::clipboard()->setText(text);
        QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
        if (text.isEmpty()) {
            QTest::keyClick(box, Qt::Key_Delete);
        } else {
            QTest::keyClick(box, Qt::Key_V, Qt::ControlModifier);
        }
        ASSERT_EQ(box->toPlainText(), text);
    }
    /// 700 words the tiny vocabulary reads as 700 tokens ("good film good film ...").
    static QString longText() {
        QStringList words;
        for (int i = 0; i < 700; ++i) {
            words << (i % 2 == 0 ? QStringLiteral("good") : QStringLiteral("film"));
        }
        return words.join(QLatin1Char(' '));
    }
    /// The label under the text that says what the model read of it.
    const QLabel* notesLabel() const {
        return tryIt()->findChild<QLabel*>(QStringLiteral("tryItNotes"));
    }
    /// Chooses the tiny model's folder (or folder) with "Model folder…" and its dialog.
    void chooseModelFolder(const std::filesystem::path& folder = {}) {
        const auto path =
            QString::fromStdString((folder.empty() ? dir_ / "model" : folder).string());
        const auto chosen = chooseFileInNextDialog(path);
        clickButton(tryIt(), QStringLiteral("Model folder…"));
        ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000));
        ASSERT_TRUE(tryIt()->currentModelText().contains(path))
            << tryIt()->currentModelText().toStdString();
    }
    /// Pastes text, clicks Classify and waits for the result.
    void classifyText(const QString& text) {
        QSignalSpy classified(tryIt(), &ui::TryItPage::classified);
        pasteText(text);
        clickButton(tryIt(), QStringLiteral("Classify"));
        ASSERT_TRUE(waitUntil([&] { return classified.count() == 1; }, 60000))
            << "the classification did not end: " << tryIt()->errorText().toStdString();
    }
};

TEST_F(TryItText, AnEmptyTextCannotBeClassified) {
    chooseModelFolder();
    auto* classify = classifyButton();
    ASSERT_NE(classify, nullptr);
    EXPECT_FALSE(classify->isEnabled()) << "Classify with no text";
    pasteText(QStringLiteral("   \n "));
    EXPECT_FALSE(classify->isEnabled()) << "Classify with blanks only";
    // Ctrl+Return with nothing to classify does nothing.
    QSignalSpy classified(tryIt(), &ui::TryItPage::classified);
    QTest::keyClick(textBox(), Qt::Key_Return, Qt::ControlModifier);
    QApplication::processEvents();
    EXPECT_FALSE(tryIt()->busy());
    EXPECT_EQ(classified.count(), 0);
    pasteText(QStringLiteral("a good film"));
    EXPECT_TRUE(classify->isEnabled());
    pasteText(QString());
    EXPECT_FALSE(classify->isEnabled());
}

// A 70,000-character text showed entities only in its first 128 tokens, and nothing said so.
TEST_F(TryItText, ATextLongerThanTheModelReadsSaysWhereItWasCut) {
    chooseModelFolder();
    classifyText(QStringLiteral("a good film"));
    EXPECT_TRUE(tryIt()->notesText().isEmpty()) << tryIt()->notesText().toStdString();
    classifyText(longText());
    const auto notes = tryIt()->notesText();
    EXPECT_TRUE(notes.contains(QStringLiteral("Cut at 512 tokens"))) << notes.toStdString();
    const auto* label = notesLabel();
    ASSERT_NE(label, nullptr);
    EXPECT_TRUE(label->styleSheet().contains(QStringLiteral("#c0392b")));  // a warning
    EXPECT_TRUE(notes.contains(QStringLiteral("702 tokens"))) << notes.toStdString();
}

// A model that reads long texts in windows read all of this one: Try it said "Cut at 512
// tokens" all the same, and did not say which window drove the answer.
TEST_F(TryItText, AWindowsModelSaysItReadTheWholeTextAndWhichWindowDroveTheAnswer) {
    // The tiny model's folder, its config.json as a windows run's export writes it.
    const auto folder = dir_ / "windows-model";
    std::filesystem::copy(dir_ / "model", folder, std::filesystem::copy_options::recursive);
    auto config = nlohmann::json::parse(readFile(folder / "config.json"));
    config["bert_studio_task"] = {
        {"task", "single-label"},
        {"long_text", {{"strategy", "windows"}, {"stride", 16}, {"pooling", "mean"}}}};
    writeFile(folder / "config.json", config.dump(2));
    chooseModelFolder(folder);
    classifyText(QStringLiteral("a good film"));
    EXPECT_TRUE(tryIt()->notesText().isEmpty()) << tryIt()->notesText().toStdString();
    classifyText(longText());
    const auto notes = tryIt()->notesText();
    // 700 text tokens in windows of 510 that overlap by 16: 0-510 and 494-700.
    EXPECT_FALSE(notes.contains(QStringLiteral("Cut at"))) << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("read all 700 of the text's tokens in 2 windows")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("overlapping by 16"))) << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("(tokens 1 to 510) gave the answer")) ||
                notes.contains(QStringLiteral("(tokens 495 to 700) gave the answer")))
        << notes.toStdString();
    // Reading the whole text is no warning: the note is not in the warnings' red.
    const auto* label = notesLabel();
    ASSERT_NE(label, nullptr);
    EXPECT_FALSE(label->styleSheet().contains(QStringLiteral("#c0392b")));
    // BERT_STUDIO_SCREENSHOTS=<folder>: the page as the README shows it.
    if (const char* shots = std::getenv("BERT_STUDIO_SCREENSHOTS"); shots != nullptr && *shots) {
        window_->resize(1000, 760);
        QTest::qWait(200);
        EXPECT_TRUE(window_->grab().save(QString::fromLocal8Bit(shots) +
                                         QStringLiteral("/tryit-windows.png")));
    }
}

// The Dataset tab warns when the model cannot read the data; Try it said nothing of the text.
TEST_F(TryItText, ATextTheVocabularyCannotReadIsWarnedOf) {
    chooseModelFolder();
    classifyText(QStringLiteral("这部电影很好看 good"));
    const auto notes = tryIt()->notesText();
    EXPECT_TRUE(notes.contains(QStringLiteral("unknown to the model's vocabulary")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("[UNK]"))) << notes.toStdString();
    classifyText(QStringLiteral("a good film"));
    EXPECT_TRUE(tryIt()->notesText().isEmpty()) << tryIt()->notesText().toStdString();
}

// A result stayed on the page under another model; a run that finished replaced the model the
// user had chosen.
TEST_F(TryItText, AnotherModelClearsTheResultAndAFinishedRunKeepsTheUsersChoice) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    const auto first = trainThroughTheStartButton();
    ASSERT_GT(first, 0);
    // Nothing chosen yet: Try it follows the run.
    ASSERT_TRUE(tryIt()->currentModelText().startsWith(QStringLiteral("run %1:").arg(first)))
        << tryIt()->currentModelText().toStdString();
    classifyText(QStringLiteral("a good film"));
    ASSERT_GT(tryIt()->resultRows(), 0);
    chooseModelFolder();
    EXPECT_EQ(tryIt()->resultRows(), 0) << "the run's result under the folder's name";
    EXPECT_TRUE(tryIt()->lastResult().isEmpty());

    const auto second = trainThroughTheStartButton();
    ASSERT_GT(second, 0);
    EXPECT_TRUE(
        tryIt()->currentModelText().contains(QString::fromStdString((dir_ / "model").string())))
        << "the user's model was replaced by " << tryIt()->currentModelText().toStdString();
    // The new run is in the list all the same.
    auto* combo = tryIt()->findChild<QComboBox*>();
    ASSERT_NE(combo, nullptr);
    bool listed = false;
    for (int i = 0; i < combo->count(); ++i) {
        listed = listed || combo->itemText(i).startsWith(QStringLiteral("run %1:").arg(second));
    }
    EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace bert::test
