// Issue 28, point 5: the studio's model picker lists the models of the local Hugging Face cache
// (family, parameters, vocabulary, longest sequence) beside the bundled MiniLM, and picking one
// with the keyboard loads it; the form then allows the family's own longest sequence. Driven
// through the real widgets: keys on the picker, text typed in the folder field, the Rescan button.
#include <cstdlib>
#include <fstream>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../core/TinyModel.h"
#include "DefaultModel.h"
#include "hf/ModelFolder.h"
#include "main/MainWindow.h"
#include "model/SequenceClassifier.h"
#include "support/TestSupport.h"
#include "training/TechniquesPage.h"

namespace bert {
namespace {

class ModelPickerStudio : public ::testing::Test {
protected:
    void SetUp() override {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        const char* previous = std::getenv("HF_HUB_CACHE");
        previousCache_ = previous != nullptr ? previous : "";
        hadCache_ = previous != nullptr;
        ::setenv("HF_HUB_CACHE", (dir_ / "hub").c_str(), 1);
        test::cacheRepo(dir_ / "hub", "org/tiny-roberta", "r1",
                        test::makeFamilyModel("roberta", 2, 32, 4, 0.0, 1));
        test::cacheRepo(dir_ / "hub", "org/tiny-modernbert", "m1",
                        test::makeFamilyModel("modernbert", 2, 32, 4, 0.0, 2));
        // ModernBERT's positions are rotary: a longer limit needs no other weights, as in
        // ModernBERT-base (8,192).
        const auto config =
            dir_ / "hub" / "models--org--tiny-modernbert" / "blobs" / "m1-config.json";
        auto json = nlohmann::json::parse(std::ifstream(config));
        json["max_position_embeddings"] = 8192;
        std::ofstream(config) << json.dump(2);
        // A folder of a family we do not train is not offered.
        test::cacheRepo(dir_ / "hub", "org/tiny-deberta", "d1", test::makeTinyModel(3));
        const auto debertaConfig =
            dir_ / "hub" / "models--org--tiny-deberta" / "blobs" / "d1-config.json";
        auto deberta = nlohmann::json::parse(std::ifstream(debertaConfig));
        deberta["model_type"] = "xlnet";
        std::ofstream(debertaConfig) << deberta.dump(2);

        auto other = test::makeModel(2, 32, 4, 0.0, 4);
        exportModelFolder(dir_ / "mine", *other.model, *other.tokenizer);
        window_ = std::make_unique<ui::MainWindow>(dir_ / "runs.sqlite");
        window_->show();
    }
    void TearDown() override {
        window_.reset();
        if (hadCache_) {
            ::setenv("HF_HUB_CACHE", previousCache_.c_str(), 1);
        } else {
            ::unsetenv("HF_HUB_CACHE");
        }
    }

    QComboBox* picker() const { return window_->findChild<QComboBox*>("modelPicker"); }
    QString modelInfo() const { return window_->findChild<QLabel*>("modelInfo")->text(); }
    int maxLengthLimit() const { return window_->findChild<QSpinBox*>("max_length")->maximum(); }
    int entryOf(const QString& repoId) const {
        for (int i = 0; i < picker()->count(); ++i) {
            if (picker()->itemText(i).startsWith(repoId + QStringLiteral(" — "))) {
                return i;
            }
        }
        return -1;
    }
    // As a keyboard user does: focus the picker, then Up or Down until the entry is current.
    void pick(int index) {
        auto* box = picker();
        box->setFocus();
        while (box->currentIndex() != index) {
            QTest::keyClick(box, box->currentIndex() < index ? Qt::Key_Down : Qt::Key_Up);
        }
    }

