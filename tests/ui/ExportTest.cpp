// Issue 27, point 9: the exported tokenizer said 512 where the run trained at 128, so the
// exported README's snippet (tokenizer(..., truncation=True)) cut texts elsewhere than the run,
// and one e-mail in five changed its class. Exported through Runs → Export model…, the folder's
// tokenizer truncates in transformers exactly as the run did.
#include <QFileDialog>
#include <QSignalSpy>
#include <nlohmann/json.hpp>

#include "StudioFixture.h"
#include "main/MainWindow.h"
#include "runs/RunsPage.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert::test {
namespace {

class Export : public StudioFixture {};

TEST_F(Export, TheExportedTokenizerTruncatesWhereTheRunDid) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    auto config = quickConfig(1);
    config.maxLength = 16;
    setConfig(config);
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);

    auto* runs = window_->runsPage();
    clickRuns(runs, {run});
    const auto folder = dir_ / "exported";
    const auto chosen = chooseFileInNextDialog(QString::fromStdString(folder.string()));
    QSignalSpy exported(runs, &ui::RunsPage::exportFinished);
    clickButton(runs, QStringLiteral("Export model…"));
    ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000)) << "no export dialog";
    ASSERT_TRUE(waitUntil([&] { return exported.count() > 0; }, 60000)) << "no export";
    ASSERT_EQ(exported.front().at(2).toString(), QString()) << "the export failed";

    const auto tokenizerConfig = nlohmann::json::parse(readFile(folder / "tokenizer_config.json"));
    EXPECT_EQ(tokenizerConfig["model_max_length"], 16) << tokenizerConfig.dump();

    if (const auto why = referenceUnavailable(); !why.empty()) {
        GTEST_SKIP() << "transformers' side skipped: " << why;
    }
    // Longer than the run's length: the run read its first 16 tokens.
    std::string text;
    for (int i = 0; i < 12; ++i) {
        text += "i loved it , a great film ! ";
    }
    const auto out = dir_ / "truncation.json";
    const auto log = dir_ / "truncation.log";
    ASSERT_EQ(runPythonScript("tests/ui/export_truncation.py",
                              {folder.string(), text, out.string()}, log),
              0)
        << readFile(log);
    const auto theirs = nlohmann::json::parse(readFile(out));
    EXPECT_EQ(theirs["model_max_length"], 16);
    const auto ours = WordPieceTokenizer::fromModelFolder(folder).encode(text, 16);
    ASSERT_EQ(ours.size(), 16U);
    EXPECT_EQ(theirs["input_ids"].get<std::vector<std::int32_t>>(), ours.inputIds)
        << "transformers cuts the text elsewhere than the run did";
}

}  // namespace
}  // namespace bert::test
