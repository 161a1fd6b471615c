// Issue 29, points 2 and 6: multi-label from one 0/1 column per label in the studio's dataset
// tab, and histogram axes whose labels are never cut short. Files are opened through the Open
// dataset dialog; the way the labels are read is chosen with the radio buttons, the label columns
// checked in their list with a click and Space, as a person does; a run trains through Start and
// its stored labels are the columns' names.
#include <fstream>
#include <map>

#include <QAbstractButton>
#include <QCategoryAxis>
#include <QListWidget>
#include <QRadioButton>

#include "TaskDatasetFixture.h"
#include "dataset/TaskSummary.h"
#include "runs/TrainingJob.h"

namespace bert::test {
namespace {

const char* const kTexts[] = {"you are an idiot", "thanks for the help", "i will find you",
                              "what a stupid idea", "nice work on this", "get lost or else"};

class MultiLabelColumns : public TaskDataset {
protected:
    QListWidget* labelList() const {
        return page()->findChild<QListWidget*>(QStringLiteral("labelColumns"));
    }
    QRadioButton* fromColumnsButton() const {
        return page()->findChild<QRadioButton*>(QStringLiteral("labelsFromColumns"));
    }
    QComboBox* labelCombo() const {
        // The third column combo box of the form: text, second text, label.
        for (auto* combo : page()->findChildren<QComboBox*>()) {
            if (combo->toolTip().contains(QStringLiteral("class of each row"))) {
                return combo;
            }
        }
        return nullptr;
    }
    QStringList checkedColumns() const {
        QStringList checked;
        for (int i = 0; i < labelList()->count(); ++i) {
            if (labelList()->item(i)->checkState() == Qt::Checked) {
                checked << labelList()->item(i)->text();
            }
        }
        return checked;
    }
    /// Checks or unchecks a column as a person does: a click on its row, then Space.
    void toggleColumn(const QString& name) {
        auto* list = labelList();
        bringToFront(list);
        const auto items = list->findItems(name, Qt::MatchExactly);
        ASSERT_EQ(items.size(), 1) << name.toStdString();
        const auto row = list->visualItemRect(items.front());
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, row.center());
        QTest::keyClick(list, Qt::Key_Space);
    }
};

TEST_F(MultiLabelColumns, ZeroOneColumnsAreGuessedCountedAndTrainUnderTheirNames) {
    // An id, a text and three 0/1 columns: toxic on every second row, insult on every third,
    // threat on every fourth (from the second).
    std::map<std::pair<std::string, std::string>, int> together;
    {
        std::ofstream csv(dir_ / "comments.csv");
        csv << "id,text,toxic,insult,threat\n";
        for (int i = 0; i < 48; ++i) {
            const bool toxic = i % 2 == 0;
            const bool insult = i % 3 == 0;
            const bool threat = i % 4 == 1;
            std::vector<std::string> labels;
            const std::vector<std::pair<std::string, bool>> columns = {
                {"toxic", toxic}, {"insult", insult}, {"threat", threat}};
            for (const auto& [name, on] : columns) {
                if (on) {
                    labels.push_back(name);
                }
            }
            for (const auto& label : labels) {
                for (const auto& other : labels) {
                    ++together[{label, other}];
                }
            }
            csv << 1000 + i << "," << kTexts[i % 6] << " " << i << "," << int(toxic) << ","
                << int(insult) << "," << int(threat) << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "comments.csv");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_EQ(page()->task(), TaskKind::MultiLabel);
    // Guessed, and said why: the columns that hold only 0 and 1.
    EXPECT_TRUE(page()->taskGuessText().contains(QStringLiteral("one 0/1 column per label")))
        << page()->taskGuessText().toStdString();
    EXPECT_TRUE(page()->taskGuessText().contains(QStringLiteral("toxic, insult, threat")))
        << page()->taskGuessText().toStdString();
    EXPECT_TRUE(fromColumnsButton()->isChecked());
    EXPECT_TRUE(labelList()->isVisible());
    EXPECT_EQ(checkedColumns(), (QStringList{"toxic", "insult", "threat"}));
    ASSERT_NE(labelCombo(), nullptr);
    EXPECT_FALSE(labelCombo()->isEnabled());  // the columns are the labels
    EXPECT_TRUE(page()->summaryText().contains(
        QStringLiteral("48 examples with 3 labels from their 0/1 columns")))
        << page()->summaryText().toStdString();
    // Co-occurrence over the labels sorted by name, and each label's examples.
    const std::vector<std::string> names = {"insult", "threat", "toxic"};
    auto* table = taskTable();
    ASSERT_TRUE(table->isVisible());
    ASSERT_EQ(table->rowCount(), 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(table->verticalHeaderItem(i)->text().toStdString(), names[i]);
        for (int j = 0; j < 3; ++j) {
            EXPECT_EQ(table->item(i, j)->text().toInt(), (together[{names[i], names[j]}]))
                << names[i] << " with " << names[j];
        }
    }
    EXPECT_EQ(bars(), (std::vector<double>{16, 12, 24}));

    // Unchecked, a column is no label; checked again, it is.
    toggleColumn(QStringLiteral("threat"));
    EXPECT_EQ(checkedColumns(), (QStringList{"toxic", "insult"}));
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("48 examples with 2 labels")))
        << page()->summaryText().toStdString();
    EXPECT_EQ(taskTable()->rowCount(), 2);
    toggleColumn(QStringLiteral("threat"));
    EXPECT_EQ(checkedColumns(), (QStringList{"toxic", "insult", "threat"}));
    EXPECT_EQ(taskTable()->rowCount(), 3);

