// MainWindow's menus, their shortcuts and the palette (the rest is in MainWindow.cpp).
#include <functional>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPalette>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>

#include "common/Guard.h"
#include "common/MetricsCharts.h"
#include "dataset/DatasetPage.h"
#include "help/HelpDialog.h"
#include "main/MainWindow.h"
#include "runs/RunStore.h"
#include "runs/RunsPage.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"

namespace bert::ui {

namespace {
const QKeySequence kStartKeys(Qt::CTRL | Qt::Key_Return);
}  // namespace

void MainWindow::createMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    // What the Dataset tab's button does, with its dialog and filter.
    auto* open = file->addAction(tr("&Open dataset…"), this, [this] {
        tabs_->setCurrentWidget(dataset_);
        dataset_->chooseFile();
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open &job…"), this, [this] {
        const auto chosen =
            QFileDialog::getOpenFileName(this, tr("Open job"), QString(), tr("Job files (*.json)"));
        if (!chosen.isEmpty()) {
            openJobFile(chosen);
        }
    });
    file->addAction(tr("&Save job…"), this, [this] {
        const auto chosen =
            QFileDialog::getSaveFileName(this, tr("Save job"), QString(), tr("Job files (*.json)"));
        if (!chosen.isEmpty()) {
            saveJobFile(chosen);
        }
    });
    // What the Runs tab's Export button does: the selected run's export dialog, or a notice to
    // select one run.
    auto* exportModel = file->addAction(tr("&Export a run's model…"), this, [this] {
        tabs_->setCurrentWidget(runs_);
        runs_->exportSelected();
    });
    exportModel->setShortcut(QKeySequence(QStringLiteral("Ctrl+E")));
    file->addAction(tr("Run &database…"), this, [this] {
        const auto path = QFileDialog::getSaveFileName(
            this, tr("Run database"), QString::fromStdString(database_.string()),
            tr("Run databases (*.sqlite)"), nullptr, QFileDialog::DontConfirmOverwrite);
        if (!path.isEmpty()) {
            QSettings().setValue(QStringLiteral("runs/database"), path);
            showNotice(this, tr("Run database"),
                       tr("BERT Studio uses %1 from its next start.").arg(path));
        }
    });
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    auto* train = menuBar()->addMenu(tr("&Training"));
    startAction_ = train->addAction(tr("&Start"), this, &MainWindow::startTraining);
    auto* cancel = train->addAction(tr("&Cancel"), this, &MainWindow::cancelTraining);
    cancel->setShortcut(QKeySequence(QStringLiteral("Ctrl+.")));
    // Only a run in progress can be cancelled, as the training tab's button says.
    cancel->setEnabled(isTraining());
    connect(training_, &TrainingPage::runningChanged, cancel, &QAction::setEnabled);
    resumeAction_ =
        train->addAction(tr("&Resume"), this, [this] { resumeRun(training_->resumableRun()); });
    resumeAction_->setToolTip(
        tr("Continue the last cancelled or interrupted run from its checkpoint"));
    resumeAction_->setEnabled(training_->resumableRun() > 0);
    connect(training_, &TrainingPage::resumableChanged, resumeAction_,
            [this](qint64 runId) { resumeAction_->setEnabled(runId > 0); });
    // A stopped run chosen in the Runs tab is what Resume continues (after a restart, the
    // training tab knows of no run of its own).
    connect(runs_->table()->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::offerSelectedRunToResume);
    train->addSeparator();
    auto* refresh = train->addAction(tr("Re&fresh runs"), runs_, &RunsPage::refresh);
    refresh->setShortcut(QKeySequence::Refresh);
    updateShortcuts();

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* dark = view->addAction(tr("&Dark palette"));
    dark->setCheckable(true);
    dark->setChecked(QSettings().value(QStringLiteral("view/dark"), false).toBool());
    connect(dark, &QAction::toggled, this, [this](bool on) { setDarkPalette(on); });
    // One language is chosen: the one the settings hold (what the next start uses), checked.
    auto* language = view->addMenu(tr("&Language"));
    auto* languages = new QActionGroup(language);
    languages->setExclusive(true);
    const auto current =
        QSettings().value(QStringLiteral("view/language"), QStringLiteral("system")).toString();
    for (const auto& [code, name] :
         {std::pair{QStringLiteral("system"), tr("System default")},
          std::pair{QStringLiteral("en"), QStringLiteral("English")},
          std::pair{QStringLiteral("zh_CN"), QStringLiteral("简体中文")}}) {
        const QString chosen = code;
        auto* action = language->addAction(name);
        action->setCheckable(true);
        action->setChecked(chosen == current);
        languages->addAction(action);
        connect(action, &QAction::triggered, this, [this, chosen] {
            if (QSettings().value(QStringLiteral("view/language"), QStringLiteral("system")) ==
                chosen) {
                return;  // the language in force was chosen again
            }
            QSettings().setValue(QStringLiteral("view/language"), chosen);
            showNotice(this, tr("Language"),
                       tr("The language changes when BERT Studio starts again."));
        });
    }
    auto* help = menuBar()->addMenu(tr("&Help"));
    auto* guide = help->addAction(tr("&Guide to the techniques"), this, [this] { showHelp(0); });
    guide->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showHelp(1); });
    help->addSeparator();
    help->addAction(tr("&About BERT Studio"), this, [this] {
        QMessageBox::about(this, tr("About BERT Studio"),
                           tr("<b>BERT Studio</b> %1<br>Fine-tune BERT classifiers without running "
                              "out of memory.<br>"
                              "Runs: %2")
                               .arg(QCoreApplication::applicationVersion(),
                                    QString::fromStdString(database_.string())));
    });
}

