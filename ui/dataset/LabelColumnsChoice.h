#pragma once

// The dataset tab's choice of where a multi-label row's labels are (issue 29, point 2): in one
// column, separated by a character, or in one 0/1 column per label, picked in a checkable list
// of the file's columns. The page reads it into TaskSpec::labelSeparator or
// TaskSpec::labelColumns; the engine reads the labels (task/multilabel/LabelSets.h). GUI thread
// only.

#include <string>
#include <vector>

#include <QStringList>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QListWidget;
class QRadioButton;
QT_END_NAMESPACE

namespace bert::ui {

class LabelColumnsChoice : public QWidget {
    Q_OBJECT

public:
    explicit LabelColumnsChoice(QWidget* parent = nullptr);

    /// The file's columns, in its order, none checked; labels from one column again.
    void setColumns(const QStringList& columns);
    /// Whether the labels are read from one 0/1 column per label (else from one column,
    /// separated).
    bool fromColumns() const;
    void setFromColumns(bool fromColumns);
    /// The checked columns, in the file's order.
    std::vector<std::string> checkedColumns() const;
    /// Checks exactly these columns; returns those the file does not have (none checked then).
    QStringList checkColumns(const std::vector<std::string>& columns);
    /// The character between the labels of one column (';' when the field is empty).
    char separator() const;
    void setSeparator(char separator);

    // The setters above do not emit changed(): only the user's edits do.

Q_SIGNALS:
    /// The user chose the other way, checked or unchecked a column, or changed the separator.
    void changed();

private:
    /// The separator's field is for the one-column way, the list for the other.
    void showWay();

    QRadioButton* separated_;
    QLineEdit* separator_;
    QRadioButton* columns_;
    QListWidget* list_;
};

}  // namespace bert::ui
