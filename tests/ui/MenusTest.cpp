// The window's menus and keyboard: File → Open dataset and File → Export a run's model did less
// than the buttons they stand for; Tab walked the dataset preview cell by cell; Resume and
// Refresh shared a mnemonic; the Language menu marked no language.
#include <fstream>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

#include "StudioFixture.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/RunsPage.h"

namespace bert::test {
namespace {

/// The mnemonic of a text ("Re&fresh": f; "批大小(&B)": b); a null character when none.
QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] == QLatin1Char('&')) {
            if (text[i + 1] == QLatin1Char('&')) {
                ++i;  // a literal &
                continue;
            }
            return text[i + 1].toLower();
        }
    }
    return {};
}

/// Texts by mnemonic; the clashes ("f: &File | Re&fresh") as lines.
QStringList clashes(const QStringList& texts) {
    QMap<QChar, QStringList> byKey;
    for (const auto& text : texts) {
        if (const auto key = mnemonicOf(text); !key.isNull()) {
            byKey[key] << text;
        }
    }
    QStringList found;
    for (auto it = byKey.begin(); it != byKey.end(); ++it) {
        if (it.value().size() > 1) {
            found << QStringLiteral("%1: %2").arg(it.key()).arg(
                it.value().join(QStringLiteral(" | ")));
        }
    }
    return found;
}

class Menus : public StudioFixture {
protected:
    QAction* action(const QString& text) {
        auto* found = window_->menuAction(text);
        EXPECT_NE(found, nullptr) << "no menu item " << text.toStdString();
        return found;
    }
};

// File → Open dataset (Ctrl+O) offered *.csv *.tsv *.tab *.jsonl *.ndjson only: a CoNLL file,
// which the tab's button opens, could not be chosen.
TEST_F(Menus, FileOpenDatasetOffersWhatTheButtonOffersAndOpensACoNLLFile) {
    {
        std::ofstream conll(dir_ / "tags.conll");
        for (int i = 0; i < 12; ++i) {
            conll << "the O\ncat B-PER\nsat O\n\n";
        }
    }
    QStringList buttonFilters;
    const auto seen = whenModal([&](QWidget* dialog) {
        auto* files = qobject_cast<QFileDialog*>(dialog);
        ASSERT_NE(files, nullptr);
        buttonFilters = files->nameFilters();
        files->reject();
    });
    clickButton(window_.get(), QStringLiteral("openDataset"));
    ASSERT_TRUE(waitUntil([&] { return *seen; }, 30000)) << "the button opened no dialog";

    window_->tabs()->setCurrentWidget(window_->runsPage());  // the menu works from any tab
    QStringList menuFilters;
    const auto chosen =
        chooseFileInNextDialog(QString::fromStdString((dir_ / "tags.conll").string()),
                               [&](QFileDialog* files) { menuFilters = files->nameFilters(); });
    auto* open = action(QStringLiteral("Open dataset…"));
    ASSERT_NE(open, nullptr);
    EXPECT_EQ(open->shortcut(), QKeySequence(QKeySequence::Open));
    open->trigger();
    ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000)) << "the menu opened no dialog";
    EXPECT_EQ(menuFilters, buttonFilters);
    const auto offered = menuFilters.join(QLatin1Char(' '));
    for (const auto* pattern : {"*.conll", "*.json", "*.bio", "*.csv", "*.jsonl"}) {
        EXPECT_TRUE(offered.contains(QLatin1String(pattern)))
            << pattern << " in " << offered.toStdString();
    }
    EXPECT_EQ(window_->tabs()->currentWidget(), window_->datasetPage());
    EXPECT_TRUE(waitUntil(
        [&] {
            return window_->datasetPage()->currentFile().endsWith(QStringLiteral("tags.conll")) &&
                   window_->datasetPage()->hasData();
        },
        30000))
        << window_->datasetPage()->errorText().toStdString();
    EXPECT_EQ(window_->datasetPage()->task(), TaskKind::TokenClassification);
}

