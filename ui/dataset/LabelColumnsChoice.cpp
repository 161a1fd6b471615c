#include "dataset/LabelColumnsChoice.h"

#include <algorithm>

#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QRadioButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace bert::ui {

namespace {
constexpr int kListRows = 3;  // rows the list shows before it scrolls: the form is tall already
}  // namespace

LabelColumnsChoice::LabelColumnsChoice(QWidget* parent) : QWidget(parent) {
    separated_ = new QRadioButton(tr("In one column, se&parated by"), this);
    separated_->setObjectName(QStringLiteral("labelsSeparated"));
    separated_->setChecked(true);
    separator_ = new QLineEdit(QStringLiteral(";"), this);
    separator_->setObjectName(QStringLiteral("labelSeparator"));
    separator_->setMaxLength(1);
    separator_->setMaximumWidth(40);
    separator_->setToolTip(tr("The character between the labels of a cell (multi-label)"));
    columns_ = new QRadioButton(tr("One 0/1 col&umn per label"), this);
    columns_->setObjectName(QStringLiteral("labelsFromColumns"));
    columns_->setToolTip(
        tr("Each label has its own column: 1 (or true) where a row has the label, 0 (or false) "
           "where it does not"));
    list_ = new QListWidget(this);
    list_->setObjectName(QStringLiteral("labelColumns"));
    list_->setToolTip(tr("Check the label columns: each holds 1 (or true) where a row has the "
                         "label, 0 (or false) where it does not."));

    auto* oneColumn = new QHBoxLayout();
    oneColumn->setContentsMargins(0, 0, 0, 0);
    oneColumn->addWidget(separated_);
    oneColumn->addWidget(separator_);
    oneColumn->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(oneColumn);
    layout->addWidget(columns_);
    layout->addWidget(list_);

    // The two buttons are exclusive: one toggles whenever the way changes.
    connect(columns_, &QRadioButton::toggled, this, [this] {
        showWay();
        Q_EMIT changed();
    });
    connect(list_, &QListWidget::itemChanged, this, &LabelColumnsChoice::changed);
    connect(separator_, &QLineEdit::editingFinished, this, &LabelColumnsChoice::changed);
    showWay();
}

void LabelColumnsChoice::showWay() {
    const bool fromColumns = columns_->isChecked();
    separator_->setEnabled(!fromColumns);
    list_->setVisible(fromColumns);
    if (fromColumns && list_->count() > 0) {
        const int rows = std::min(list_->count(), kListRows);
        // Before the list is first shown its rows may not know their height yet.
        const int row = std::max(list_->sizeHintForRow(0), list_->fontMetrics().height() + 6);
        list_->setFixedHeight(rows * row + 2 * list_->frameWidth());
    }
}

void LabelColumnsChoice::setColumns(const QStringList& columns) {
    {
        const QSignalBlocker blockList(list_);
        list_->clear();
        for (const auto& column : columns) {
            auto* item = new QListWidgetItem(column, list_);
            item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
            item->setCheckState(Qt::Unchecked);
        }
    }
    setFromColumns(false);
}

bool LabelColumnsChoice::fromColumns() const {
    return columns_->isChecked();
}

void LabelColumnsChoice::setFromColumns(bool fromColumns) {
    {
        const QSignalBlocker blockSeparated(separated_);
        const QSignalBlocker blockColumns(columns_);
        (fromColumns ? columns_ : separated_)->setChecked(true);
    }
    showWay();
}

std::vector<std::string> LabelColumnsChoice::checkedColumns() const {
    std::vector<std::string> checked;
    for (int i = 0; i < list_->count(); ++i) {
        if (list_->item(i)->checkState() == Qt::Checked) {
            checked.push_back(list_->item(i)->text().toStdString());
        }
    }
    return checked;
}

QStringList LabelColumnsChoice::checkColumns(const std::vector<std::string>& columns) {
    QStringList missing;
    for (const auto& column : columns) {
        const auto name = QString::fromStdString(column);
        if (list_->findItems(name, Qt::MatchExactly).isEmpty()) {
            missing << name;
        }
    }
    const QSignalBlocker blockList(list_);
    for (int i = 0; i < list_->count(); ++i) {
        const auto name = list_->item(i)->text().toStdString();
        const bool chosen = missing.isEmpty() &&
                            std::find(columns.begin(), columns.end(), name) != columns.end();
        list_->item(i)->setCheckState(chosen ? Qt::Checked : Qt::Unchecked);
    }
    return missing;
}

char LabelColumnsChoice::separator() const {
    const auto text = separator_->text().trimmed();
    return text.isEmpty() ? ';' : text.at(0).toLatin1();
}

void LabelColumnsChoice::setSeparator(char separator) {
    separator_->setText(QString(QLatin1Char(separator)));
}

}  // namespace bert::ui
