// The studio driven through its real widgets, offscreen: import, techniques, two runs, the runs
// table with charts, comparison, export, "Try it", a bad file; and the GUI thread's event-loop
// latency while training runs on the worker thread.
#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QElapsedTimer>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "../core/TinyModel.h"
#include "common/MetricsCharts.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/RunsPage.h"
#include "store/RunStore.h"
#include "support/TestSupport.h"
#include "train/TrainingJob.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"
#include "tryit/TryItPage.h"

namespace bert {
namespace {

// Processes events until done() or the timeout; returns done().
bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return done();
}

// Measures how late a 10 ms timer fires on the GUI thread.
class LatencyProbe {
public:
    LatencyProbe() {
        timer_.setInterval(kIntervalMs);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const auto now = clock_.elapsed();
            if (last_ >= 0) {
                lateness_.push_back(static_cast<double>(now - last_ - kIntervalMs));
            }
            last_ = now;
        });
        clock_.start();
        timer_.start();
    }
    double percentile(double p) {
        if (lateness_.empty()) {
            return 0.0;
        }
        std::sort(lateness_.begin(), lateness_.end());
        return lateness_[static_cast<std::size_t>(p * static_cast<double>(lateness_.size() - 1))];
    }
    std::size_t samples() const { return lateness_.size(); }

private:
    static constexpr int kIntervalMs = 10;
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = -1;
    std::vector<double> lateness_;
};

class Studio : public ::testing::Test {
protected:
    void SetUp() override {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        auto bundle = test::makeModel(2, 32, 4, 0.1, 3);
        exportModelFolder(dir_ / "model", *bundle.model, bundle.tokenizer);
        test::writeReviewsCsv(dir_ / "reviews.csv", 96);
        window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
        window_->show();
    }
    void TearDown() override { window_.reset(); }

    void configure(PaddingMode padding, std::size_t epochs) {
        auto* techniques = window_->techniquesPage();
        techniques->setModelFolder(QString::fromStdString((dir_ / "model").string()));
        ASSERT_TRUE(techniques->modelError().isEmpty()) << techniques->modelError().toStdString();
        TrainingConfig config;
        config.epochs = epochs;
        config.batchSize = 8;
        config.maxLength = 32;
        config.learningRate = 3e-3;
        config.warmupRatio = 0.0;
        config.padding = padding;
        techniques->setConfig(config);
    }

    qint64 train() {
        qint64 finished = 0;
        const auto connection = QObject::connect(window_.get(), &ui::MainWindow::trainingFinished,
                                                 [&](qint64 runId) { finished = runId; });
        EXPECT_TRUE(window_->startTraining());
        EXPECT_TRUE(waitUntil([&] { return finished != 0; }, 180000)) << "the run did not finish";
        QObject::disconnect(connection);
        return finished;
    }

    test::TempDir dir_;
    std::unique_ptr<ui::MainWindow> window_;
};

