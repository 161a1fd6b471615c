// Issue 27, points 1 and 6: Try it classifies again and again, and Ctrl+Return there classifies
// instead of starting a run; on the tabs where a run is set up, Ctrl+Return starts it.
// Issue 29, point 6: Try it per task. A run of each task is trained through Start on data the
// test writes, chosen in Try it's list with the keys, a text typed and Classify clicked; what the
// page shows (label chips over the threshold, the value in the target's units, the entities
// highlighted by type) is checked against the core's prediction (runs/TaskPrediction.h, what
// `bert-studio-cli predict` prints) for the same model and text.
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include "StudioFixture.h"
#include "common/MetricsCharts.h"
#include "dataset/DatasetPage.h"
#include "hf/ModelFolder.h"
#include "main/MainWindow.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"
#include "runs/TaskPrediction.h"
#include "training/TrainingPage.h"
#include "tryit/TryItPage.h"

namespace bert::test {
namespace {

class TryIt : public StudioFixture {
protected:
    QPlainTextEdit* textBox() const { return window_->tryItPage()->findChild<QPlainTextEdit*>(); }
    /// Types text into Try it's box as a person does: a click into it, Ctrl+A, the keys.
    void typeText(const QString& text) {
        auto* box = textBox();
        ASSERT_NE(box, nullptr);
        // A dialog was open: the window is active again, as after a person's click into it.
        window_->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(window_.get()));
        bringToFront(box);
        QTest::mouseClick(box->viewport(), Qt::LeftButton);
        QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(box, text);
        ASSERT_EQ(box->toPlainText(), text);
    }
    /// Chooses a model folder (the tiny model's unless told) with "Model folder…" and its dialog.
    void chooseModelFolder(const std::filesystem::path& folder = {}) {
        const auto path =
            QString::fromStdString((folder.empty() ? dir_ / "model" : folder).string());
        const auto chosen = chooseFileInNextDialog(path);
        clickButton(window_->tryItPage(), QStringLiteral("Model folder…"));
        ASSERT_TRUE(waitUntil([&] { return *chosen; }, 30000));
        ASSERT_TRUE(window_->tryItPage()->currentModelText().contains(path))
            << window_->tryItPage()->currentModelText().toStdString();
    }

