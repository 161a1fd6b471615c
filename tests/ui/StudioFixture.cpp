#include "StudioFixture.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>

#include "../core/TinyModel.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/ModelReport.h"
#include "runs/RunDialog.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "runs/TrainingJob.h"
#include "training/TechniquesPage.h"

namespace bert::test {

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
    constexpr int kRecheckMs = 10;
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs) {
        QEventLoop loop;
        QTimer::singleShot(kRecheckMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return done();
}

QAbstractButton* findButton(QWidget* root, const QString& text) {
    for (auto* button : root->findChildren<QAbstractButton*>()) {
        if (QString(button->text()).remove(QLatin1Char('&')) == text ||
            button->objectName() == text) {
            return button;
        }
    }
    return nullptr;
}

QLineEdit* findLineEdit(QWidget* root, const QString& tip) {
    for (auto* edit : root->findChildren<QLineEdit*>()) {
        if (edit->toolTip().contains(tip) || edit->objectName() == tip) {
            return edit;
        }
    }
    return nullptr;
}

void bringToFront(QWidget* widget) {
    // A person's click into a window makes it the active one (a closed dialog leaves none
    // active here, and shortcuts need one).
    if (auto* window = widget->window(); window->isVisible() && !window->isActiveWindow()) {
        window->activateWindow();
        EXPECT_TRUE(QTest::qWaitForWindowActive(window));
    }
    // The tab widgets it sits in, outermost first.
    std::vector<std::pair<QTabWidget*, QWidget*>> tabs;
    for (QWidget* child = widget; child != nullptr; child = child->parentWidget()) {
        auto* parent = child->parentWidget();
        // A page's parent is the tab widget's stack, whose parent is the tab widget.
        if (parent != nullptr) {
            if (auto* tab = qobject_cast<QTabWidget*>(parent->parentWidget());
                tab != nullptr && tab->indexOf(child) >= 0) {
                tabs.insert(tabs.begin(), {tab, child});
            }
        }
    }
    for (const auto& [tab, page] : tabs) {
        const int index = tab->indexOf(page);
        if (tab->currentIndex() != index) {
            QTest::mouseClick(tab->tabBar(), Qt::LeftButton, {},
                              tab->tabBar()->tabRect(index).center());
        }
        EXPECT_EQ(tab->currentIndex(), index) << "the tab did not come to the front";
    }
}

void click(QAbstractButton* button) {
    ASSERT_NE(button, nullptr);
    bringToFront(button);
    EXPECT_TRUE(button->isVisible()) << button->text().toStdString() << " is not on screen";
    EXPECT_TRUE(button->isEnabled()) << button->text().toStdString() << " is disabled";
    QTest::mouseClick(button, Qt::LeftButton);
}

void clickButton(QWidget* root, const QString& text) {
    auto* button = findButton(root, text);
    ASSERT_NE(button, nullptr) << "no button " << text.toStdString();
    click(button);
}

void typeInto(QLineEdit* edit, const QString& text) {
    ASSERT_NE(edit, nullptr);
    bringToFront(edit);
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

void clickRuns(ui::RunsPage* runs, const QList<qint64>& runIds) {
    auto* table = runs->table();
    bringToFront(table);
    bool first = true;
    for (const auto id : runIds) {
        int row = -1;
        for (int r = 0; r < table->model()->rowCount(); ++r) {
            if (table->model()->index(r, 0).data(Qt::UserRole).toLongLong() == id) {
                row = r;
            }
        }
        ASSERT_GE(row, 0) << "run " << id << " is not in the table";
        const auto cell = table->visualRect(table->model()->index(row, 0)).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton,
                          first ? Qt::KeyboardModifiers() : Qt::ControlModifier, cell);
        first = false;
    }
    EXPECT_EQ(runs->selectedRuns().size(), runIds.size());
}

QString visibleMessages(QWidget* root) {
    QStringList texts;
    for (auto* box : root->findChildren<QMessageBox*>()) {
        if (box->isVisible()) {
            texts << box->text();
        }
    }
    return texts.join(QLatin1Char('\n'));
}

namespace {
/// The answers still waiting for their dialog: a test that ends stops them, so that none acts
/// (on the ended test's variables) in the next.
QList<QPointer<QTimer>>& pendingAnswers() {
    static QList<QPointer<QTimer>> timers;
    return timers;
}
}  // namespace

void cancelPendingAnswers() {
    for (const auto& timer : pendingAnswers()) {
        if (!timer.isNull()) {
            timer->stop();
            timer->deleteLater();
        }
    }
    pendingAnswers().clear();
}

std::shared_ptr<bool> whenModal(std::function<void(QWidget*)> act, int timeoutMs) {
    auto done = std::make_shared<bool>(false);
    auto* timer = new QTimer(qApp);
    pendingAnswers().append(timer);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    QObject::connect(timer, &QTimer::timeout,
                     [timer, act = std::move(act), done, clock, timeoutMs] {
                         auto* dialog = QApplication::activeModalWidget();
                         if (dialog == nullptr || !dialog->isVisible()) {
                             if (clock->elapsed() > timeoutMs) {
                                 timer->deleteLater();
                                 timer->stop();
                             }
                             return;
                         }
                         timer->stop();
                         timer->deleteLater();
                         act(dialog);
                         *done = true;
                     });
    timer->start(10);
    return done;
}

std::shared_ptr<bool> chooseFileInNextDialog(const QString& path,
                                             std::function<void(QFileDialog*)> inspect) {
    return whenModal([path, inspect](QWidget* dialog) {
        auto* files = qobject_cast<QFileDialog*>(dialog);
        ASSERT_NE(files, nullptr) << "the dialog is not a file dialog";
        if (inspect) {
            inspect(files);
        }
        auto* name = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        ASSERT_NE(name, nullptr);
        name->setFocus();
        // Pasted, as a person pastes a path: typed key by key, the dialog completes and
        // navigates at every "/".
        QGuiApplication::clipboard()->setText(path);
        QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);  // the suggested name goes
        QTest::keyClick(name, Qt::Key_V, Qt::ControlModifier);
        // The name's completer may show its list: Escape closes the list, not the dialog.
        if (auto* completer = name->completer(); completer != nullptr &&
                                                 completer->popup() != nullptr &&
                                                 completer->popup()->isVisible()) {
            QTest::keyClick(completer->popup(), Qt::Key_Escape);
        }
        // The dialog's Open (or Save, or Choose) button.
        auto* buttons = files->findChild<QDialogButtonBox*>();
        ASSERT_NE(buttons, nullptr);
        QAbstractButton* accept = nullptr;
        for (auto* button : buttons->buttons()) {
            if (buttons->buttonRole(button) == QDialogButtonBox::AcceptRole) {
                accept = button;
            }
        }
        ASSERT_NE(accept, nullptr);
        EXPECT_TRUE(accept->isEnabled()) << "the dialog refuses " << path.toStdString();
        QTest::mouseClick(accept, Qt::LeftButton);
        EXPECT_FALSE(files->isVisible()) << "the file dialog did not take " << path.toStdString();
        if (files->isVisible()) {
            files->reject();  // a test that failed must not wait forever in the dialog
        }
    });
}

