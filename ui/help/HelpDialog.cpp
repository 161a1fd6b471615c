#include "help/HelpDialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "common/Names.h"
#include "train/TrainingOptions.h"

namespace bert::ui {

namespace {

QString optionText(const char* text) {
    return Names::withoutMnemonic(QCoreApplication::translate("TrainingOptions", text));
}

QString techniquesHtml() {
    QString html =
        QStringLiteral("<h3>%1</h3><p>%2</p>")
            .arg(HelpDialog::tr("Memory techniques"),
                 HelpDialog::tr("Each switch on Model & techniques saves memory at a cost, said "
                                "here and in its tooltip. The forecast bar shows the peak of a "
                                "training step and of an evaluation against the device or the "
                                "memory cap; when either does not fit, the page names the change "
                                "that loses the least time, which one click applies and another "
                                "undoes. A run that still runs out of memory halves its "
                                "micro-batch and doubles the accumulation, so the effective batch "
                                "stays."));
    html += QStringLiteral("<dl>");
    for (const auto& option : trainingOptions()) {
        if (std::string(option.technique).empty()) {
            continue;
        }
        html += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>")
                    .arg(optionText(option.label).toHtmlEscaped(),
                         optionText(option.help).toHtmlEscaped());
    }
    html += QStringLiteral("</dl><h3>%1</h3><p>%2</p>")
                .arg(HelpDialog::tr("Before a long run"),
                     HelpDialog::tr(
                         "Set the memory cap to the memory of the machine the run is meant for: "
                         "the forecast, Largest batch that fits and the run itself then behave "
                         "as they would there. The dataset tab shows the token lengths, the "
                         "padding each batching wastes, and the share of tokens the model's "
                         "vocabulary cannot read."));
    return html;
}

QString shortcutsHtml(const HelpDialog::Shortcuts& shortcuts) {
    QString html = QStringLiteral("<h3>%1</h3><table cellpadding=\"3\">")
                       .arg(HelpDialog::tr("Keyboard shortcuts"));
    for (const auto& [what, keys] : shortcuts) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.toString(QKeySequence::NativeText).toHtmlEscaped(),
                         Names::withoutMnemonic(what).toHtmlEscaped());
    }
    html += QStringLiteral("</table><p>%1</p>")
                .arg(HelpDialog::tr("Alt with the underlined letter of a tab, a button or a "
                                    "field's label goes there."));
    return html;
}

}  // namespace

HelpDialog::HelpDialog(const Shortcuts& shortcuts, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("BERT Studio guide"));
    techniques_ = new QTextBrowser(this);
    techniques_->setObjectName(QStringLiteral("techniquesGuide"));
    techniques_->setHtml(techniquesHtml());
    shortcuts_ = new QTextBrowser(this);
    shortcuts_->setObjectName(QStringLiteral("shortcutsGuide"));
    shortcuts_->setHtml(shortcutsHtml(shortcuts));
    tabs_ = new QTabWidget(this);
    tabs_->addTab(techniques_, tr("&Techniques"));
    tabs_->addTab(shortcuts_, tr("&Shortcuts"));
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setText(tr("&Close"));
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs_, 1);
    layout->addWidget(close);
    resize(720, 600);
}

void HelpDialog::showPage(int page) {
    tabs_->setCurrentIndex(page);
}

int HelpDialog::currentPage() const {
    return tabs_->currentIndex();
}

QString HelpDialog::techniquesText() const {
    return techniques_->toPlainText();
}

QString HelpDialog::shortcutsText() const {
    return shortcuts_->toPlainText();
}

}  // namespace bert::ui
