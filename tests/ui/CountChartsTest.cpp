// Issue 29, point 6: the dataset tab's count charts ("Examples per label", "Label counts",
// "Entities per type") name every label whole. dataset-multi-label.png showed "ma...", "mo..."
// and "spa..." under vertical bars for mailing-list, money and spamassassin: a name under each
// bar had a bar's width. Files are opened through the Open dataset dialog, the task is chosen
// with the keyboard, and the chart is laid out and drawn before its texts are read.
#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <QBarCategoryAxis>
#include <QGraphicsTextItem>

#include "TaskDatasetFixture.h"

namespace bert::test {
namespace {

constexpr int kLabelChars = 16;  // the dataset tab cuts longer names (DatasetTasks.cpp)

class CountCharts : public TaskDataset {
protected:
    /// Writes a multi-label CSV of `rows` rows, labels separated by ';' as in the e-mails' set:
    /// row i has label k when i % (k + 2) == 0, and the first label when it has no other.
    /// Returns each label's examples, by name.
    std::map<std::string, std::size_t> writeLabels(const std::filesystem::path& file,
                                                   const std::vector<std::string>& names,
                                                   int rows) {
        std::map<std::string, std::size_t> counts;
        std::ofstream csv(file);
        csv << "text,labels\n";
        for (int i = 0; i < rows; ++i) {
            std::string cell;
            for (std::size_t k = 0; k < names.size(); ++k) {
                if (i % static_cast<int>(k + 2) == 0) {
                    cell += (cell.empty() ? "" : ";") + names[k];
                    ++counts[names[k]];
                }
            }
            if (cell.empty()) {
                cell = names.front();
                ++counts[names.front()];
            }
            csv << "mail " << i << " about the list and its money," << cell << "\n";
        }
        return counts;
    }
    QChartView* chartView() const {
        return page()->findChild<QChartView*>(QStringLiteral("taskChart"));
    }
    /// The names on the chart's category axis, top to bottom (Qt draws the first at the bottom).
    QStringList categories() const {
        for (auto* axis : taskChart()->axes()) {
            if (auto* names = qobject_cast<QBarCategoryAxis*>(axis); names != nullptr) {
                auto categories = names->categories();
                std::reverse(categories.begin(), categories.end());
                return categories;
            }
        }
        return {};
    }
    /// The visible text items of the drawn chart whose text is one of `names`.
    std::vector<const QGraphicsTextItem*> shownNames(const QStringList& names) const {
        auto* view = chartView();
        QCoreApplication::processEvents();  // the chart's pending layout
        // The items of the charts drawn before, deleted later: no event loop runs here.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        view->grab();
        std::vector<const QGraphicsTextItem*> shown;
        for (auto* item : view->scene()->items()) {
            const auto* text = dynamic_cast<QGraphicsTextItem*>(item);
            if (text != nullptr && text->isVisible() && names.contains(text->toPlainText())) {
                shown.push_back(text);
            }
        }
        return shown;
    }
    /// Every label's name (cut at kLabelChars) is on the chart, drawn whole, apart from the
    /// others, beside its bar of the right count.
    void expectEveryLabelWhole(const std::map<std::string, std::size_t>& counts) {
        QStringList names;
        std::vector<double> values;
        for (const auto& [name, count] : counts) {
            names << QString::fromStdString(name).left(kLabelChars);
            values.push_back(static_cast<double>(count));
        }
        EXPECT_EQ(categories(), names);
        EXPECT_EQ(bars(), values);
        const auto shown = shownNames(names);
        QStringList found;
        for (const auto* text : shown) {
            found << text->toPlainText();
        }
        for (const auto& name : names) {
            EXPECT_TRUE(found.contains(name)) << taskChart()->title().toStdString() << ": "
                                              << name.toStdString() << " is not shown whole";
        }
        // Readable: no two names drawn over each other.
        for (std::size_t a = 0; a < shown.size(); ++a) {
            for (std::size_t b = a + 1; b < shown.size(); ++b) {
                const auto first = shown[a]->sceneBoundingRect().adjusted(0, 1, 0, -1);
                const auto second = shown[b]->sceneBoundingRect().adjusted(0, 1, 0, -1);
                EXPECT_FALSE(first.intersects(second))
                    << shown[a]->toPlainText().toStdString() << " over "
                    << shown[b]->toPlainText().toStdString();
            }
        }
        expectLabelsWhole(chartView());
    }
};

TEST_F(CountCharts, EveryLabelOfTheSpamassassinSetIsNamedWholeBesideItsCount) {
    chooseTinyModel();
    // The multi-label set's labels (scripts/derive_task_sets.py), and one past the cut.
    const auto counts = writeLabels(dir_ / "mails.csv",
                                    {"mailing-list", "spamassassin", "newsletter", "money", "reply",
                                     "url", "ilug", "exmh-workers-announce"},
                                    120);
    ASSERT_EQ(counts.size(), 8u);
    openDatasetThroughTheDialog(dir_ / "mails.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    ASSERT_EQ(page()->task(), TaskKind::MultiLabel);
    EXPECT_EQ(taskChart()->title(), QStringLiteral("Examples per label"));
    expectEveryLabelWhole(counts);

    // The same cells as single-label classes: the same chart of counts, named whole.
    chooseTask(TaskKind::SingleLabel);
    ASSERT_EQ(page()->task(), TaskKind::SingleLabel);
    EXPECT_TRUE(taskChart()->title().startsWith(QStringLiteral("Label counts")))
        << taskChart()->title().toStdString();
    const auto classes = categories();
    EXPECT_GT(classes.size(), 8);
    EXPECT_EQ(shownNames(classes).size(), static_cast<std::size_t>(classes.size()));
    expectLabelsWhole(chartView());
}

TEST_F(CountCharts, TwoLabelsAreNamedWholeAndOfThirtyTheTwentyMostFrequent) {
    chooseTinyModel();
    const auto two = writeLabels(dir_ / "two.csv", {"spam", "mailing-list"}, 40);
    openDatasetThroughTheDialog(dir_ / "two.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    chooseTask(TaskKind::MultiLabel);  // one row in six has both: too few for the guess
    ASSERT_EQ(page()->task(), TaskKind::MultiLabel);
    expectEveryLabelWhole(two);

    std::vector<std::string> topics;
    for (int k = 0; k < 30; ++k) {
        topics.push_back("topic-list-" + std::to_string(100 + k));
    }
    // Label k on every (k + 2)th row: the 20 most frequent are the first 20 by name.
    const auto thirty = writeLabels(dir_ / "thirty.csv", topics, 150);
    ASSERT_EQ(thirty.size(), 30u);
    openDatasetThroughTheDialog(dir_ / "thirty.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    ASSERT_EQ(page()->task(), TaskKind::MultiLabel);
    EXPECT_EQ(taskChart()->title(),
              QStringLiteral("Examples per label: the 20 most frequent of 30"));
    std::map<std::string, std::size_t> mostFrequent;
    for (int k = 0; k < 20; ++k) {
        mostFrequent[topics[k]] = thirty.at(topics[k]);
    }
    EXPECT_GT(mostFrequent.at(topics[19]), thirty.at(topics[20]));
    expectEveryLabelWhole(mostFrequent);
    EXPECT_EQ(taskTable()->rowCount(), 30);  // the table beside names every label
}

}  // namespace
}  // namespace bert::test
