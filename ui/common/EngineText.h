#pragma once

#include <QCoreApplication>
#include <QString>

namespace bert::ui {

/// The engine's words in the interface's language. The engine (core) speaks English, in its
/// log lines (TrainerEvent::message) and in the problems its errors name; the studio shows the
/// ones users meet every day translated: out-of-memory recovery, checkpoints, cancel, early
/// stopping, the forecast and trial step, and the import, file and training errors. Each is a
/// pattern of the engine's text and a translatable template of the same facts (context
/// "EngineText"); a text no pattern knows is shown as the engine wrote it. Thread-safe.
class EngineText {
    Q_DECLARE_TR_FUNCTIONS(EngineText)

public:
    /// A log line or a problem in the interface's language.
    static QString translate(const QString& english);
    static QString translate(const std::string& english) {
        return translate(QString::fromStdString(english));
    }
    /// translate() as a sentence of the interface: its first letter capitalised, a full stop
    /// after it (the engine's notes are clauses: "the embeddings hold ...").
    static QString sentence(const std::string& english);
    /// The engine texts the patterns are written for, one per pattern (for tests: each must
    /// translate to a different text than itself under zh_CN).
    static QStringList examples();
};

}  // namespace bert::ui
