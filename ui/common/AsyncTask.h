#pragma once

#include <exception>
#include <functional>
#include <memory>

#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QRunnable>
#include <QThreadPool>

#include "common/Guard.h"
#include "memory/MemoryMonitor.h"

namespace bert::ui {

/// Runs engine work that is not training (Try it's classification, an export) off the GUI
/// thread, so the window never waits on LibTorch.
///
/// Contract:
///  - work runs on a thread of Qt's global pool, inside UncountedAllocations: its tensors are
///    neither counted in a run's memory figures nor refused by a running trainer's memory cap;
///  - done(result) or failed(message) then runs on the GUI thread (queued through the
///    application object), and only if receiver (a GUI-thread object) still exists;
///  - work must not touch widgets; it may throw anything: failed gets describeError's message.
/// The application's destructor waits for the pool, so no work outlives the program.
template <typename Result>
void runAsync(QObject* receiver, std::function<Result()> work, std::function<void(Result)> done,
              std::function<void(QString)> failed) {
    QPointer<QObject> guard(receiver);
    QThreadPool::globalInstance()->start(
        [guard, work = std::move(work), done = std::move(done), failed = std::move(failed)] {
            std::shared_ptr<Result> result;
            QString error;
            try {
                const UncountedAllocations notARun;
                result = std::make_shared<Result>(work());
            } catch (...) {
                error = describeError(std::current_exception());
            }
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [guard, result, error, done, failed] {
                    if (guard.isNull()) {
                        return;
                    }
                    if (result) {
                        done(std::move(*result));
                    } else {
                        failed(error);
                    }
                },
                Qt::QueuedConnection);
        });
}

}  // namespace bert::ui
