// Issue 27, point 12: in zh_CN the studio still showed English: Qt's own dialogs and buttons,
// the engine's log lines and error messages, automatic run names, "null/true/false" in
// Compare, and raw timestamps. Each is checked on screen, as a person would meet it.
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QFileDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "StudioFixture.h"
#include "common/EngineText.h"
#include "common/Language.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/CompareDialog.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

/// Words of English in a text: three or more Latin letters, other than names every language
/// keeps (units, formats, products), in a text with its paths and file names taken out.
QStringList englishWords(QString text, const QStringList& names = {}) {
    static const QStringList kept = {
        QStringLiteral("MiB"), QStringLiteral("GiB"), QStringLiteral("BERT"),
        QStringLiteral("Studio"), QStringLiteral("CSV"), QStringLiteral("PNG"),
        QStringLiteral("CPU"), QStringLiteral("cpu"), QStringLiteral("bf16"),
        QStringLiteral("fp16"), QStringLiteral("fp32"), QStringLiteral("ONNX"),
        QStringLiteral("UTF"), QStringLiteral("JSON"), QStringLiteral("ETA"),
        QStringLiteral("AdamW"), QStringLiteral("UNK"), QStringLiteral("transformers"),
        QStringLiteral("safetensors"), QStringLiteral("onnx"), QStringLiteral("huggingface"),
        QStringLiteral("cache"), QStringLiteral("AVX"), QStringLiteral("AMX"),
        QStringLiteral("Lines"), QStringLiteral("csv"), QStringLiteral("tsv"),
        QStringLiteral("jsonl"), QStringLiteral("Windows"), QStringLiteral("NUL"),
        // strerror's words, in the system's locale
        QStringLiteral("Permission"), QStringLiteral("denied")};
    for (const auto& name : names) {
        text.remove(name);
    }
    text.remove(QRegularExpression(QStringLiteral("\\S*/\\S*")));               // paths
    text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));                 // markup
    text.remove(QRegularExpression(QStringLiteral("\"[^\"]*\"")));              // quoted values
    text.remove(QRegularExpression(QStringLiteral("\u201C[^\u201D]*\u201D")));  // “quoted” values
    text.remove(QRegularExpression(QStringLiteral("--[a-z][a-z-]*")));  // command-line flags
    QStringList found;
    auto matches = QRegularExpression(QStringLiteral("[A-Za-z]{3,}")).globalMatch(text);
    while (matches.hasNext()) {
        const auto word = matches.next().captured();
        if (!kept.contains(word)) {
            found << word;
        }
    }
    return found;
}

class Chinese : public StudioFixture {
protected:
    void SetUp() override {
        ASSERT_TRUE(ui::installLanguage(QStringLiteral("zh_CN")));
        StudioFixture::SetUp();
    }
    void TearDown() override {
        StudioFixture::TearDown();
        ui::installLanguage(QStringLiteral("en"));
    }
    /// Every visible text of a dialog's buttons and labels with English words in it.
    QStringList englishIn(QWidget* root) {
        QStringList found;
        for (auto* button : root->findChildren<QAbstractButton*>()) {
            if (button->isVisibleTo(root) && !englishWords(button->text()).isEmpty()) {
                found << button->text();
            }
        }
        for (auto* label : root->findChildren<QLabel*>()) {
            if (label->isVisibleTo(root) && !englishWords(label->text()).isEmpty()) {
                found << label->text();
            }
        }
        return found;
    }
};

TEST_F(Chinese, QtsOwnDialogsSpeakChinese) {
    EXPECT_TRUE(ui::qtTranslationLoaded())
        << "Qt's qtbase_zh_CN.qm was not found (Debian: qt6-translations-l10n)";
    const auto first = storedRun("第一");
    window_->runsPage()->refresh();
    // The delete question's Yes and No.
    clickRuns(window_->runsPage(), {first});
    QStringList english;
    QString yes;
    const auto answered = whenModal([&](QWidget* dialog) {
        auto* box = qobject_cast<QMessageBox*>(dialog);
        ASSERT_NE(box, nullptr);
        yes = box->button(QMessageBox::Yes)->text();
        english = englishIn(box);
        QTest::keyClick(box, Qt::Key_Escape);
    });
    clickButton(window_->runsPage(), QStringLiteral("删除(D)…"));
    ASSERT_TRUE(waitUntil([&] { return *answered; }, 30000));
    EXPECT_TRUE(english.isEmpty()) << english.join(QLatin1Char('|')).toStdString();
    EXPECT_TRUE(yes.contains(QStringLiteral("是"))) << yes.toStdString();
    // The export's file dialog.
    clickRuns(window_->runsPage(), {first});
    const auto seen = whenModal([&](QWidget* dialog) {
        english = englishIn(dialog);
        QTest::keyClick(dialog, Qt::Key_Escape);
    });
    clickButton(window_->runsPage(), QStringLiteral("导出模型(X)…"));
    ASSERT_TRUE(waitUntil([&] { return *seen; }, 30000));
    EXPECT_TRUE(english.isEmpty()) << english.join(QLatin1Char('|')).toStdString();
}