    // A run started from the studio on two of the columns reads those: its job names them, its
    // labels are theirs.
    toggleColumn(QStringLiteral("insult"));
    ASSERT_EQ(checkedColumns(), (QStringList{"toxic", "threat"}));
    const auto run = trainOneEpoch();
    const auto job = jobOfRun(run);
    EXPECT_EQ(job.data.task.kind, TaskKind::MultiLabel);
    EXPECT_EQ(job.data.task.labelColumns, (std::vector<std::string>{"toxic", "threat"}));
    EXPECT_TRUE(job.data.task.labelSeparator.empty());
    const std::vector<std::string> trained = {"threat", "toxic"};
    EXPECT_EQ(run.labels, trained);
    const auto task = lastEvaluationTask(run.id);
    ASSERT_EQ(task.value("task", ""), "multi-label");
    ASSERT_EQ(task["per_label"].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(task["per_label"][i]["label"].get<std::string>(), trained[i]);
    }

    // Train again brings the run's columns back, checked (not the three the file suggests).
    toggleColumn(QStringLiteral("insult"));
    ASSERT_EQ(checkedColumns(), (QStringList{"toxic", "insult", "threat"}));
    clickRuns(window_->runsPage(), {run.id});
    clickButton(window_->runsPage(), QStringLiteral("Train again"));
    EXPECT_EQ(page()->task(), TaskKind::MultiLabel);
    EXPECT_TRUE(fromColumnsButton()->isChecked());
    EXPECT_EQ(checkedColumns(), (QStringList{"toxic", "threat"}));
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_TRUE(page()->summaryText().contains(QStringLiteral("with 2 labels")))
        << page()->summaryText().toStdString();
}