TEST_F(Studio, ImportTrainWatchCompareExportAndTry) {
    auto* dataset = window_->datasetPage();
    ASSERT_TRUE(dataset->openFile(QString::fromStdString((dir_ / "reviews.csv").string())));
    // The columns were guessed from their names.
    EXPECT_EQ(dataset->dataSpec().columns.text, "review");
    EXPECT_EQ(dataset->dataSpec().columns.label, "sentiment");
    // Ten epochs: long enough a stream of per-step signals to measure the GUI thread under it.
    configure(PaddingMode::Dynamic, 10);
    EXPECT_GT(dataset->longestExample(), 5U);
    EXPECT_GT(window_->techniquesPage()->forecast().total(), 0);
    EXPECT_TRUE(window_->techniquesPage()->fits());

    LatencyProbe probe;
    const auto first = train();
    const double p99 = probe.percentile(0.99);
    std::printf("event-loop latency during training: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %zu ticks\n",
                probe.percentile(0.5), p99, probe.percentile(1.0), probe.samples());
    EXPECT_LT(p99, 50.0) << "the GUI thread was blocked during training";

    auto* training = window_->trainingPage();
    EXPECT_EQ(training->charts()->stepPoints(), 10 * 10);  // 76 training examples: 10 steps an epoch
    EXPECT_LT(training->charts()->redrawCount(), training->charts()->stepPoints()) << "redraws are not throttled";
    EXPECT_TRUE(training->status().contains(QStringLiteral("completed"))) << training->status().toStdString();

    configure(PaddingMode::Fixed, 3);
    const auto second = train();
    auto* runs = window_->runsPage();
    ASSERT_EQ(runs->rowCount(), 2);
    auto* viewer = dynamic_cast<ui::RunDialog*>(runs->openRun(first));
    ASSERT_NE(viewer, nullptr);
    EXPECT_EQ(viewer->charts()->stepPoints(), 100);
    EXPECT_TRUE(viewer->charts()->savePng(QString::fromStdString((dir_ / "charts.png").string())));
    EXPECT_GT(std::filesystem::file_size(dir_ / "charts.png"), 10000U);
    runs->selectRuns({first, second});
    ASSERT_EQ(runs->selectedRuns().size(), 2);
    auto* comparison = dynamic_cast<ui::CompareDialog*>(runs->compare(runs->selectedRuns()));
    ASSERT_NE(comparison, nullptr);
    EXPECT_EQ(comparison->curveCount(), 2);
    EXPECT_GE(comparison->differenceRows(), 5);  // padding differs, plus the four result rows

    const auto exported = dir_ / "exported";
    EXPECT_TRUE(runs->exportModel(first, QString::fromStdString(exported.string())).isEmpty());
    EXPECT_TRUE(std::filesystem::exists(exported / "model.safetensors"));
    EXPECT_TRUE(std::filesystem::exists(exported / "run_card.json"));

    auto* tryIt = window_->tryItPage();
    tryIt->refreshRuns();
    tryIt->chooseRun(first);
    const auto result = tryIt->classify(QStringLiteral("i loved it, a great film !"));
    ASSERT_EQ(result.size(), 2);
    EXPECT_EQ(result.front().first, QStringLiteral("pos"));
    EXPECT_NEAR(result.front().second + result.back().second, 1.0, 1e-5);
}

TEST_F(Studio, ClosingDuringARunAsksThenCancelsAndTheRunKeepsItsData) {
    ASSERT_TRUE(window_->datasetPage()->openFile(QString::fromStdString((dir_ / "reviews.csv").string())));
    configure(PaddingMode::Dynamic, 400);
    qint64 finished = 0;
    QObject::connect(window_.get(), &ui::MainWindow::trainingFinished, [&](qint64 runId) { finished = runId; });
    ASSERT_TRUE(window_->startTraining());
    ASSERT_TRUE(waitUntil([&] { return window_->trainingPage()->charts()->stepPoints() >= 5; }, 60000));
    // Answer "Yes" to the question the close raises.
    bool asked = false;
    QTimer::singleShot(200, [&] {
        if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
            asked = true;
            box->button(QMessageBox::Yes)->click();
        }
    });
    window_->close();
    EXPECT_TRUE(asked) << "closing during a run did not ask";
    ASSERT_TRUE(waitUntil([&] { return finished != 0; }, 60000)) << "the run did not stop";
    EXPECT_FALSE(window_->isVisible()) << "the window did not close after the run stopped";
    RunStore store(dir_ / "runs.sqlite");
    const auto run = store.run(finished);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Cancelled);
    EXPECT_GE(store.steps(finished).size(), 5U);
    EXPECT_FALSE(latestCheckpoint(store.runFolder(finished)).empty()) << "no checkpoint to resume from";
}

TEST_F(Studio, ABadFileShowsAnErrorNamingTheFileAndLine) {
    test::writeFile(dir_ / "broken.csv", "text,label\n\"never closed,pos\n");
    auto* dataset = window_->datasetPage();
    EXPECT_FALSE(dataset->openFile(QString::fromStdString((dir_ / "broken.csv").string())));
    EXPECT_TRUE(dataset->errorText().contains(QStringLiteral("broken.csv: line 2")))
        << dataset->errorText().toStdString();
    EXPECT_FALSE(window_->startTraining());
}

TEST_F(Studio, TheForecastWarnsAndSuggestsAChangeThatFits) {
    configure(PaddingMode::Fixed, 1);
    auto* techniques = window_->techniquesPage();
    auto config = techniques->config();
    config.maxLength = 512;
    config.batchSize = 64;
    config.memoryCapBytes = 40LL * 1024 * 1024;
    techniques->setConfig(config);
    EXPECT_FALSE(techniques->fits());
    EXPECT_TRUE(techniques->adviceText().contains(QStringLiteral("To fit"))) << techniques->adviceText().toStdString();
}

}  // namespace
}  // namespace bert

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("BERT Studio tests"));
    QApplication::setApplicationName(QStringLiteral("bert-studio-tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
