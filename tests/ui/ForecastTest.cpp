// Issue 27, points 4, 5 and 13 (undo): the memory forecast chart can be read at 1280 x 800 and
// maximised, with the cap drawn on it; "fits" counts evaluation, the advice lowers the
// evaluation batch when evaluation alone does not fit, and an applied change can be undone.
#include <cstdlib>
#include <fstream>

#include <QAbstractButton>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLineSeries>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTest>

#include "../core/TinyModel.h"
#include "StudioFixture.h"
#include "hf/ModelFolder.h"
#include "main/MainWindow.h"
#include "memory/DeviceTraits.h"
#include "training/OptionForm.h"
#include "training/TechniquesPage.h"
#include "training/TrainingPage.h"

namespace bert::test {
namespace {

class Forecast : public StudioFixture {
protected:
    /// Every text the chart draws, and those drawn cut short ("…").
    std::pair<QStringList, QStringList> chartTexts() const {
        auto* view = window_->techniquesPage()->forecastChart();
        QStringList all;
        QStringList cut;
        for (auto* item : view->scene()->items()) {
            if (!item->isVisible()) {
                continue;
            }
            QString text;
            if (auto* rich = dynamic_cast<QGraphicsTextItem*>(item)) {
                text = rich->toPlainText();
            } else if (auto* simple = dynamic_cast<QGraphicsSimpleTextItem*>(item)) {
                text = simple->text();
            } else {
                continue;
            }
            if (text.isEmpty()) {
                continue;
            }
            all << text;
            if (text.contains(QChar(0x2026)) || text.contains(QStringLiteral("..."))) {
                cut << text;
            }
        }
        return {all, cut};
    }
    QLineSeries* capLine() const {
        for (auto* series : window_->techniquesPage()->forecastChart()->chart()->series()) {
            if (auto* line = qobject_cast<QLineSeries*>(series)) {
                return line;
            }
        }
        return nullptr;
    }
};

// Point 4: tick labels and the axis title were drawn as "…", and the cap was not marked.
TEST_F(Forecast, TheChartIsReadableAt1280x800AndMaximisedWithTheCapDrawn) {
    chooseTinyModel();
    openReviewsThroughTheDialog();
    auto config = quickConfig(1);
    for (const auto cap :
         {std::optional<std::int64_t>{}, std::optional<std::int64_t>{300LL << 20}}) {
        config.memoryCapBytes = cap;
        setConfig(config);
        for (const auto size : {QSize(1280, 800), QSize(1920, 1080)}) {
            window_->resize(size);
            bringToFront(window_->techniquesPage()->forecastChart());
            QCoreApplication::processEvents();
            const auto [texts, cut] = chartTexts();
            EXPECT_TRUE(cut.isEmpty()) << size.width() << "x" << size.height() << ": "
                                       << cut.join(QStringLiteral(" | ")).toStdString();
            EXPECT_TRUE(texts.contains(QStringLiteral("MiB")))
                << texts.join(QStringLiteral(" | ")).toStdString();
            EXPECT_TRUE(texts.contains(QStringLiteral("0")));
            EXPECT_TRUE(texts.contains(QStringLiteral("evaluation")));
        }
        auto* line = capLine();
        ASSERT_NE(line, nullptr) << "the budget is not drawn";
        ASSERT_EQ(line->count(), 2);
        if (cap) {
            EXPECT_TRUE(line->name().startsWith(QStringLiteral("memory cap")))
                << line->name().toStdString();
            EXPECT_DOUBLE_EQ(line->at(0).x(), 300.0);
            EXPECT_DOUBLE_EQ(line->at(1).x(), 300.0);
        } else {
            EXPECT_TRUE(line->name().startsWith(QStringLiteral("device memory")));
        }
    }
}

// Point 5: under a cap, the forecast said the run fits, then every evaluation ran out of memory
// at batch 64 and fell back to 32. Long reviews, a small training batch and evaluation in 64s:
// evaluation decides. The change applied through its button fits, and undoes through its own.
TEST_F(Forecast, FitsCountsEvaluationAndAnAppliedChangeCanBeUndone) {
    {
        std::ofstream csv(dir_ / "long.csv");
        csv << "review,sentiment\n";
        for (int i = 0; i < 80; ++i) {
            std::string words;
            for (int w = 0; w < 40 + i % 20; ++w) {
                words += i % 2 == 0 ? "i loved it , a great film ! " : "the film was very bad . ";
            }
            csv << '"' << words << "\"," << (i % 2 == 0 ? "pos" : "neg") << "\n";
        }
    }
    chooseTinyModel();
    openDatasetThroughTheDialog(dir_ / "long.csv");
    auto* techniques = window_->techniquesPage();
    auto config = quickConfig(1);
    config.maxLength = 256;
    config.batchSize = 2;
    config.evalBatchSize = 64;
    setConfig(config);
    const auto training = techniques->forecast().total();
    const auto evaluation = techniques->evaluationForecast();
    ASSERT_GT(evaluation, 2 * training) << "the case needs evaluation to weigh more";
    // A third of the way from the training step's peak to evaluation's, in whole MiB as the
    // form takes it.
    config.memoryCapBytes = (training + (evaluation - training) / 3) >> 20 << 20;
    setConfig(config);
    ASSERT_EQ(techniques->config().toJson(), config.toJson());
    EXPECT_FALSE(techniques->fits()) << "evaluation does not fit, so the run does not";
    EXPECT_TRUE(techniques->adviceText().contains(QStringLiteral("Evaluation will not fit")))
        << techniques->adviceText().toStdString();
    EXPECT_TRUE(techniques->adviceText().contains(QStringLiteral("evaluate in batches of")))
        << techniques->adviceText().toStdString();

    clickButton(techniques, QStringLiteral("Apply the suggested change"));
    EXPECT_TRUE(techniques->fits()) << techniques->adviceText().toStdString();
    const auto applied = techniques->config();
    EXPECT_LT(applied.evalBatchSize, 64U);
    EXPECT_EQ(applied.batchSize, 2U) << "training did not need a change";
    EXPECT_EQ(applied.memoryCapBytes, config.memoryCapBytes);

    // Point 13: the change can be undone, and redone.
    auto* undo = findButton(techniques, QStringLiteral("Undo the change"));
    ASSERT_NE(undo, nullptr);
    EXPECT_TRUE(undo->isVisible());
    click(undo);
    EXPECT_EQ(techniques->config().toJson(), config.toJson()) << "undo did not restore";
    EXPECT_FALSE(undo->isVisible());
    EXPECT_FALSE(techniques->fits());
    clickButton(techniques, QStringLiteral("Apply the suggested change"));
    EXPECT_EQ(techniques->config().toJson(), applied.toJson());

    // The run under the cap: every evaluation within it.
    const auto run = trainThroughTheStartButton();
    ASSERT_GT(run, 0);
    const auto log = window_->trainingPage()->log().join(QLatin1Char('\n'));
    EXPECT_FALSE(log.contains(QStringLiteral("out of memory"))) << log.toStdString();
    EXPECT_TRUE(window_->trainingPage()->status().contains(QStringLiteral("completed")))
        << window_->trainingPage()->status().toStdString();
}

// DeBERTa's attention scores overflow fp16 (microsoft/DeBERTa issue 77): a job opened with fp16
// for a DeBERTa model (written for a GPU) is kept as chosen, but the form says why bf16 is the
// one to use; choosing bf16 in the form takes the caution away. A BERT model in fp16 hears
// nothing of it.
TEST_F(Forecast, Fp16ForADebertaModelSaysWhyBf16) {
    auto bundle = makeFamilyModel("deberta-v2", 2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "deberta", *bundle.model, *bundle.tokenizer);
    auto job = reviewsJob();
    job.training.precision = Precision::Fp16;
    const auto openJob = [&](const std::filesystem::path& model) {
        job.modelFolder = model;
        const auto file = dir_ / "job.json";
        writeFile(file, job.toJson().dump());
        const auto chosen = chooseFileInNextDialog(QString::fromStdString(file.string()));
        window_->menuAction(QStringLiteral("Open job…"))->trigger();
        ASSERT_TRUE(waitUntil([&] { return *chosen; }, 60000));
    };
    auto* techniques = window_->techniquesPage();
    // The caution sits in the row under the precision it concerns.
    const auto note = [&]() -> QString {
        auto* label = techniques->findChild<QLabel*>(QStringLiteral("note_precision"));
        return label != nullptr && label->isVisibleTo(techniques) ? label->text() : QString();
    };
    openJob(dir_ / "model");
    ASSERT_EQ(techniques->config().precision, Precision::Fp16);
    EXPECT_FALSE(note().contains(QStringLiteral("diverge"))) << note().toStdString();

    openJob(dir_ / "deberta");
    ASSERT_TRUE(techniques->modelError().isEmpty()) << techniques->modelError().toStdString();
    EXPECT_EQ(techniques->config().precision, Precision::Fp16) << "the user's choice stands";
    const auto caution = note();
    EXPECT_TRUE(caution.contains(QStringLiteral("DeBERTa-v2 training diverge")) &&
                caution.contains(QStringLiteral("choose bf16")))
        << caution.toStdString();
    EXPECT_FALSE(techniques->adviceText().contains(QStringLiteral("diverge")))
        << "said once, beside the precision";
    // With BERT_STUDIO_SCREENSHOTS=<folder>, the form as a user sees it (for docs/).
    if (const char* shots = std::getenv("BERT_STUDIO_SCREENSHOTS"); shots && *shots) {
        window_->resize(1100, 800);
        window_->tabs()->setCurrentIndex(1);
        QTest::qWait(200);
        EXPECT_TRUE(window_->grab().save(QString::fromLocal8Bit(shots) +
                                         QStringLiteral("/fp16-caution.png")));
    }

    auto* precision = qobject_cast<QComboBox*>(techniques->options()->editor("precision"));
    ASSERT_NE(precision, nullptr);
    precision->setFocus();
    QTest::keyClick(precision, Qt::Key_Up);  // fp32, bf16, fp16: one up is bf16
    ASSERT_EQ(techniques->config().precision, Precision::Bf16);
    EXPECT_TRUE(note().isEmpty()) << note().toStdString();
}

// DeBERTa's default precision is bf16 where bf16 is native (train/DefaultPrecision.h): choosing
// a DeBERTa folder in an untouched fp32 form switches it to bf16 and says why under Precision;
// a BERT folder puts fp32 back; fp32 chosen by the user stays, the note gone. Where this CPU
// has no native bf16 (neither AVX512-BF16 nor AMX) the form stays in fp32 throughout.
TEST_F(Forecast, ChoosingADebertaModelTakesBf16WhereBf16IsNativeAndSaysWhy) {
    auto bundle = makeFamilyModel("deberta-v2", 2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "deberta", *bundle.model, *bundle.tokenizer);
    const bool native = deviceTraits("cpu").nativeBf16;
    auto* techniques = window_->techniquesPage();
    const auto note = [&]() -> QString {
        auto* label = techniques->findChild<QLabel*>(QStringLiteral("note_precision"));
        return label != nullptr && label->isVisibleTo(techniques) ? label->text() : QString();
    };
    auto* folder = findLineEdit(window_.get(), QStringLiteral("modelFolder"));
    const auto choose = [&](const char* name) {
        typeInto(folder, QString::fromStdString((dir_ / name).string()));
        ASSERT_TRUE(techniques->modelError().isEmpty()) << techniques->modelError().toStdString();
    };
    window_->tabs()->setCurrentWidget(techniques);
    chooseTinyModel();
    ASSERT_EQ(techniques->config().precision, Precision::Fp32);

    choose("deberta");
    EXPECT_EQ(techniques->config().precision, native ? Precision::Bf16 : Precision::Fp32);
    EXPECT_EQ(note().contains(QStringLiteral("default")), native) << note().toStdString();
    if (native) {
        EXPECT_TRUE(note().contains(QStringLiteral("microsoft/DeBERTa issue 77")))
            << note().toStdString();
    }
    choose("model");
    EXPECT_EQ(techniques->config().precision, Precision::Fp32) << "BERT's own default is back";
    EXPECT_TRUE(note().isEmpty()) << note().toStdString();

    choose("deberta");
    auto* precision = qobject_cast<QComboBox*>(techniques->options()->editor("precision"));
    ASSERT_NE(precision, nullptr);
    precision->setFocus();
    QTest::keyClick(precision, Qt::Key_Home);  // fp32, the first choice
    ASSERT_EQ(techniques->config().precision, Precision::Fp32);
    EXPECT_TRUE(note().isEmpty()) << "the user chose: " << note().toStdString();
    choose("model");
    EXPECT_EQ(techniques->config().precision, Precision::Fp32);
}

// mmBERT-base's shape (Gemma's 256,000 pieces: an embedding of 197M parameters, two thirds of
// the model): the forecast says what freezing the embeddings frees before anything is over a
// budget, and ticking Freeze embeddings frees that much of the optimizer state.
TEST_F(Forecast, ALargeVocabularySaysWhatFreezingTheEmbeddingsFrees) {
    auto bundle = makeFamilyModel("modernbert", 2, 32, 4, 0.1, 3);
    const auto folder = dir_ / "mmbert";
    exportModelFolder(folder, *bundle.model, *bundle.tokenizer);
    auto config = nlohmann::json::parse(readFile(folder / "config.json"));
    config.update({{"vocab_size", 256000},
                   {"hidden_size", 768},
                   {"intermediate_size", 1152},
                   {"num_hidden_layers", 22},
                   {"num_attention_heads", 12}});
    writeFile(folder / "config.json", config.dump(2));
    auto job = reviewsJob();
    job.modelFolder = folder;
    writeFile(dir_ / "job.json", job.toJson().dump());
    const auto chosen =
        chooseFileInNextDialog(QString::fromStdString((dir_ / "job.json").string()));
    window_->menuAction(QStringLiteral("Open job…"))->trigger();
    ASSERT_TRUE(waitUntil([&] { return *chosen; }, 60000));
    auto* techniques = window_->techniquesPage();
    ASSERT_TRUE(techniques->modelError().isEmpty()) << techniques->modelError().toStdString();
    auto* text = techniques->findChild<QLabel*>(QStringLiteral("forecastText"));
    ASSERT_NE(text, nullptr);
    const auto before = techniques->forecast();
    const QString note = text->text();
    EXPECT_TRUE(note.contains(QStringLiteral("The embeddings hold 197M of the model's")) &&
                note.contains(QStringLiteral("(64%): freezing them (Freeze embeddings) frees")))
        << note.toStdString();

    // With BERT_STUDIO_SCREENSHOTS=<folder>, the form as a user sees it (for docs/).
    if (const char* shots = std::getenv("BERT_STUDIO_SCREENSHOTS"); shots && *shots) {
        window_->resize(1100, 800);
        window_->tabs()->setCurrentIndex(1);
        QTest::qWait(200);
        for (QWidget* up = text->parentWidget(); up != nullptr; up = up->parentWidget()) {
            if (auto* area = qobject_cast<QScrollArea*>(up)) {
                area->ensureWidgetVisible(text);
            }
        }
        QTest::qWait(200);
        EXPECT_TRUE(window_->grab().save(QString::fromLocal8Bit(shots) +
                                         QStringLiteral("/large-vocabulary-forecast.png")));
    }
    auto* freeze = qobject_cast<QCheckBox*>(techniques->options()->editor("freeze_embeddings"));
    ASSERT_NE(freeze, nullptr);
    freeze->setFocus();
    QTest::keyClick(freeze, Qt::Key_Space);
    ASSERT_TRUE(techniques->config().freezeEmbeddings);
    const auto after = techniques->forecast();
    const auto freed = (before.optimizerState - after.optimizerState) >> 20;
    EXPECT_TRUE(note.contains(QStringLiteral("AdamW state (%1 MiB)").arg(freed)))
        << note.toStdString() << " freed " << freed;
    EXPECT_FALSE(text->text().contains(QStringLiteral("embeddings hold")))
        << "frozen: nothing left to say";
}

}  // namespace
}  // namespace bert::test
