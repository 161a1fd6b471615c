// Issue 27, point 2: Runs → Train again did nothing (its signal reached no one). Every enabled
// button and action of the window, its pages and its dialogs must be connected to something,
// and so must every signal a page of ours declares: a click that reaches no one cannot land.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QMetaMethod>
#include <QPushButton>
#include <QTableView>
#include <QTest>
#include <QToolButton>

#include "StudioFixture.h"
#include "dataset/DatasetPage.h"
#include "main/MainWindow.h"
#include "runs/RunsPage.h"
#include "training/TechniquesPage.h"

namespace bert::test {
namespace {

/// QObject::receivers is protected; a pointer to it, formed in a class derived from QObject,
/// may be called on any object.
struct Receivers : QObject {
    static int of(const QObject* object, const QMetaMethod& signal) {
        const QByteArray name = QByteArray("2") + signal.methodSignature();  // SIGNAL()'s form
        return (object->*(&Receivers::receivers))(name.constData());
    }
};

bool connected(const QObject* object, const char* signature) {
    const int index = object->metaObject()->indexOfSignal(signature);
    return index >= 0 && Receivers::of(object, object->metaObject()->method(index)) > 0;
}

/// Signals of ours that are results for whoever wants them (tests, later features), not
/// requests that something must carry out.
const QStringList kObservedOnly = {
    QStringLiteral("bert::ui::MainWindow::trainingFinished"),
    QStringLiteral("bert::ui::MainWindow::largestBatchApplied"),
    QStringLiteral("bert::ui::TryItPage::classified"),
    QStringLiteral("bert::ui::TryItPage::failed"),
    QStringLiteral("bert::ui::DatasetPage::loadFinished"),
};

/// Everything under root (root included) that a click could reach and that reaches no one.
QStringList unconnected(QObject* root) {
    QStringList problems;
    QList<QObject*> objects = root->findChildren<QObject*>();
    objects.prepend(root);
    for (auto* object : objects) {
        if (auto* button = qobject_cast<QAbstractButton*>(object)) {
            if (!button->isEnabled() ||
                (!qobject_cast<QPushButton*>(button) && !qobject_cast<QToolButton*>(button))) {
                continue;
            }
            auto* tool = qobject_cast<QToolButton*>(button);
            auto* push = qobject_cast<QPushButton*>(button);
            const bool opensMenu = (tool != nullptr && (tool->menu() != nullptr ||
                                                        tool->defaultAction() != nullptr)) ||
                                   (push != nullptr && push->menu() != nullptr);
            if (!opensMenu && !connected(button, "clicked(bool)") &&
                !connected(button, "pressed()") && !connected(button, "released()") &&
                !connected(button, "toggled(bool)")) {
                problems << QStringLiteral("button “%1” (%2) in %3")
                                .arg(button->text(), button->objectName(),
                                     button->window()->metaObject()->className());
            }
        } else if (auto* action = qobject_cast<QAction*>(object)) {
            if (!action->isEnabled() || action->isSeparator() || action->menu() != nullptr) {
                continue;
            }
            if (!connected(action, "triggered(bool)") && !connected(action, "toggled(bool)")) {
                problems
                    << QStringLiteral("action “%1” (%2)").arg(action->text(), action->objectName());
            }
        }
        // The signals our own classes declare.
        const auto* meta = object->metaObject();
        if (!QString::fromLatin1(meta->className()).startsWith(QStringLiteral("bert::ui::"))) {
            continue;
        }
        for (const auto* type = meta;
             type != nullptr &&
             QString::fromLatin1(type->className()).startsWith(QStringLiteral("bert::ui::"));
             type = type->superClass()) {
            for (int i = type->methodOffset(); i < type->methodCount(); ++i) {
                const auto method = type->method(i);
                const auto name = QStringLiteral("%1::%2").arg(
                    QString::fromLatin1(type->className()), QString::fromLatin1(method.name()));
                if (method.methodType() != QMetaMethod::Signal || kObservedOnly.contains(name)) {
                    continue;
                }
                if (Receivers::of(object, method) == 0) {
                    problems << QStringLiteral("signal %1").arg(name);
                }
            }
        }
    }
    problems.removeDuplicates();
    return problems;
}

std::string lines(const QStringList& list) {
    return list.join(QLatin1Char('\n')).toStdString();
}

class Wiring : public StudioFixture {};

TEST_F(Wiring, EveryButtonActionAndSignalOfTheWindowPagesAndDialogsReachesSomething) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    const auto first = storedRun("first");
    const auto second = storedRun("second");
    window_->runsPage()->refresh();
    // Every page built, every menu and its actions.
    EXPECT_TRUE(unconnected(window_.get()).isEmpty()) << lines(unconnected(window_.get()));

    // The dialogs, opened as a person opens them.
    auto* runs = window_->runsPage();
    clickRuns(runs, {first});
    clickButton(runs, QStringLiteral("Open"));
    auto dialogs = runs->findChildren<QDialog*>();
    ASSERT_FALSE(dialogs.isEmpty()) << "Open showed no run";
    for (auto* dialog : dialogs) {
        EXPECT_TRUE(unconnected(dialog).isEmpty()) << lines(unconnected(dialog));
        dialog->close();
    }
    clickRuns(runs, {first, second});
    clickButton(runs, QStringLiteral("Compare"));
    for (auto* dialog : runs->findChildren<QDialog*>()) {
        if (dialog->isVisible()) {
            EXPECT_TRUE(unconnected(dialog).isEmpty()) << lines(unconnected(dialog));
            dialog->close();
        }
    }
    auto* guide = window_->menuAction(QStringLiteral("Guide to the techniques"));
    ASSERT_NE(guide, nullptr);
    guide->trigger();
    for (auto* dialog : window_->findChildren<QDialog*>()) {
        if (dialog->isVisible()) {
            EXPECT_TRUE(unconnected(dialog).isEmpty()) << lines(unconnected(dialog));
            dialog->close();
        }
    }
    // A modal question: walked while it waits for its answer, then answered No.
    clickRuns(runs, {first});
    QStringList inQuestion;
    const auto answered = whenModal([&](QWidget* box) {
        inQuestion = unconnected(box);
        QTest::keyClick(box, Qt::Key_Escape);
    });
    clickButton(runs, QStringLiteral("Delete…"));
    ASSERT_TRUE(waitUntil([&] { return *answered; }, 30000));
    EXPECT_TRUE(inQuestion.isEmpty()) << lines(inQuestion);
    EXPECT_EQ(runs->rowCount(), 2);
}

// The button that did nothing: it loads the run's dataset, model and settings into the form.
TEST_F(Wiring, TrainAgainLoadsTheSelectedRunIntoTheForm) {
    const auto run = storedRun("to train again");
    auto* runs = window_->runsPage();
    runs->refresh();
    EXPECT_FALSE(window_->datasetPage()->hasData());
    clickRuns(runs, {run});
    clickButton(runs, QStringLiteral("Train again"));
    EXPECT_TRUE(window_->datasetPage()->hasData()) << "Train again did nothing";
    EXPECT_EQ(window_->datasetPage()->currentFile().toStdString(), (dir_ / "reviews.csv").string());
    EXPECT_EQ(window_->techniquesPage()->modelFolder(), dir_ / "model");
    EXPECT_EQ(window_->techniquesPage()->config().maxLength, quickConfig(1).maxLength);
    EXPECT_EQ(window_->tabs()->currentWidget(), window_->techniquesPage());
}

}  // namespace
}  // namespace bert::test