TEST_F(Chinese, LogLinesErrorsRunNamesCompareValuesAndDatesAreChinese) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(1));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    // The log: the trial step, checkpoints, evaluations, the end.
    const auto folderName = QString::fromStdString(dir_.path().filename().string());
    for (const auto& line : window_->trainingPage()->log()) {
        EXPECT_TRUE(englishWords(line, {folderName}).isEmpty()) << line.toStdString();
    }
    // The automatic name, and the date as the locale writes it.
    RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
    const auto name = QString::fromStdString(store.run(run)->name);
    EXPECT_TRUE(englishWords(name, {folderName, QStringLiteral("reviews.csv")}).isEmpty())
        << name.toStdString();
    auto* table = window_->runsPage()->table();
    const auto date = table->model()->index(0, 2).data().toString();
    EXPECT_FALSE(date.contains(QLatin1Char('T')) || date.endsWith(QLatin1Char('Z')))
        << "a raw timestamp: " << date.toStdString();
    EXPECT_EQ(date,
              QLocale(QLocale::Chinese, QLocale::China)
                  .toString(QDateTime::fromString(QString::fromStdString(store.run(run)->createdAt),
                                                  Qt::ISODate)
                                .toLocalTime(),
                            QLocale::ShortFormat));

    // Compare: switches and an unset cap in words.
    auto config = quickConfig(1);
    config.gradientCheckpointing = true;
    config.memoryCapBytes = 600LL << 20;
    setConfig(config);
    const auto second = trainThroughTheStartButton();
    ASSERT_GT(second, 0);
    clickRuns(window_->runsPage(), {run, second});
    clickButton(window_->runsPage(), QStringLiteral("比较(M)"));
    ui::CompareDialog* compare = nullptr;
    for (auto* dialog : window_->runsPage()->findChildren<ui::CompareDialog*>()) {
        compare = dialog;
    }
    ASSERT_NE(compare, nullptr);
    for (int row = 0; row < compare->differenceRows(); ++row) {
        for (int column = 1; column <= 2; ++column) {
            const auto cell = compare->cell(row, column);
            EXPECT_FALSE(cell == QStringLiteral("true") || cell == QStringLiteral("false") ||
                         cell == QStringLiteral("null"))
                << compare->cell(row, 0).toStdString() << ": " << cell.toStdString();
        }
    }

    // An error message of the engine: a binary file.
    test::writeFile(dir_ / "binary.csv", std::string("a\0b\0c", 5));
    openDatasetThroughTheDialog(dir_ / "binary.csv");
    const auto error = window_->datasetPage()->errorText();
    EXPECT_TRUE(error.contains(QStringLiteral("binary.csv"))) << error.toStdString();
    EXPECT_TRUE(englishWords(error, {QStringLiteral("binary.csv")}).isEmpty())
        << error.toStdString();
}

// Every engine text the studio translates has a translation.
TEST(EngineTextTest, EveryPatternIsTranslatedAndKeepsItsFacts) {
    ASSERT_TRUE(ui::installLanguage(QStringLiteral("zh_CN")));
    for (const auto& english : ui::EngineText::examples()) {
        const auto chinese = ui::EngineText::translate(english);
        EXPECT_NE(chinese, english) << "untranslated: " << english.toStdString();
        EXPECT_TRUE(englishWords(chinese).isEmpty())
            << english.toStdString() << " -> " << chinese.toStdString();
        // The numbers stay.
        auto numbers = QRegularExpression(QStringLiteral("\\d+")).globalMatch(english);
        while (numbers.hasNext()) {
            const auto number = numbers.next().captured();
            EXPECT_TRUE(chinese.contains(number))
                << chinese.toStdString() << " lost " << number.toStdString();
        }
    }
    // "file: problem": the file stays as it is.
    EXPECT_TRUE(ui::EngineText::translate(QStringLiteral("/data/x.csv: is empty (no header line)"))
                    .startsWith(QStringLiteral("/data/x.csv: ")));
    ui::installLanguage(QStringLiteral("en"));
    EXPECT_EQ(ui::EngineText::translate(QStringLiteral("stopped by the user at step 3")),
              QStringLiteral("stopped by the user at step 3"));
}

}  // namespace
}  // namespace bert::test