TEST_F(MultiLabelColumns, AColumnThatIsNotZeroOrOneIsRefusedWithItsFileLineAndColumn) {
    // spam and ham hold 0/1; severity is a class (0, 1, 2) with a 2 on line 8.
    {
        std::ofstream csv(dir_ / "mails.csv");
        csv << "text,spam,ham,severity\n";
        for (int i = 0; i < 30; ++i) {
            csv << kTexts[i % 6] << "," << int(i % 2 == 0) << "," << int(i % 2 != 0) << ","
                << (i == 6 ? 2 : i % 2) << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "mails.csv");
    // severity looks like the label column (it is not all 0/1): one label per text.
    EXPECT_EQ(page()->task(), TaskKind::SingleLabel);
    chooseTask(TaskKind::MultiLabel);
    EXPECT_FALSE(labelList()->isVisible());
    // The other way: the columns that hold only 0 and 1 are checked for the user.
    click(fromColumnsButton());
    EXPECT_TRUE(fromColumnsButton()->isChecked());
    EXPECT_TRUE(labelList()->isVisible());
    EXPECT_EQ(checkedColumns(), (QStringList{"spam", "ham"}));
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();

    toggleColumn(QStringLiteral("severity"));
    EXPECT_FALSE(page()->hasData());
    const auto error = page()->errorText();
    EXPECT_TRUE(error.contains(QStringLiteral("mails.csv"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("line 8"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("\"severity\""))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("\"2\" is not 0 or 1"))) << error.toStdString();

    toggleColumn(QStringLiteral("severity"));
    EXPECT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    EXPECT_TRUE(page()->errorText().isEmpty());
    // Back to one label column: the label combo box is used again.
    click(page()->findChild<QRadioButton*>(QStringLiteral("labelsSeparated")));
    EXPECT_TRUE(labelCombo()->isEnabled());
    EXPECT_FALSE(labelList()->isVisible());
}

TEST(HistogramTicks, NameRoundValuesWhereTheyFallUnderTheBars) {
    // 13 bins of one token: 0, 5 and 10 tokens, at the left edges of bars 0, 5 and 10.
    const auto tokens = ui::histogramTicks(0.0, 1.0, 13, 7);
    ASSERT_EQ(tokens.size(), 3u);
    EXPECT_EQ(tokens[0].label, QStringLiteral("0"));
    EXPECT_EQ(tokens[1].label, QStringLiteral("5"));
    EXPECT_EQ(tokens[2].label, QStringLiteral("10"));
    EXPECT_DOUBLE_EQ(tokens[1].position, 4.5);
    // 16 bins of 20 tokens: every 100 (at most 7 labels), not a label per bar.
    const auto wide = ui::histogramTicks(0.0, 20.0, 16, 7);
    ASSERT_EQ(wide.size(), 4u);
    EXPECT_EQ(wide.back().label, QStringLiteral("300"));
    EXPECT_DOUBLE_EQ(wide.back().position, 300.0 / 20.0 - 0.5);
    // Targets from 1.5 in bins of 0.975: round values 2, 4, ... 10 inside [1.5, 11.25].
    const auto targets = ui::histogramTicks(1.5, 0.975, 10, 7);
    ASSERT_EQ(targets.size(), 5u);
    EXPECT_EQ(targets.front().label, QStringLiteral("2"));
    EXPECT_DOUBLE_EQ(targets.front().position, 0.5 / 0.975 - 0.5);
    // Small values get the decimals their interval needs, and no "-0.0".
    const auto small = ui::histogramTicks(-0.07, 0.0519, 10, 7);
    ASSERT_FALSE(small.empty());
    for (const auto& tick : small) {
        EXPECT_EQ(tick.label.size(), 3) << tick.label.toStdString();  // 0.0, 0.1, ... 0.4
        EXPECT_FALSE(tick.label.startsWith(QLatin1Char('-'))) << tick.label.toStdString();
    }
}

// dataset-ner.png showed the token-length histogram's last labels as "..." (a label under each
// of 13 narrow bars, rotated): every histogram of the tab now names a few round values.
TEST_F(TaskDataset, HistogramAxesNameRoundValuesNeverCutShort) {
    chooseTinyModel();
    {
        // Sentences of 1 to 150 words: 16 bins of 10 tokens under the old axis.
        std::ofstream conll(dir_ / "long.conll");
        for (int length = 1; length <= 150; ++length) {
            for (int w = 0; w < length; ++w) {
                conll << (w == 0 ? "cat B-PER\n" : "mat O\n");
            }
            conll << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "long.conll");
    ASSERT_TRUE(page()->hasData()) << page()->errorText().toStdString();
    auto* lengths = page()->findChild<QChartView*>(QStringLiteral("lengthChart"));
    ASSERT_NE(lengths, nullptr);
    auto* axis = qobject_cast<QCategoryAxis*>(lengths->chart()->axes(Qt::Horizontal).front());
    ASSERT_NE(axis, nullptr);
    const auto labels = axis->categoriesLabels();
    EXPECT_GE(labels.size(), 3);
    EXPECT_LE(labels.size(), 7);
    for (const auto& label : labels) {
        bool number = false;
        EXPECT_EQ(label.toInt(&number) % 10, 0) << label.toStdString();
        EXPECT_TRUE(number) << label.toStdString();
    }
    // Every sentence is counted once, in a bin or past the last.
    double counted = 0.0;
    for (auto* series : lengths->chart()->series()) {
        for (auto* set : qobject_cast<QAbstractBarSeries*>(series)->barSets()) {
            for (int b = 0; b < set->count(); ++b) {
                counted += set->at(b);
            }
        }
    }
    EXPECT_EQ(counted, 150.0);
    expectLabelsWhole(lengths);

    // A regression target's histogram and its token lengths.
    {
        std::ofstream csv(dir_ / "scores.csv");
        csv << "text,score\n";
        for (int i = 0; i < 60; ++i) {
            csv << kTexts[i % 6] << "," << -0.07 + 0.0875 * i << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "scores.csv");
    ASSERT_EQ(page()->task(), TaskKind::Regression);
    auto* targets = page()->findChild<QChartView*>(QStringLiteral("taskChart"));
    ASSERT_NE(qobject_cast<QCategoryAxis*>(targets->chart()->axes(Qt::Horizontal).front()),
              nullptr);
    expectLabelsWhole(targets);
    expectLabelsWhole(lengths);
}

}  // namespace
}  // namespace bert::test
