// Token classification in the studio: tagged files (CoNLL, JSON Lines of tokens and tags, span
// JSON), the entities per type, the entities of a text highlighted.
#include <QChart>
#include <QCoreApplication>
#include <QLabel>
#include <QTableWidget>

#include "dataset/DatasetPage.h"
#include "dataset/TaskSummary.h"
#include "task/TaskView.h"
#include "tryit/TryItPage.h"
#include "tryit/TryItResultView.h"

namespace bert::ui {

namespace {

constexpr int kLabelChars = 16;  // longer names are cut on the chart's axis

class TokenClassificationView final : public TaskView {
public:
    TaskKind kind() const override { return TaskKind::TokenClassification; }
    QString name() const override {
        return QCoreApplication::translate("Names", "Token classification (NER)");
    }
    bool readsTaggedWords() const override { return true; }

    bool showSummary(const DatasetSummaryParts& parts) const override {
        if (parts.tagSummary == nullptr) {
            return false;
        }
        const auto& summary = *parts.tagSummary;
        QStringList types;
        std::vector<std::size_t> counts;
        std::size_t entities = 0;
        for (const auto& type : summary.types) {
            const auto found = summary.entityCounts.find(type);
            types << QString::fromStdString(type).left(kLabelChars);
            counts.push_back(found == summary.entityCounts.end() ? 0 : found->second);
            entities += counts.back();
        }
        showCounts(parts.chart, DatasetPage::tr("Entities per type"), types, counts);
        fillEntityCounts(parts.table, summary);
        parts.table->show();
        parts.summary->setText(
            DatasetPage::tr("%1 sentences, %2 words, %3 entities of %4 types; tag scheme %5.")
                .arg(summary.sentences)
                .arg(summary.words)
                .arg(entities)
                .arg(summary.types.size())
                .arg(QString::fromStdString(tagSchemeName(summary.scheme))));
        return true;
    }

    void showResult(TryItResultView& view, const TryItResult& result) const override {
        view.showEntities(result);
    }
    QList<QPair<QString, double>> resultLines(const TryItResult& /*result*/) const override {
        return {};  // the entities are copied from their table
    }
    QString whatCuttingLoses() const override {
        return TryItPage::tr("no entity is found past them");
    }
};

}  // namespace

const TaskView& tokenClassificationView() {
    static const TokenClassificationView view;
    return view;
}

}  // namespace bert::ui