// File → Export a run's model… (Ctrl+E) only showed the Runs tab.
TEST_F(Menus, FileExportOpensTheSelectedRunsExportOrAsksForARun) {
    const auto run = storedRun("menu export");
    clickButton(window_->runsPage(), QStringLiteral("Refresh"));
    window_->tabs()->setCurrentWidget(window_->datasetPage());
    auto* exportModel = action(QStringLiteral("Export a run's model…"));
    ASSERT_NE(exportModel, nullptr);
    EXPECT_EQ(exportModel->shortcut(), QKeySequence(QStringLiteral("Ctrl+E")));

    // No run selected: it says to select one, as the button does.
    exportModel->trigger();
    EXPECT_EQ(window_->tabs()->currentWidget(), window_->runsPage());
    EXPECT_TRUE(waitUntil(
        [&] { return visibleMessages(window_.get()).contains(QStringLiteral("Select one run")); },
        10000))
        << visibleMessages(window_.get()).toStdString();
    for (auto* box : window_->findChildren<QMessageBox*>()) {
        box->close();
    }

    // A run selected: its export dialog, with the folder named after it.
    clickRuns(window_->runsPage(), {run});
    window_->tabs()->setCurrentWidget(window_->datasetPage());
    QString dialogName;
    QString proposed;
    const auto seen = whenModal([&](QWidget* dialog) {
        dialogName = dialog->objectName();
        if (auto* files = qobject_cast<QFileDialog*>(dialog)) {
            if (auto* name = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) {
                proposed = name->text();
            }
            files->reject();
        }
    });
    exportModel->trigger();
    ASSERT_TRUE(waitUntil([&] { return *seen; }, 30000)) << "no export dialog";
    EXPECT_EQ(dialogName, QStringLiteral("exportDialog"));
    EXPECT_TRUE(proposed.startsWith(QStringLiteral("run-%1-").arg(run))) << proposed.toStdString();
}

// Tab walked the 200-row preview cell by cell (about 800 presses to leave it).
TEST_F(Menus, TheDatasetPreviewIsOneTabStop) {
    openReviewsThroughTheDialog();
    auto* preview = window_->findChild<QTableWidget*>(QStringLiteral("datasetPreview"));
    ASSERT_NE(preview, nullptr);
    ASSERT_TRUE(waitUntil([&] { return preview->rowCount() > 10; }, 30000));
    bringToFront(preview);
    QTest::mouseClick(preview->viewport(), Qt::LeftButton, {},
                      preview->visualRect(preview->model()->index(0, 0)).center());
    ASSERT_TRUE(waitUntil([&] { return QApplication::focusWidget() == preview; }, 5000));
    QTest::keyClick(preview, Qt::Key_Tab);
    EXPECT_NE(QApplication::focusWidget(), preview)
        << "Tab moved to cell " << preview->currentRow() << "," << preview->currentColumn();
    // The arrows still move inside it.
    preview->setFocus();
    const int row = preview->currentRow();
    QTest::keyClick(preview, Qt::Key_Down);
    EXPECT_EQ(preview->currentRow(), row + 1);
}

