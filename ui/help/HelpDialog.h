#pragma once

#include <QDialog>
#include <QKeySequence>
#include <QList>
#include <QPair>
#include <QString>

QT_BEGIN_NAMESPACE
class QTabWidget;
class QTextBrowser;
QT_END_NAMESPACE

namespace bert::ui {

/// Help → Guide: a short guide to the memory techniques (each with what it saves and costs, from
/// the option table, so it never disagrees with the form's tooltips or the command line's help)
/// and the keyboard shortcuts (from the window's own actions, so a changed shortcut changes its
/// line). Non-modal.
class HelpDialog : public QDialog {
    Q_OBJECT

public:
    using Shortcuts = QList<QPair<QString, QKeySequence>>;  ///< what it does, its keys

    HelpDialog(const Shortcuts& shortcuts, QWidget* parent = nullptr);

    /// Shows the techniques (0) or the shortcuts (1).
    void showPage(int page);
    int currentPage() const;
    QString techniquesText() const;
    QString shortcutsText() const;

private:
    QTabWidget* tabs_;
    QTextBrowser* techniques_;
    QTextBrowser* shortcuts_;
};

}  // namespace bert::ui
