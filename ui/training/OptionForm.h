#pragma once

#include <functional>
#include <map>
#include <string>

#include <QWidget>

#include "train/TrainingOptions.h"

QT_BEGIN_NAMESPACE
class QGroupBox;
class QLabel;
QT_END_NAMESPACE

namespace bert::ui {

/// The training options as form rows, built from the option table (train/TrainingOptions.h):
/// one group box per OptionGroup, one row per option with the widget its kind calls for (check
/// box, spin box, scientific spin box, 64-bit seed field, combo box whose items carry the
/// choice's name as data, device list, optional size in MiB), its translated label and help.
/// Reading and writing go through the descriptors, so the form cannot disagree with the JSON
/// or the command line. GUI thread only.
class OptionForm : public QObject {
    Q_OBJECT

public:
    /// Builds the rows of every group except Data (set on the dataset page); parent owns them.
    explicit OptionForm(QWidget* parent);

    /// The group box of a group's rows, to be placed by the page.
    QGroupBox* groupBox(OptionGroup group) const;

    /// Writes every row's value into config (options the form does not show keep theirs).
    void read(TrainingConfig& config) const;
    /// Shows config's values. Emits changed() once at the end, not once per row.
    void write(const TrainingConfig& config);

    /// The row's editor of an option (for tests and for limits that depend on the model).
    QWidget* editor(const std::string& key) const;
    /// Caps a Count option's spin box (freeze_layers at the model's layer count).
    void setMaximum(const std::string& key, int maximum);
    /// A note in the row under an option's (object name "note_<key>"), shown where it concerns
    /// that choice (fp16 for a family it makes diverge); an empty note hides it.
    void setNote(const std::string& key, const QString& note);

Q_SIGNALS:
    /// A row changed by the user or by write().
    void changed();

private:
    struct Row {
        const OptionDescriptor* option = nullptr;
        QWidget* editor = nullptr;
        std::function<nlohmann::json()> value;            ///< the row's value as the option's JSON
        std::function<void(const nlohmann::json&)> show;  ///< shows a value of the option's JSON
    };
    Row makeRow(const OptionDescriptor& option, QWidget* parent);
    void updateEnabled();
    /// Marks the precision choices the device runs slowly, and withdraws fp16 on a CPU.
    void updatePrecisionChoices();
    void onEdited();

    std::map<OptionGroup, QGroupBox*> groups_;
    std::map<std::string, Row> rows_;
    std::map<std::string, QLabel*> notes_;  ///< made on first use, in the row under the option
    bool writing_ = false;                  ///< inside write(): rows' own signals are not forwarded
};

}  // namespace bert::ui