// Training → Resume and Refresh runs were both &R; no two commands one Alt or menu key reaches
// may share their letter, on any tab.
TEST_F(Menus, NoTwoCommandsShareAMnemonic) {
    openReviewsThroughTheDialog();
    // Each menu's items.
    for (auto* top : window_->menuBar()->actions()) {
        std::function<void(QMenu*)> check = [&](QMenu* menu) {
            QStringList texts;
            for (auto* item : menu->actions()) {
                if (!item->isSeparator() && item->isVisible()) {
                    texts << item->text();
                }
                if (item->menu() != nullptr) {
                    check(item->menu());
                }
            }
            const auto found = clashes(texts);
            EXPECT_TRUE(found.isEmpty()) << "in " << menu->title().toStdString() << ": "
                                         << found.join(QStringLiteral("; ")).toStdString();
        };
        if (top->menu() != nullptr) {
            check(top->menu());
        }
    }
    // Alt+letter in the window: the menu titles, the tabs, and the buttons, labels and group
    // boxes shown on each tab.
    auto* tabs = window_->tabs();
    for (int t = 0; t < tabs->count(); ++t) {
        bringToFront(tabs->widget(t));
        QStringList texts;
        for (auto* top : window_->menuBar()->actions()) {
            texts << top->text();
        }
        for (int i = 0; i < tabs->count(); ++i) {
            texts << tabs->tabText(i);
        }
        for (auto* button : window_->findChildren<QAbstractButton*>()) {
            if (button->isVisible() && button->window() == window_.get() &&
                qobject_cast<QTabBar*>(button->parentWidget()) == nullptr) {
                texts << button->text();
            }
        }
        for (auto* label : window_->findChildren<QLabel*>()) {
            if (label->isVisible() && label->buddy() != nullptr &&
                label->window() == window_.get()) {
                texts << label->text();
            }
        }
        for (auto* box : window_->findChildren<QGroupBox*>()) {
            if (box->isVisible() && box->window() == window_.get()) {
                texts << box->title();
            }
        }
        const auto found = clashes(texts);
        EXPECT_TRUE(found.isEmpty()) << "on tab " << tabs->tabText(t).toStdString() << ": "
                                     << found.join(QStringLiteral("; ")).toStdString();
    }
}

// View → Language marked no language: the one chosen is checked, one at a time.
TEST_F(Menus, TheLanguageMenuMarksTheChosenLanguage) {
    // (The old menu asked in a modal box; answered, so that a failure cannot hang the test.)
    whenModal([](QWidget* dialog) { QTest::keyClick(dialog, Qt::Key_Escape); }, 5000);
    auto* system = action(QStringLiteral("System default"));
    auto* english = action(QStringLiteral("English"));
    auto* chinese = action(QStringLiteral("简体中文"));
    ASSERT_TRUE(system != nullptr && english != nullptr && chinese != nullptr);
    EXPECT_TRUE(system->isCheckable());
    EXPECT_TRUE(system->isChecked()) << "nothing chosen: the system's language";
    EXPECT_FALSE(english->isChecked());
    english->trigger();
    EXPECT_TRUE(english->isChecked());
    EXPECT_FALSE(system->isChecked());
    EXPECT_FALSE(chinese->isChecked());
    EXPECT_EQ(QSettings().value(QStringLiteral("view/language")).toString(), QStringLiteral("en"));
    // The next window marks the language chosen.
    window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
    EXPECT_TRUE(window_->menuAction(QStringLiteral("English"))->isChecked());
    EXPECT_FALSE(window_->menuAction(QStringLiteral("System default"))->isChecked());
}

// The export was proposed in a hidden folder (~/.local/...) or one that does not exist (the
// dialog then went wherever it liked).
TEST_F(Menus, ExportProposesAFolderThatExistsAndIsNotHidden) {
    const auto run = storedRun("visible export");
    clickButton(window_->runsPage(), QStringLiteral("Refresh"));
    const auto hidden = dir_ / ".local" / "share" / "bert-studio";
    std::filesystem::create_directories(hidden);
    QSettings().setValue(QStringLiteral("export/lastFolder"),
                         QString::fromStdString(hidden.string()));
    clickRuns(window_->runsPage(), {run});
    QString folder;
    const auto seen = whenModal([&](QWidget* dialog) {
        auto* files = qobject_cast<QFileDialog*>(dialog);
        ASSERT_NE(files, nullptr);
        folder = files->directory().absolutePath();
        files->reject();
    });
    clickButton(window_->runsPage(), QStringLiteral("Export model…"));
    ASSERT_TRUE(waitUntil([&] { return *seen; }, 30000)) << "no export dialog";
    EXPECT_FALSE(folder.contains(QStringLiteral("/."))) << folder.toStdString();
    EXPECT_TRUE(QFileInfo(folder).isDir()) << folder.toStdString();
    const auto documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    EXPECT_EQ(QDir(folder), QDir(QFileInfo(documents).isDir() ? documents : QDir::homePath()))
        << folder.toStdString();
}

}  // namespace
}  // namespace bert::test