    ui::TryItPage* tryIt() const { return window_->tryItPage(); }
    /// Opens file through the dialog and trains the tiny model on it through Start (its task
    /// as the dataset tab guessed it); Try it then shows the new run.
    qint64 trainOn(const std::filesystem::path& file, std::size_t epochs) {
        openDatasetThroughTheDialog(file);
        EXPECT_TRUE(window_->datasetPage()->hasData())
            << window_->datasetPage()->errorText().toStdString();
        chooseTinyModel();
        setConfig(quickConfig(epochs));
        const auto run = trainThroughTheStartButton();
        EXPECT_GT(run, 0);
        return run;
    }
    /// Types text, clicks Classify and waits for the result.
    void classifyText(const QString& text) {
        QSignalSpy classified(tryIt(), &ui::TryItPage::classified);
        typeText(text);
        clickButton(tryIt(), QStringLiteral("Classify"));
        ASSERT_TRUE(waitUntil([&] { return classified.count() == 1; }, 60000))
            << "the classification did not end: " << tryIt()->errorText().toStdString();
    }
    /// Chooses a run in Try it's list as a person does with the keyboard.
    void chooseRunWithKeys(qint64 runId) {
        auto* combo = tryIt()->findChild<QComboBox*>();
        ASSERT_NE(combo, nullptr);
        int target = -1;
        for (int i = 0; i < combo->count(); ++i) {
            if (combo->itemText(i).startsWith(QStringLiteral("run %1:").arg(runId))) {
                target = i;
            }
        }
        ASSERT_GE(target, 0) << "run " << runId << " is not in Try it's list";
        bringToFront(combo);
        combo->setFocus();
        while (combo->currentIndex() != target) {
            QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
        }
    }
    /// What the core predicts for a text with a model, read as `predict` reads it.
    struct CorePrediction {
        TaskSettings settings;
        std::vector<std::string> labels;
        TextPrediction prediction;
    };
    /// With a run's model: its settings, at quickConfig's max length (as the run trained).
    CorePrediction runPrediction(qint64 runId, const QString& text) {
        RunStore store(dir_ / "runs.sqlite", RunStore::Access::ReadOnly);
        const auto run = store.run(runId);
        EXPECT_TRUE(run.has_value());
        return predictWith(loadModelFolder(requireModelCheckpoint(store, runId)),
                           taskSettingsOfRun(*run, store.evaluations(runId)),
                           quickConfig(1).maxLength, text);
    }
    /// With a model folder: its config.json's settings, at 512 tokens (Try it's for a folder).
    static CorePrediction folderPrediction(const std::filesystem::path& folder,
                                           const QString& text) {
        auto bundle = loadModelFolder(folder);
        const auto settings = taskSettingsOfConfig(bundle.config, folder / "config.json");
        return predictWith(std::move(bundle), settings, 512, text);
    }
    static CorePrediction predictWith(ModelBundle bundle, const TaskSettings& settings,
                                      std::size_t maxLength, const QString& text) {
        auto prediction = predictTexts(settings, *bundle.model, *bundle.tokenizer,
                                       {text.toStdString()}, maxLength, 1, c10::Device(c10::kCPU));
        return {settings, bundle.config.labels, std::move(prediction.front())};
    }
    /// The shown labels (chips, or the dimmed rows below the threshold) and their probabilities.
    std::map<std::string, double> shownLabels(const QString& objectName) const {
        std::map<std::string, double> shown;
        for (auto* label : tryIt()->findChildren<QLabel*>(objectName)) {
            const auto name = label->property("label").toString();
            EXPECT_TRUE(label->isVisible()) << name.toStdString();
            EXPECT_TRUE(label->text().contains(name)) << label->text().toStdString();
            shown[name.toStdString()] = label->property("probability").toDouble();
        }
        return shown;
    }
    /// The words on a label's chip, as a person reads them.
    QString chipText(const std::string& label) const {
        for (auto* chip : tryIt()->findChildren<QLabel*>(QStringLiteral("tryItChip"))) {
            if (chip->property("label").toString().toStdString() == label) {
                QTextDocument shown;
                shown.setHtml(chip->text());
                return shown.toPlainText().replace(QChar::Nbsp, QLatin1Char(' '));
            }
        }
        return {};
    }
    /// An entity as the highlighted text shows it: its words on a colour, its type after them.
    struct Highlight {
        QString text;
        QString type;
        QColor colour;
    };
    /// The highlights of Try it's text, read from the document shown: runs of characters on a
    /// background, the bold ones being the type's tag.
    std::vector<Highlight> highlights() const {
        std::vector<Highlight> found;
        auto* browser = tryIt()->findChild<QTextBrowser*>(QStringLiteral("tryItHighlighted"));
        if (browser == nullptr) {
            ADD_FAILURE() << "no highlighted text shown";
            return found;
        }
        bool inEntity = false;
        for (auto block = browser->document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const auto format = it.fragment().charFormat();
                if (format.background().style() == Qt::NoBrush) {
                    inEntity = false;
                } else if (format.fontWeight() >= QFont::Bold) {
                    if (!found.empty()) {
                        found.back().type = it.fragment().text().trimmed();
                    }
                    inEntity = false;
                } else if (inEntity) {
                    found.back().text += it.fragment().text();
                } else {
                    found.push_back({it.fragment().text(), {}, format.background().color()});
                    inEntity = true;
                }
            }
        }
        return found;
    }
    /// Checks the entity view against the core's entities: highlights, table and legend.
    void expectEntitiesShown(const TextPrediction& expected, const QStringList& types) {
        const auto shown = highlights();
        ASSERT_EQ(shown.size(), expected.entities.size());
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const auto& entity = expected.entities[i];
            EXPECT_EQ(shown[i].text.toStdString(), entity.text) << "entity " << i;
            EXPECT_EQ(shown[i].type.toStdString(), entity.type) << "entity " << i;
            for (std::size_t j = 0; j < i; ++j) {  // one colour per type
                EXPECT_EQ(shown[i].colour == shown[j].colour, shown[i].type == shown[j].type);
            }
        }
        auto* table = tryIt()->findChild<QTableWidget*>(QStringLiteral("tryItEntities"));
        if (expected.entities.empty()) {
            EXPECT_EQ(table, nullptr);
            EXPECT_NE(tryIt()->findChild<QLabel*>(QStringLiteral("tryItNoEntities")), nullptr);
        } else {
            ASSERT_NE(table, nullptr);
            ASSERT_EQ(table->rowCount(), static_cast<int>(expected.entities.size()));
            for (int r = 0; r < table->rowCount(); ++r) {
                const auto& entity = expected.entities[static_cast<std::size_t>(r)];
                EXPECT_EQ(table->item(r, 0)->text().toStdString(), entity.text);
                EXPECT_EQ(table->item(r, 1)->text().toStdString(), entity.type);
                EXPECT_EQ(table->item(r, 2)->text().toULongLong(), entity.charBegin);
                EXPECT_EQ(table->item(r, 3)->text().toULongLong(), entity.charEnd);
            }
        }
        QStringList legend;
        for (auto* swatch : tryIt()->findChildren<QLabel*>(QStringLiteral("tryItLegend"))) {
            legend << swatch->text();
        }
        EXPECT_EQ(legend, types);
    }
    /// With BERT_STUDIO_SCREENSHOTS=<folder>, saves the window there as name (for docs/).
    void screenshot(const char* name) {
        const char* folder = std::getenv("BERT_STUDIO_SCREENSHOTS");
        if (folder == nullptr || *folder == '\0') {
            return;
        }
        window_->resize(1000, 760);
        QTest::qWait(200);
        EXPECT_TRUE(window_->grab().save(QString::fromLocal8Bit(folder) + QLatin1Char('/') +
                                         QLatin1String(name)));
    }
};

