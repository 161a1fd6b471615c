#include "tryit/TryItResultView.h"

#include <algorithm>
#include <iterator>
#include <numeric>

#include <QColor>
#include <QFont>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "task/TaskView.h"
#include "tryit/FlowLayout.h"

namespace bert::ui {

namespace {

/// Light colours that keep dark text readable (displaCy's entity palette, in spirit).
constexpr const char* kTypePalette[] = {"#7aecec", "#feca74", "#bfeeb7", "#aa9cfc",
                                        "#ff9561", "#ffeb80", "#c887fb", "#9cc9cc",
                                        "#ff8197", "#bfe1d9", "#e4e7d2", "#f0d0ff"};
constexpr const char* kChipStyle =
    "QLabel { background: #d6eaf8; color: #1b2631; border: 1px solid #2e86c1;"
    " border-radius: 11px; padding: 3px 10px; }";

QString percent(double probability) {
    return QString::number(probability * 100.0, 'f', 1) + QLatin1Char('%');
}

QString fromUtf8(const std::string& text) {
    return QString::fromStdString(text);
}

/// Label indices by probability, highest first (ties in label order).
std::vector<std::size_t> byProbability(const std::vector<double>& scores) {
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    return order;
}

/// A row of a label and its probability as a bar; dimmed for a label below the threshold.
void addProbabilityRow(QGridLayout* grid, int row, QWidget* parent, const QString& label,
                       double probability, bool dimmed) {
    auto* name = new QLabel(label, parent);
    name->setMinimumWidth(120);
    auto* bar = new QProgressBar(parent);
    bar->setRange(0, 1000);
    bar->setValue(static_cast<int>(probability * 1000.0));
    bar->setFormat(percent(probability));
    if (dimmed) {
        name->setObjectName(QStringLiteral("tryItOtherLabel"));
        name->setProperty("label", label);
        name->setProperty("probability", probability);
        name->setEnabled(false);  // the style's dimmed text: visible, clearly not chosen
        bar->setEnabled(false);
    }
    grid->addWidget(name, row, 0);
    grid->addWidget(bar, row, 1);
}

}  // namespace

TryItResultView::TryItResultView(const TryItResult& result, QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("tryItResults"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    taskView(result.settings.kind).showResult(*this, result);
}

QColor TryItResultView::typeColour(int typeIndex) {
    constexpr int count = static_cast<int>(std::size(kTypePalette));
    return typeIndex < 0 ? QColor(QStringLiteral("#dddddd"))
                         : QColor(QLatin1String(kTypePalette[typeIndex % count]));
}

std::vector<std::string> TryItResultView::entityTypes(const std::vector<std::string>& labels) {
    std::vector<std::string> types;
    for (const auto& label : labels) {
        if (label.size() > 2 && label[1] == '-') {
            types.push_back(label.substr(2));
        }
    }
    std::sort(types.begin(), types.end());
    types.erase(std::unique(types.begin(), types.end()), types.end());
    return types;
}

void TryItResultView::showProbabilities(const TryItResult& result) {
    auto* grid = new QGridLayout();
    grid->setColumnStretch(1, 1);
    const auto& scores = result.prediction.scores;
    int row = 0;
    for (const auto l : byProbability(scores)) {
        addProbabilityRow(grid, row++, this, fromUtf8(result.labels[l]), scores[l], false);
    }
    qobject_cast<QVBoxLayout*>(layout())->addLayout(grid);
}

void TryItResultView::showLabelChips(const TryItResult& result) {
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    const auto& prediction = result.prediction;
    const QString threshold = QString::number(result.settings.threshold, 'g', 3);
    QString source;
    switch (result.thresholdSource) {
        case ThresholdSource::Run:
            source = tr("the run's threshold");
            break;
        case ThresholdSource::Folder:
            source = tr("the threshold in the model folder's config.json");
            break;
        case ThresholdSource::Default:
            source = tr("the default threshold");
            break;
    }
    auto* said =
        new QLabel(prediction.chosen.empty()
                       ? tr("No label reaches the threshold %1 (%2).").arg(threshold, source)
                       : tr("Labels at or above the threshold %1 (%2):").arg(threshold, source),
                   this);
    said->setObjectName(QStringLiteral("tryItThreshold"));
    said->setWordWrap(true);
    layout->addWidget(said);

    auto* chips = new QWidget(this);
    auto* flow = new FlowLayout(chips);
    std::vector<std::size_t> chosen = prediction.chosen;
    std::stable_sort(chosen.begin(), chosen.end(), [&](std::size_t a, std::size_t b) {
        return prediction.scores[a] > prediction.scores[b];
    });
    for (const auto l : chosen) {
        const auto label = fromUtf8(result.labels[l]);
        auto* chip = new QLabel(QStringLiteral("<b>%1</b>&nbsp;&nbsp;%2")
                                    .arg(label.toHtmlEscaped(), percent(prediction.scores[l])),
                                chips);
        chip->setObjectName(QStringLiteral("tryItChip"));
        chip->setProperty("label", label);
        chip->setProperty("probability", prediction.scores[l]);
        chip->setTextFormat(Qt::RichText);
        chip->setStyleSheet(QLatin1String(kChipStyle));
        flow->addWidget(chip);
    }
    layout->addWidget(chips);

    if (chosen.size() < prediction.scores.size()) {
        auto* below = new QLabel(tr("Below the threshold:"), this);
        below->setEnabled(false);
        layout->addWidget(below);
        auto* grid = new QGridLayout();
        grid->setColumnStretch(1, 1);
        int row = 0;
        for (const auto l : byProbability(prediction.scores)) {
            if (std::find(chosen.begin(), chosen.end(), l) == chosen.end()) {
                addProbabilityRow(grid, row++, this, fromUtf8(result.labels[l]),
                                  prediction.scores[l], true);
            }
        }
        layout->addLayout(grid);
    }
}

void TryItResultView::showValue(const TryItResult& result) {
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    const auto target = result.labels.empty() ? QString() : fromUtf8(result.labels.front());
    auto* name = new QLabel(tr("Predicted “%1”:").arg(target), this);
    name->setObjectName(QStringLiteral("tryItTarget"));
    auto* value = new QLabel(QString::number(result.prediction.value, 'f', 4), this);
    value->setObjectName(QStringLiteral("tryItValue"));
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = value->font();
    if (big.pointSizeF() > 0) {
        big.setPointSizeF(big.pointSizeF() * 2.0);
    } else {
        big.setPixelSize(big.pixelSize() * 2);  // a font sized in pixels has no point size
    }
    big.setBold(true);
    value->setFont(big);
    const auto& scaling = result.settings.scaling;
    auto* units = new QLabel(
        scaling.isIdentity()
            ? tr("In the target's units, as the model was trained on them.")
            : tr("In the target's units: the run's standardisation (mean %1, scale %2) undone.")
                  .arg(QString::number(scaling.mean, 'g', 6),
                       QString::number(scaling.scale, 'g', 6)),
        this);
    units->setEnabled(false);
    units->setWordWrap(true);
    layout->addWidget(name);
    layout->addWidget(value);
    layout->addWidget(units);
}

void TryItResultView::showEntities(const TryItResult& result) {
    auto* layout = qobject_cast<QVBoxLayout*>(this->layout());
    const auto types = entityTypes(result.labels);
    auto indexOf = [&](const std::string& type) {
        const auto found = std::find(types.begin(), types.end(), type);
        return found == types.end() ? -1 : static_cast<int>(found - types.begin());
    };
    const auto& text = result.prediction.words.text;
    auto entities = result.prediction.entities;
    std::stable_sort(entities.begin(), entities.end(),
                     [](const auto& a, const auto& b) { return a.byteBegin < b.byteBegin; });

    // The text with each entity on its type's colour and its type after it (byte offsets: the
    // entities are placed in the text as typed).
    QString html = QStringLiteral("<p style=\"white-space: pre-wrap; line-height: 150%\">");
    std::size_t at = 0;
    for (const auto& entity : entities) {
        if (entity.byteBegin < at) {
            continue;  // overlapping spans never come from one tag sequence; shown once
        }
        html += fromUtf8(text.substr(at, entity.byteBegin - at)).toHtmlEscaped();
        html +=
            QStringLiteral(
                "<span style=\"background-color: %1; color: #1b2631\">%2"
                "<span style=\"font-size: small; font-weight: 700\"> %3</span>"
                "</span>")
                .arg(typeColour(indexOf(entity.type)).name(), fromUtf8(entity.text).toHtmlEscaped(),
                     fromUtf8(entity.type).toHtmlEscaped());
        at = entity.byteEnd;
    }
    html +=
        fromUtf8(text.substr(std::min(at, text.size()))).toHtmlEscaped() + QStringLiteral("</p>");
    auto* shown = new QTextBrowser(this);
    shown->setObjectName(QStringLiteral("tryItHighlighted"));
    shown->setHtml(html);
    shown->setMinimumHeight(shown->fontMetrics().lineSpacing() * 4);
    shown->setMaximumHeight(shown->fontMetrics().lineSpacing() * 8);
    layout->addWidget(shown);

    auto* legend = new QWidget(this);
    auto* flow = new FlowLayout(legend);
    auto* legendTitle = new QLabel(tr("Entity types:"), legend);
    flow->addWidget(legendTitle);
    for (std::size_t t = 0; t < types.size(); ++t) {
        auto* swatch = new QLabel(fromUtf8(types[t]), legend);
        swatch->setObjectName(QStringLiteral("tryItLegend"));
        swatch->setProperty("type", fromUtf8(types[t]));
        swatch->setStyleSheet(QStringLiteral("QLabel { background: %1; color: #1b2631;"
                                             " border-radius: 4px; padding: 2px 8px; }")
                                  .arg(typeColour(static_cast<int>(t)).name()));
        flow->addWidget(swatch);
    }
    layout->addWidget(legend);

    if (entities.empty()) {
        auto* none = new QLabel(tr("No entities found in this text."), this);
        none->setObjectName(QStringLiteral("tryItNoEntities"));
        layout->addWidget(none);
        return;
    }
    auto* table = new QTableWidget(static_cast<int>(entities.size()), 4, this);
    table->setTabKeyNavigation(false);
    table->setObjectName(QStringLiteral("tryItEntities"));
    table->setHorizontalHeaderLabels({tr("Text"), tr("Type"), tr("Start"), tr("End")});
    table->horizontalHeaderItem(2)->setToolTip(
        tr("The entity's first character in the text, counted from 0"));
    table->horizontalHeaderItem(3)->setToolTip(
        tr("The entity's last character in the text, included (as predict --file writes it)"));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int r = 0; r < table->rowCount(); ++r) {
        const auto& entity = entities[static_cast<std::size_t>(r)];
        auto* type = new QTableWidgetItem(fromUtf8(entity.type));
        type->setBackground(typeColour(indexOf(entity.type)));
        type->setForeground(QColor(QStringLiteral("#1b2631")));
        table->setItem(r, 0, new QTableWidgetItem(fromUtf8(entity.text)));
        table->setItem(r, 1, type);
        table->setItem(r, 2, new QTableWidgetItem(QString::number(entity.charBegin)));
        table->setItem(r, 3, new QTableWidgetItem(QString::number(entity.charEnd)));
    }
    table->setMaximumHeight(
        table->horizontalHeader()->sizeHint().height() +
        table->verticalHeader()->defaultSectionSize() * std::min(table->rowCount(), 6) + 4);
    layout->addWidget(table);
}

}  // namespace bert::ui
