// A 50 MB CSV froze the window for 8 s with no progress, and every later start showed a black
// window while the file was reopened. A large file is read off the GUI thread, with what is
// being read, a busy bar and Cancel; at start the window comes first.
#include <fstream>

#include <QAbstractButton>
#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include "StudioFixture.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"

namespace bert::test {
namespace {

constexpr int kRows = 30000;

class LargeDataset : public StudioFixture {
protected:
    /// kRows e-mails of about 200 characters, in three classes.
    std::filesystem::path writeLargeCsv() {
        const auto file = dir_ / "large.csv";
        std::ofstream csv(file);
        csv << "text,label\n";
        for (int i = 0; i < kRows; ++i) {
            csv << "\"message " << i
                << ": the cat sat on the mat, a good film, free money now, click here, the "
                   "meeting report was very bad today and i hated it, offer ends today\","
                << (i % 3 == 0   ? "spam"
                    : i % 3 == 1 ? "ham"
                                 : "work")
                << "\n";
        }
        return file;
    }
    ui::DatasetPage* page() const { return window_->datasetPage(); }
    QAbstractButton* cancelButton() const {
        return findButton(page(), QStringLiteral("cancelLoading"));
    }
};

TEST_F(LargeDataset, OpenedThroughTheMenuItIsReadWhileTheWindowGoesOn) {
    const auto file = writeLargeCsv();
    QSignalSpy finished(page(), &ui::DatasetPage::loadFinished);
    const auto chosen = chooseFileInNextDialog(QString::fromStdString(file.string()));
    auto* open = window_->menuAction(QStringLiteral("Open dataset…"));
    ASSERT_NE(open, nullptr);
    open->trigger();
    ASSERT_TRUE(*chosen) << "no file dialog";
    // The dialog closed and the action returned: the file is being read, not read yet.
    EXPECT_TRUE(page()->isLoading());
    EXPECT_FALSE(page()->hasData());
    auto* cancel = cancelButton();
    ASSERT_NE(cancel, nullptr);
    EXPECT_TRUE(cancel->isVisible());
    EXPECT_TRUE(cancel->isEnabled());
    // The event loop goes on meanwhile.
    bool posted = false;
    QTimer::singleShot(0, window_.get(), [&] { posted = true; });
    EXPECT_TRUE(waitUntil([&] { return posted; }, 10000));
    ASSERT_TRUE(waitUntil([&] { return finished.count() == 1; }, 120000)) << "not read";
    EXPECT_TRUE(finished.front().front().toBool()) << page()->errorText().toStdString();
    EXPECT_FALSE(page()->isLoading());
    EXPECT_FALSE(cancel->isVisible());
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->examples()->examples.size(), static_cast<std::size_t>(kRows));
    EXPECT_EQ(page()->dataSpec().columns.label, "label");
    EXPECT_TRUE(page()->currentFile().endsWith(QStringLiteral("large.csv")));
}

TEST_F(LargeDataset, CancelKeepsTheFileOpenBefore) {
    openReviewsThroughTheDialog();
    ASSERT_TRUE(page()->hasData());
    const auto file = writeLargeCsv();
    const auto chosen = chooseFileInNextDialog(QString::fromStdString(file.string()));
    clickButton(window_.get(), QStringLiteral("openDataset"));
    ASSERT_TRUE(*chosen) << "no file dialog";
    ASSERT_TRUE(page()->isLoading());
    click(cancelButton());
    EXPECT_TRUE(waitUntil(
        [&] {
            return !page()->isLoading() && page()->hasData() &&
                   page()->currentFile().endsWith(QStringLiteral("reviews.csv"));
        },
        120000))
        << page()->currentFile().toStdString() << ": " << page()->errorText().toStdString();
    EXPECT_EQ(page()->examples()->examples.size(), 96U);
}

TEST_F(LargeDataset, AtStartTheWindowIsShownBeforeTheFileIsRead) {
    const auto file = writeLargeCsv();
    window_.reset();
    window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
    window_->openDatasetAtStart(QString::fromStdString(file.string()));
    EXPECT_TRUE(page()->currentFile().isEmpty()) << "read before the window was shown";
    window_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window_.get()));
    EXPECT_TRUE(waitUntil([&] { return page()->hasData() && !page()->isLoading(); }, 120000))
        << page()->errorText().toStdString();
    EXPECT_EQ(page()->examples()->examples.size(), static_cast<std::size_t>(kRows));
}

}  // namespace
}  // namespace bert::test