const char* const kWords[] = {"the", "a", "sat", "on", "was", "very", "it", "i", "loved"};

/// Multi-label rows ('|' between labels): animal when a cat or dog is named, cinema for a film
/// or movie, money for money or an offer, other for a text with none of them.
void writeTopics(const std::filesystem::path& file) {
    std::ofstream csv(file);
    csv << "text,labels\n";
    for (int i = 0; i < 60; ++i) {
        std::string text = std::string(kWords[i % 9]) + " " + kWords[(i * 5 + 2) % 9];
        std::string topics;
        auto add = [&](const char* word, const char* topic) {
            text += std::string(" ") + word;
            topics += (topics.empty() ? "" : "|") + std::string(topic);
        };
        if (i % 2 == 0) {
            add(i % 4 == 0 ? "cat" : "dog", "animal");
        }
        if (i % 3 == 0) {
            add(i % 6 == 0 ? "film" : "movie", "cinema");
        }
        if (i % 5 == 1) {
            add(i % 10 == 1 ? "money" : "offer", "money");
        }
        if (topics.empty()) {
            add("here", "other");
        }
        csv << text << " " << kWords[(i * 7) % 9] << "," << topics << "\n";
    }
}

/// CoNLL sentences: cat (and dog after it) are PER, mat and today LOC.
void writeTags(const std::filesystem::path& file) {
    std::ofstream conll(file);
    conll << "-DOCSTART- O\n\n";
    for (int i = 0; i < 40; ++i) {
        conll << "the O\ncat B-PER\n";
        if (i % 3 == 0) {
            conll << "dog I-PER\n";
        }
        conll << "sat O\non O\nthe O\nmat B-LOC\n";
        if (i % 4 == 0) {
            conll << "today B-LOC\n";
        }
        conll << "\n";
    }
}