void StudioFixture::SetUp() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    auto bundle = makeModel(2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "model", *bundle.model, *bundle.tokenizer);
    writeReviewsCsv(dir_ / "reviews.csv", 96);
    window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
    window_->show();
    window_->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
}

void StudioFixture::TearDown() {
    cancelPendingAnswers();
    window_.reset();
}

void StudioFixture::openDatasetThroughTheDialog(const std::filesystem::path& file) {
    const auto chosen = chooseFileInNextDialog(QString::fromStdString(file.string()));
    clickButton(window_.get(), QStringLiteral("openDataset"));
    ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000)) << "no file dialog opened";
    // The file is read in the background: until the page has it.
    ASSERT_TRUE(waitUntil([&] { return !window_->datasetPage()->isLoading(); }, 120000))
        << "the file was still being read";
}

void StudioFixture::openReviewsThroughTheDialog() {
    openDatasetThroughTheDialog(dir_ / "reviews.csv");
}

void StudioFixture::chooseTinyModel() {
    auto* folder = findLineEdit(window_.get(), QStringLiteral("modelFolder"));
    typeInto(folder, QString::fromStdString((dir_ / "model").string()));
    ASSERT_TRUE(window_->techniquesPage()->modelError().isEmpty())
        << window_->techniquesPage()->modelError().toStdString();
}

void StudioFixture::setConfig(const TrainingConfig& config) {
    window_->techniquesPage()->setConfig(config);
}

TrainingConfig StudioFixture::quickConfig(std::size_t epochs) const {
    TrainingConfig config;
    config.epochs = epochs;
    config.batchSize = 8;
    config.maxLength = 32;
    config.learningRate = 3e-3;
    config.warmupRatio = 0.0;
    config.padding = PaddingMode::Dynamic;
    return config;
}

qint64 StudioFixture::trainThroughTheStartButton(int timeoutMs) {
    qint64 finished = 0;
    const auto connection = QObject::connect(window_.get(), &ui::MainWindow::trainingFinished,
                                             [&](qint64 runId) { finished = runId; });
    clickButton(window_.get(), QStringLiteral("startTraining"));
    EXPECT_TRUE(waitUntil([&] { return finished != 0; }, timeoutMs)) << "the run did not end";
    QObject::disconnect(connection);
    return finished;
}

TrainingJob StudioFixture::reviewsJob() const {
    TrainingJob job;
    job.modelFolder = dir_ / "model";
    job.data.trainFile = dir_ / "reviews.csv";
    job.data.columns.text = "review";
    job.data.columns.label = "sentiment";
    job.training = quickConfig(1);
    return job;
}

qint64 StudioFixture::storedRun(const std::string& name) {
    const auto job = reviewsJob();
    RunStore store(dir_ / "runs.sqlite");
    NewRun run;
    run.name = name;
    run.config = {{"job", job.toJson()}};
    run.baseModel = (dir_ / "model").string();
    const auto id = store.createRun(run);
    RunResult result;
    result.status = RunStatus::Completed;
    store.finishRun(id, result);
    return id;
}

ui::ModelReport* StudioFixture::openModelQualityOf(qint64 runId) {
    clickRuns(window_->runsPage(), {runId});
    clickButton(window_->runsPage(), QStringLiteral("Open"));
    ui::RunDialog* dialog = nullptr;
    for (auto* found : window_->runsPage()->findChildren<ui::RunDialog*>()) {
        dialog = found;
    }
    if (dialog == nullptr) {
        ADD_FAILURE() << "no run dialog opened";
        return nullptr;
    }
    bringToFront(dialog->report());
    return dialog->report();
}

}  // namespace bert::test
