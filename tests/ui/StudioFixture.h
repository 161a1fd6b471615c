#pragma once

// What the studio's feature tests share: a window over a temporary run database with a tiny
// model and a small review set, and the ways a person reaches things: clicking a tab, a button,
// a menu item, typing into a field, answering a dialog. Nothing here calls a page's slot.

#include <functional>
#include <memory>

#include <QList>
#include <QString>
#include <gtest/gtest.h>

#include "support/TestSupport.h"

QT_BEGIN_NAMESPACE
class QAbstractButton;
class QAction;
class QFileDialog;
class QLineEdit;
class QWidget;
QT_END_NAMESPACE

namespace bert {
struct NewRun;
struct TrainingConfig;
struct TrainingJob;
}  // namespace bert

namespace bert::ui {
class MainWindow;
class ModelReport;
class RunsPage;
}  // namespace bert::ui

namespace bert::test {

/// Processes events until done() or the timeout; returns done(). Sleeps in an event loop between
/// checks (10 ms), so a waiting test leaves the processor to the training.
bool waitUntil(const std::function<bool()>& done, int timeoutMs);

/// The visible-or-not button under root whose text, without '&', or whose object name is text;
/// null when none. (Object names reach the buttons the fixture presses in any language.)
QAbstractButton* findButton(QWidget* root, const QString& text);
/// The line edit under root whose tooltip contains tip, or whose object name is tip.
QLineEdit* findLineEdit(QWidget* root, const QString& tip);

/// Brings widget to the screen as a person does: activates its window and clicks the tab of
/// every QTabWidget page it is on, outermost first.
void bringToFront(QWidget* widget);
/// Clicks a button with the mouse, after bringing it to the front.
void click(QAbstractButton* button);
/// Clicks the button under root with this text (fails the test when there is none).
void clickButton(QWidget* root, const QString& text);
/// Selects everything in a line edit, types text and presses Return.
void typeInto(QLineEdit* edit, const QString& text);

/// Selects runs in the runs table with the mouse: a click on the first, Ctrl+click on the rest.
void clickRuns(ui::RunsPage* runs, const QList<qint64>& runIds);
/// The text of every visible message box under root, one per line.
QString visibleMessages(QWidget* root);

/// Arms an answer to the next modal dialog (a QMessageBox, QFileDialog, QInputDialog...) that
/// opens within timeoutMs: act gets it. Poll-based (every 10 ms), so it also answers a dialog
/// that a click opens and waits in. Returns a flag that turns true once act has run.
std::shared_ptr<bool> whenModal(std::function<void(QWidget*)> act, int timeoutMs = 60000);
/// Stops every answer still waiting for its dialog (the fixture's TearDown does it).
void cancelPendingAnswers();
/// Arms whenModal to choose path in a file dialog: typed into its file name field, then Return.
/// inspect, when given, sees the dialog first (its filters, its folder).
std::shared_ptr<bool> chooseFileInNextDialog(const QString& path,
                                             std::function<void(QFileDialog*)> inspect = {});

/// A main window over dir/runs.sqlite with a tiny model in dir/model (labels neg, pos) and
/// dir/reviews.csv (96 reviews, columns review and sentiment), shown and active.
class StudioFixture : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    /// Opens reviews.csv through the Open dataset button and its file dialog, and waits until
    /// it is read.
    void openReviewsThroughTheDialog();
    void openDatasetThroughTheDialog(const std::filesystem::path& file);
    /// Types the tiny model's folder into the model field.
    void chooseTinyModel();
    /// Puts config into the form (arranging a test; the form's rows are tested elsewhere).
    void setConfig(const TrainingConfig& config);
    /// A small, quick configuration of the tiny model: epochs as given, batch 8, length 32.
    TrainingConfig quickConfig(std::size_t epochs) const;
    /// Clicks Start and waits for the run to end; returns its id (0 on a timeout).
    qint64 trainThroughTheStartButton(int timeoutMs = 180000);
    /// A stored, completed run with a job pointing at reviews.csv and the tiny model.
    qint64 storedRun(const std::string& name);
    /// The job of a one-epoch run on the fixture's reviews and model, as the form would make it.
    TrainingJob reviewsJob() const;
    /// Opens a run from the Runs tab (selected with the mouse, then Open) and brings its Model
    /// quality tab to the front; null, with a failure, when no run dialog opened.
    ui::ModelReport* openModelQualityOf(qint64 runId);

    TempDir dir_;
    std::unique_ptr<ui::MainWindow> window_;
};

}  // namespace bert::test
