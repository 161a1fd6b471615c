#pragma once

#include <string>

#include <QCoreApplication>
#include <QString>
#include <nlohmann/json.hpp>

#include "task/TaskKind.h"
#include "train/TrainerEvents.h"

namespace bert::ui {

/// The words the studio shows for engine values that core keeps in English (stored names):
/// run statuses, a run's techniques, model presets. Translated in the context "Names".
class Names {
    Q_DECLARE_TR_FUNCTIONS(Names)

public:
    /// "completed" in the interface's language.
    static QString status(RunStatus status);
    /// A stored run's techniques, rebuilt from its settings with the form's translated labels
    /// ("Padding: dynamic, Memory cap (MiB): 600 MiB"); the stored English text when the
    /// settings cannot be read.
    static QString techniques(const nlohmann::json& runConfig, const std::string& stored);
    /// "Multi-label classification", for a task kind.
    static QString task(TaskKind kind);
    /// A task figure's name ("micro-F1", "RMSE", "entity F1") for its key in an evaluation's
    /// task report ("micro_f1", "rmse", "entity_f1"); the key itself for one not known.
    static QString figure(const std::string& key);
    /// A from-scratch size ("tiny") as shown.
    static QString preset(const std::string& name);
    /// A widget's label as plain text, for use outside its widget (a table, a list): without
    /// its mnemonic, whether "&Batch size" or Chinese "批大小(&B)" (brackets and letter go);
    /// "&&" stays a literal "&".
    static QString withoutMnemonic(const QString& text);
};

}  // namespace bert::ui
