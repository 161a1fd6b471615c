#pragma once

#include <exception>
#include <utility>

#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace bert::ui {

/// The message a user reads for an error: what() of the engine's errors (file and problem),
/// LibTorch's message without its backtrace, or "internal error: ..." for anything else.
QString describeError(const std::exception_ptr& error);

/// Shows a message without blocking the window (non-modal, deleted on close) and puts it on the
/// window's status bar when parent has one; warning picks the icon. GUI thread only.
void showNotice(QWidget* parent, const QString& title, const QString& text, bool warning = false);

/// Logs the error (qWarning) and shows it with showNotice, titled by what the user was doing.
void reportError(QWidget* parent, const QString& action, const std::exception_ptr& error);

/// Runs fn on the GUI thread; whatever it throws becomes reportError(parent, action, ...) instead
/// of leaving a Qt slot (which would end the program through std::terminate). Returns whether
/// fn finished. Every studio slot that reaches core goes through this.
template <typename Fn>
bool guarded(QWidget* parent, const QString& action, Fn&& fn) {
    try {
        std::forward<Fn>(fn)();
        return true;
    } catch (...) {
        reportError(parent, action, std::current_exception());
        return false;
    }
}

}  // namespace bert::ui