    test::TempDir dir_;
    std::string previousCache_;
    bool hadCache_ = false;
    std::unique_ptr<ui::MainWindow> window_;
};

TEST_F(ModelPickerStudio, ListsTheCachedModelsAndPickingOneLoadsIt) {
    ASSERT_NE(picker(), nullptr);
    const bool bundled = !defaultModelFolder().empty();
    // The bundled model, two cached models (not the DeBERTa one), and "another folder".
    ASSERT_EQ(picker()->count(), (bundled ? 1 : 0) + 2 + 1);
    if (bundled) {
        EXPECT_TRUE(picker()->itemText(0).contains(QStringLiteral("(bundled) — BERT")))
            << picker()->itemText(0).toStdString();
        EXPECT_EQ(picker()->currentIndex(), 0) << "the bundled model is the default";
    }
    const int roberta = entryOf(QStringLiteral("org/tiny-roberta"));
    const int modernbert = entryOf(QStringLiteral("org/tiny-modernbert"));
    ASSERT_GE(roberta, 0);
    ASSERT_GE(modernbert, 0);
    EXPECT_EQ(entryOf(QStringLiteral("org/tiny-deberta")), -1);
    // Family, parameters, vocabulary and longest sequence, as the cache's config says.
    const auto robertaModel = test::makeFamilyModel("roberta", 2, 32, 4, 0.0, 1);
    const QString robertaText = picker()->itemText(roberta);
    EXPECT_TRUE(robertaText.contains(QStringLiteral("RoBERTa"))) << robertaText.toStdString();
    EXPECT_TRUE(
        robertaText.contains(QStringLiteral("vocabulary %1").arg(robertaModel.config.vocabSize)))
        << robertaText.toStdString();
    // RoBERTa's positions start after its padding id: 514 positions, 513 tokens here.
    EXPECT_TRUE(robertaText.contains(
        QStringLiteral("up to %1 tokens").arg(robertaModel.config.maxSequenceLength())))
        << robertaText.toStdString();
    EXPECT_TRUE(picker()->itemText(modernbert).contains(QStringLiteral("ModernBERT")));
    EXPECT_TRUE(picker()
                    ->itemText(modernbert)
                    .contains(QStringLiteral("up to %1 tokens").arg(QLocale().toString(8192))))
        << picker()->itemText(modernbert).toStdString();

    // Picking the cached RoBERTa loads its snapshot: the field, the model line, the forecast.
    auto* techniques = window_->techniquesPage();
    auto* tabs = window_->findChild<QTabWidget*>();
    QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {},
                      tabs->tabBar()->tabRect(tabs->indexOf(techniques)).center());
    ASSERT_EQ(tabs->currentWidget(), techniques);
    pick(roberta);
    const auto snapshot = dir_ / "hub" / "models--org--tiny-roberta" / "snapshots" / "r1";
    EXPECT_EQ(techniques->modelFolder(), snapshot);
    EXPECT_TRUE(techniques->modelError().isEmpty()) << techniques->modelError().toStdString();
    EXPECT_TRUE(modelInfo().startsWith(QStringLiteral("RoBERTa: 2 layers")))
        << modelInfo().toStdString();
    EXPECT_EQ(techniques->forecast().weights,
              robertaModel.config.parameterCount() * static_cast<std::int64_t>(sizeof(float)));
    EXPECT_EQ(maxLengthLimit(), robertaModel.config.maxSequenceLength());

    // ModernBERT: the form allows its 8,192 positions.
    pick(modernbert);
    EXPECT_TRUE(modelInfo().startsWith(QStringLiteral("ModernBERT:"))) << modelInfo().toStdString();
    EXPECT_EQ(maxLengthLimit(), 8192);

    // A folder typed into the field is "another folder" in the picker; picking a cached model
    // again puts its path back into the field.
    auto* field = window_->findChild<QLineEdit*>("modelFolder");
    ASSERT_NE(field, nullptr);
    field->setFocus();
    field->selectAll();
    QTest::keyClicks(field, QString::fromStdString((dir_ / "mine").string()));
    QTest::keyClick(field, Qt::Key_Return);
    EXPECT_EQ(techniques->modelFolder(), dir_ / "mine");
    EXPECT_EQ(picker()->currentIndex(), picker()->count() - 1);
    EXPECT_TRUE(modelInfo().startsWith(QStringLiteral("BERT:"))) << modelInfo().toStdString();
    pick(roberta);
    EXPECT_EQ(field->text().toStdString(), snapshot.string());

    // A model downloaded while the studio runs appears on Rescan; the choice stays.
    test::cacheRepo(dir_ / "hub", "org/tiny-electra", "e1",
                    test::makeFamilyModel("electra", 2, 32, 4, 0.0, 5));
    auto* rescan = window_->findChild<QPushButton*>("rescanModels");
    ASSERT_NE(rescan, nullptr);
    QTest::mouseClick(rescan, Qt::LeftButton);
    ASSERT_GE(entryOf(QStringLiteral("org/tiny-electra")), 0);
    EXPECT_TRUE(picker()
                    ->itemText(entryOf(QStringLiteral("org/tiny-electra")))
                    .contains(QStringLiteral("ELECTRA")));
    EXPECT_EQ(picker()->currentIndex(), entryOf(QStringLiteral("org/tiny-roberta")));
    EXPECT_EQ(techniques->modelFolder(), snapshot);
}

}  // namespace
}  // namespace bert