/// Chooses text in a combo box with the keyboard, as a person does.
void chooseWithKeys(QComboBox* combo, const QString& text) {
    ASSERT_NE(combo, nullptr);
    const int target = combo->findText(text);
    ASSERT_GE(target, 0) << text.toStdString() << " is not in the list";
    bringToFront(combo);
    combo->setFocus();
    while (combo->currentIndex() != target) {
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    }
}

// A model trained on pairs reads Try it's second text, as `predict --pair` does: the label here
// is in the second text alone, so the answer follows it (it could not, were it dropped).
TEST_F(TryIt, APairModelReadsTheSecondText) {
    {
        std::ofstream csv(dir_ / "pairs.csv");
        csv << "question,answer,sentiment\n";
        for (int i = 0; i < 80; ++i) {
            csv << "what did you think ?,"
                << (i % 2 == 0 ? "\"i loved it, a great film !\""
                               : "\"the film was very bad , awful\"")
                << "," << (i % 2 == 0 ? "pos" : "neg") << "\n";
        }
    }
    openDatasetThroughTheDialog(dir_ / "pairs.csv");
    auto* dataset = window_->datasetPage();
    chooseWithKeys(dataset->findChild<QComboBox*>(QStringLiteral("textColumn")),
                   QStringLiteral("question"));
    chooseWithKeys(dataset->findChild<QComboBox*>(QStringLiteral("pairColumn")),
                   QStringLiteral("answer"));
    chooseWithKeys(dataset->findChild<QComboBox*>(QStringLiteral("labelColumn")),
                   QStringLiteral("sentiment"));
    ASSERT_TRUE(waitUntil([&] { return dataset->hasData(); }, 30000))
        << dataset->errorText().toStdString();
    chooseTinyModel();
    setConfig(quickConfig(3));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    auto* pair = tryIt()->findChild<QLineEdit*>(QStringLiteral("tryItPair"));
    ASSERT_NE(pair, nullptr);
    const auto answer = [&](const QString& second) {
        pair->clear();
        QTest::keyClicks(pair, second);
        classifyText(QStringLiteral("what did you think ?"));
        return tryIt()->lastResult().isEmpty() ? QString() : tryIt()->lastResult().front().first;
    };
    EXPECT_EQ(answer(QStringLiteral("a great film , i loved it")), QStringLiteral("pos"));
    EXPECT_EQ(answer(QStringLiteral("very bad , awful")), QStringLiteral("neg"));
    screenshot("tryit-pair.png");
}

// Point 1: the second Classify crashed the studio (a row's layout was deleted twice; its labels
// and bars were never deleted). Three texts in a row, each showing exactly its rows.
TEST_F(TryIt, ClassifyingAgainAndAgainReplacesTheResult) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(2));
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    auto* tryIt = window_->tryItPage();
    ASSERT_TRUE(tryIt->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)))
        << tryIt->currentModelText().toStdString();
    QSignalSpy classified(tryIt, &ui::TryItPage::classified);
    const QStringList texts = {QStringLiteral("i loved it, a great film !"),
                               QStringLiteral("the film was very bad , awful"),
                               QStringLiteral("a great movie")};
    for (int i = 0; i < texts.size(); ++i) {
        typeText(texts[i]);
        clickButton(tryIt, QStringLiteral("Classify"));
        ASSERT_TRUE(waitUntil([&] { return classified.count() == i + 1; }, 60000))
            << "classification " << i + 1 << " did not end: " << tryIt->errorText().toStdString();
        EXPECT_EQ(tryIt->resultRows(), 2) << "after classification " << i + 1;
        EXPECT_EQ(tryIt->lastResult().size(), 2);
    }
    // The old rows are gone, not hidden under the new ones.
    EXPECT_EQ(tryIt->findChildren<QWidget*>(QStringLiteral("tryItResults")).size(), 1);
}