void MainWindow::updateShortcuts() {
    if (startAction_ == nullptr) {
        return;
    }
    // Start belongs to setting a run up: on Runs and Try it, Ctrl+Return is theirs (Try it
    // classifies with it) and must not start a run (it did, from Try it's text box).
    const auto* page = tabs_->currentWidget();
    const bool training = page == dataset_ || page == techniques_ || page == training_;
    startAction_->setShortcut(training ? kStartKeys : QKeySequence());
}

void MainWindow::offerSelectedRunToResume() {
    const auto selected = runs_->selectedRuns();
    if (training_active_ || selected.size() != 1) {
        return;
    }
    guarded(this, tr("Resume"), [&] {
        RunStore store(database_, RunStore::Access::ReadOnly);
        const auto run = store.run(selected.front());
        // What resumeTrainingRun accepts: a stopped run (cancelled, interrupted, failed) that
        // has a checkpoint.
        if (run && run->status != RunStatus::Completed && run->status != RunStatus::Running &&
            !store.checkpoints(run->id).empty()) {
            training_->setResumable(run->id);
        }
    });
}

QAction* MainWindow::menuAction(const QString& text) const {
    std::function<QAction*(const QList<QAction*>&)> find = [&](const QList<QAction*>& actions) {
        for (auto* action : actions) {
            if (QString(action->text()).remove(QLatin1Char('&')) == text) {
                return action;
            }
            if (action->menu() != nullptr) {
                if (auto* found = find(action->menu()->actions())) {
                    return found;
                }
            }
        }
        return static_cast<QAction*>(nullptr);
    };
    return find(menuBar()->actions());
}

QList<QPair<QString, QKeySequence>> MainWindow::shortcuts() const {
    QList<QPair<QString, QKeySequence>> list;
    std::function<void(const QList<QAction*>&)> collect = [&](const QList<QAction*>& actions) {
        for (auto* action : actions) {
            if (action->menu() != nullptr) {
                collect(action->menu()->actions());
            } else if (action == startAction_) {
                list.append(
                    {tr("Start training (dataset, techniques and training tabs)"), kStartKeys});
            } else if (!action->shortcut().isEmpty()) {
                list.append({action->text(), action->shortcut()});
            }
        }
    };
    collect(menuBar()->actions());
    list.append({tr("Classify the text (Try it)"), kStartKeys});
    list.append({tr("Delete the selected runs (Runs)"), QKeySequence(QKeySequence::Delete)});
    return list;
}

HelpDialog* MainWindow::showHelp(int page) {
    auto* dialog = new HelpDialog(shortcuts(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->showPage(page);
    dialog->show();
    return dialog;
}

void MainWindow::setDarkPalette(bool dark, bool remember) {
    if (remember) {
        QSettings().setValue(QStringLiteral("view/dark"), dark);
    }
    if (dark) {
        qApp->setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QPalette palette;
        palette.setColor(QPalette::Window, QColor(45, 45, 48));
        palette.setColor(QPalette::WindowText, QColor(230, 230, 230));
        palette.setColor(QPalette::Base, QColor(30, 30, 32));
        palette.setColor(QPalette::AlternateBase, QColor(45, 45, 48));
        palette.setColor(QPalette::Text, QColor(230, 230, 230));
        palette.setColor(QPalette::Button, QColor(55, 55, 58));
        palette.setColor(QPalette::ButtonText, QColor(230, 230, 230));
        palette.setColor(QPalette::Highlight, QColor(61, 142, 201));
        palette.setColor(QPalette::HighlightedText, Qt::white);
        palette.setColor(QPalette::ToolTipBase, QColor(55, 55, 58));
        palette.setColor(QPalette::ToolTipText, QColor(230, 230, 230));
        palette.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        // Disabled fields must look disabled in the dark palette too.
        for (const auto role : {QPalette::Text, QPalette::ButtonText, QPalette::WindowText}) {
            palette.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
        }
        palette.setColor(QPalette::Disabled, QPalette::Base, QColor(45, 45, 48));
        qApp->setPalette(palette);
    } else {
        qApp->setPalette(qApp->style()->standardPalette());
    }
    for (auto* view : findChildren<QChartView*>()) {
        view->chart()->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    }
    // The theme reset the lines' pens: the run charts' own colours come back at once.
    for (auto* charts : findChildren<MetricsCharts*>()) {
        charts->themeChanged();
    }
}

}  // namespace bert::ui
