#include "common/Guard.h"

#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>
#include <QWidget>
#include <c10/util/Exception.h>

#include "Error.h"
#include "common/EngineText.h"

namespace bert::ui {

QString describeError(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const bert::Error& e) {
        return EngineText::translate(QString::fromStdString(e.what()));
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        return QStringLiteral("LibTorch: ") +
               QString::fromStdString(what.substr(0, what.find('\n')));
    } catch (const std::exception& e) {
        return QStringLiteral("internal error: ") + QString::fromStdString(e.what());
    } catch (...) {
        return QStringLiteral("internal error: an unknown exception");
    }
}

void showNotice(QWidget* parent, const QString& title, const QString& text, bool warning) {
    if (parent != nullptr) {
        if (auto* window = qobject_cast<QMainWindow*>(parent->window())) {
            window->statusBar()->showMessage(text);
        }
    }
    auto* box = new QMessageBox(warning ? QMessageBox::Warning : QMessageBox::Information, title,
                                text, QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

void reportError(QWidget* parent, const QString& action, const std::exception_ptr& error) {
    const QString message = describeError(error);
    qWarning("%s: %s", qUtf8Printable(action), qUtf8Printable(message));
    showNotice(parent, action, message, /*warning=*/true);
}

}  // namespace bert::ui