// Point 6: Ctrl+Return in Try it's text box started a training run.
TEST_F(TryIt, CtrlReturnClassifiesInTryItAndStartsARunOnlyWhereOneIsSetUp) {
    openReviewsThroughTheDialog();
    chooseTinyModel();
    setConfig(quickConfig(400));
    chooseModelFolder();
    auto* tryIt = window_->tryItPage();
    QSignalSpy classified(tryIt, &ui::TryItPage::classified);
    typeText(QStringLiteral("i loved it"));
    QTest::keyClick(textBox(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_FALSE(window_->isTraining()) << "Ctrl+Return in Try it started a run";
    ASSERT_TRUE(waitUntil([&] { return classified.count() == 1; }, 60000))
        << "Ctrl+Return in Try it did not classify: " << tryIt->errorText().toStdString();
    EXPECT_EQ(tryIt->resultRows(), 2);
    EXPECT_EQ(textBox()->toPlainText(), QStringLiteral("i loved it")) << "the key edited the text";
    EXPECT_TRUE(RunStore(dir_ / "runs.sqlite", RunStore::Access::ReadOnly).runs().empty());

    // On the dataset tab the same keys start the run; Ctrl+. cancels it.
    bringToFront(window_->datasetPage());
    QTest::keyClick(window_->datasetPage(), Qt::Key_Return, Qt::ControlModifier);
    EXPECT_TRUE(window_->isTraining()) << "Ctrl+Return on the dataset tab did not start a run";
    EXPECT_EQ(classified.count(), 1);
    QSignalSpy finished(window_.get(), &ui::MainWindow::trainingFinished);
    QSignalSpy failed(window_->worker(), &ui::TrainingWorker::failed);
    QTest::keyClick(window_->trainingPage(), Qt::Key_Period, Qt::ControlModifier);
    ASSERT_TRUE(waitUntil([&] { return finished.count() + failed.count() > 0; }, 60000));
    // QSignalSpy counts in the worker's thread as the signal is emitted; the window hears of it
    // through the GUI thread's queue, where it was posted first: deliver it before looking.
    QCoreApplication::processEvents();
    EXPECT_FALSE(window_->isTraining());
}

// Multi-label: a chip per label at or above the run's threshold, each with its probability; the
// other labels below, dimmed; the threshold said.
TEST_F(TryIt, MultiLabelShowsTheLabelsAtTheRunsThresholdAsChips) {
    writeTopics(dir_ / "topics.csv");
    const auto run = trainOn(dir_ / "topics.csv", 3);
    ASSERT_GT(run, 0);
    ASSERT_TRUE(tryIt()->currentModelText().startsWith(QStringLiteral("run %1:").arg(run)));
    const auto text = QStringLiteral("i loved the cat and the film");
    classifyText(text);
    EXPECT_EQ(tryIt()->lastTask(), TaskKind::MultiLabel);

    const auto core = runPrediction(run, text);
    const auto& [settings, labels, expected] = core;
    ASSERT_EQ(settings.kind, TaskKind::MultiLabel);
    ASSERT_EQ(labels, (std::vector<std::string>{"animal", "cinema", "money", "other"}));
    std::map<std::string, double> above;
    std::map<std::string, double> below;
    for (std::size_t l = 0; l < labels.size(); ++l) {
        const bool chosen =
            std::find(expected.chosen.begin(), expected.chosen.end(), l) != expected.chosen.end();
        EXPECT_EQ(chosen, expected.scores[l] >= settings.threshold) << labels[l];
        (chosen ? above : below)[labels[l]] = expected.scores[l];
    }
    const auto chips = shownLabels(QStringLiteral("tryItChip"));
    const auto dimmed = shownLabels(QStringLiteral("tryItOtherLabel"));
    ASSERT_EQ(chips.size(), above.size());
    ASSERT_EQ(dimmed.size(), below.size());
    for (const auto& [label, probability] : above) {
        ASSERT_TRUE(chips.count(label)) << label << " has no chip";
        EXPECT_NEAR(chips.at(label), probability, 1e-6) << label;
        EXPECT_EQ(chipText(label), QStringLiteral("%1  %2%")
                                       .arg(QString::fromStdString(label))
                                       .arg(probability * 100.0, 0, 'f', 1));
    }
    for (const auto& [label, probability] : below) {
        ASSERT_TRUE(dimmed.count(label)) << label << " is not listed below the threshold";
        EXPECT_NEAR(dimmed.at(label), probability, 1e-6) << label;
    }
    for (auto* row : tryIt()->findChildren<QLabel*>(QStringLiteral("tryItOtherLabel"))) {
        EXPECT_FALSE(row->isEnabled()) << "a label below the threshold is not dimmed";
    }
    auto* threshold = tryIt()->findChild<QLabel*>(QStringLiteral("tryItThreshold"));
    ASSERT_NE(threshold, nullptr);
    EXPECT_TRUE(threshold->text().contains(QString::number(settings.threshold, 'g', 3)))
        << threshold->text().toStdString();
    EXPECT_TRUE(threshold->text().contains(QStringLiteral("the run's threshold")))
        << threshold->text().toStdString();
    EXPECT_EQ(tryIt()->resultRows(), static_cast<int>(below.size()));
    screenshot("tryit-multi-label.png");
}

// Regression: the number in the target's units under the target column's name; an exported
// folder whose config.json standardised the target has it undone.
TEST_F(TryIt, RegressionShowsTheValueInTheTargetsUnitsForARunAndAnExportedFolder) {
    {
        std::ofstream csv(dir_ / "scores.csv");
        csv << "text,score\n";
        for (int i = 0; i < 40; ++i) {
            csv << kWords[i % 9] << " " << (i % 2 == 0 ? "good film" : "bad movie") << ","
                << (i % 2 == 0 ? 7.5 : 2.0) + 0.1 * (i % 5) << "\n";
        }
    }
    const auto run = trainOn(dir_ / "scores.csv", 2);
    ASSERT_GT(run, 0);
    const auto text = QStringLiteral("a good film");
    classifyText(text);
    EXPECT_EQ(tryIt()->lastTask(), TaskKind::Regression);
    const auto core = runPrediction(run, text);
    const auto& settings = core.settings;
    const auto& expected = core.prediction;
    ASSERT_EQ(settings.kind, TaskKind::Regression);
    auto* value = tryIt()->findChild<QLabel*>(QStringLiteral("tryItValue"));
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(value->text(), QString::number(expected.value, 'f', 4));
    auto* target = tryIt()->findChild<QLabel*>(QStringLiteral("tryItTarget"));
    ASSERT_NE(target, nullptr);
    EXPECT_TRUE(target->text().contains(QStringLiteral("“score”"))) << target->text().toStdString();
    ASSERT_EQ(tryIt()->lastResult().size(), 1);
    EXPECT_NEAR(tryIt()->lastResult().front().second, expected.value, 1e-6);
    screenshot("tryit-regression.png");

    // The run exported, its config.json saying the target was standardised (mean 100, scale
    // 10): the folder's value is the model's output mapped back, as predict maps it.
    const auto folder = dir_ / "exported";
    {
        RunStore store(dir_ / "runs.sqlite");
        exportRun(store, run, folder);
    }
    auto config = nlohmann::json::parse(std::ifstream(folder / "config.json"));
    ASSERT_EQ(config[kTaskSettingsKey].value("task", ""), "regression");
    config[kTaskSettingsKey]["target_scaling"] = {{"mean", 100.0}, {"scale", 10.0}};
    std::ofstream(folder / "config.json") << config.dump(2);
    chooseModelFolder(folder);
    classifyText(text);
    const auto fromFolder = folderPrediction(folder, text).prediction;
    EXPECT_NEAR(fromFolder.value, settings.scaling.transform(expected.value) * 10.0 + 100.0, 1e-4);
    value = tryIt()->findChild<QLabel*>(QStringLiteral("tryItValue"));
    ASSERT_NE(value, nullptr);
    EXPECT_EQ(value->text(), QString::number(fromFolder.value, 'f', 4));
    EXPECT_EQ(tryIt()->findChildren<QWidget*>(QStringLiteral("tryItResults")).size(), 1);
}

// Token classification: the text with its entities highlighted, one colour per type, a legend
// and a table of the entities with their character offsets, as `predict` finds them.
TEST_F(TryIt, TokenClassificationHighlightsTheEntitiesOfTheTextByType) {
    writeTags(dir_ / "tags.conll");
    const auto run = trainOn(dir_ / "tags.conll", 4);
    ASSERT_GT(run, 0);
    const auto text = QStringLiteral("the cat sat on the mat today");
    classifyText(text);
    EXPECT_EQ(tryIt()->lastTask(), TaskKind::TokenClassification);
    const auto expected = runPrediction(run, text).prediction;
    ASSERT_FALSE(expected.entities.empty()) << "the run learned no entity: the check means little";
    expectEntitiesShown(expected, {QStringLiteral("LOC"), QStringLiteral("PER")});
    auto* browser = tryIt()->findChild<QTextBrowser*>(QStringLiteral("tryItHighlighted"));
    // The whole text is shown, the type tags after their entities.
    QString plain = browser->toPlainText();
    for (const auto& entity : expected.entities) {
        plain.replace(QStringLiteral(" %1").arg(QString::fromStdString(entity.type)), QString());
    }
    EXPECT_EQ(plain, text);
    screenshot("tryit-ner.png");
}

// Switching between a tagging run and a multi-label run, and back: each click shows its task's
// view, in place of the last one (a second click must not crash on the other task's widgets).
TEST_F(TryIt, SwitchingBetweenATokenRunAndAMultiLabelRunShowsEachTasksView) {
    writeTags(dir_ / "tags.conll");
    writeTopics(dir_ / "topics.csv");
    const auto tagging = trainOn(dir_ / "tags.conll", 1);
    const auto topics = trainOn(dir_ / "topics.csv", 1);
    ASSERT_GT(tagging, 0);
    ASSERT_GT(topics, 0);
    const auto text = QStringLiteral("the cat sat on the mat");
    auto expectView = [&](TaskKind kind) {
        EXPECT_EQ(tryIt()->lastTask(), kind);
        EXPECT_EQ(tryIt()->findChildren<QWidget*>(QStringLiteral("tryItResults")).size(), 1);
        const bool tagged = kind == TaskKind::TokenClassification;
        EXPECT_EQ(tryIt()->findChild<QTextBrowser*>(QStringLiteral("tryItHighlighted")) != nullptr,
                  tagged);
        EXPECT_EQ(tryIt()->findChild<QLabel*>(QStringLiteral("tryItThreshold")) != nullptr,
                  !tagged);
    };
    ASSERT_TRUE(tryIt()->currentModelText().startsWith(QStringLiteral("run %1:").arg(topics)));
    classifyText(text);
    expectView(TaskKind::MultiLabel);
    chooseRunWithKeys(tagging);
    classifyText(text);
    expectView(TaskKind::TokenClassification);
    expectEntitiesShown(runPrediction(tagging, text).prediction,
                        {QStringLiteral("LOC"), QStringLiteral("PER")});
    chooseRunWithKeys(topics);
    classifyText(text);
    expectView(TaskKind::MultiLabel);
    EXPECT_EQ(shownLabels(QStringLiteral("tryItChip")).size() +
                  shownLabels(QStringLiteral("tryItOtherLabel")).size(),
              4U);
    chooseRunWithKeys(tagging);
    classifyText(text);
    expectView(TaskKind::TokenClassification);
}

}  // namespace
}  // namespace bert::test
