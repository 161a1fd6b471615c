// An exported folder's README.md shows how to predict with it, in transformers or in ONNX
// Runtime. Every example of every task is run here, as a user pastes it, with the venv's Python
// on the folder the export wrote, and must give what `bert-studio-cli predict --run N --json`
// gives for the same texts: the label and each probability (single-label), every label at or
// above the run's threshold (multi-label), the number in the target's units (regression), the
// entities with their offsets (token classification). Issue 44: three of the four tasks' READMEs
// were wrong (NER's named AutoModelForSequenceClassification and its ONNX example raised
// KeyError, multi-label's printed only the top label, regression's left the target
// standardised and its card read "accuracy 0.0000").
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../core/TinyModel.h"
#include "CliSupport.h"
#include "export/OnnxExport.h"
#include "hf/ModelFolder.h"

namespace bert::test {
namespace {

constexpr double kTolerance = 1e-4;

std::vector<nlohmann::json> jsonLines(const std::string& text) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty()) {
            lines.push_back(nlohmann::json::parse(line));
        }
    }
    return lines;
}

/// The ```python blocks of a README, in order.
std::vector<std::string> pythonBlocks(const std::string& readme) {
    std::vector<std::string> blocks;
    const std::string open = "```python\n";
    for (auto at = readme.find(open); at != std::string::npos; at = readme.find(open, at)) {
        at += open.size();
        const auto end = readme.find("```", at);
        if (end == std::string::npos) {
            break;
        }
        blocks.push_back(readme.substr(at, end - at));
        at = end + 3;
    }
    return blocks;
}

void expectSameProbabilities(const nlohmann::json& ours, const nlohmann::json& theirs) {
    ASSERT_TRUE(theirs.is_object()) << theirs;
    ASSERT_EQ(ours.size(), theirs.size()) << ours << "\n" << theirs;
    for (const auto& [label, p] : ours.items()) {
        ASSERT_TRUE(theirs.contains(label)) << label << " missing from " << theirs;
        EXPECT_NEAR(theirs[label].get<double>(), p.get<double>(), kTolerance) << label;
    }
}

class ReadmeRun : public CliFixture {
protected:
    void SetUp() override {
        CliFixture::SetUp();
        if (referencePython().empty()) {
            GTEST_SKIP() << "no reference Python venv configured (run scripts/setup.sh)";
        }
    }

    /// Trains run 1 on data with extra options.
    void train(const std::filesystem::path& data, const std::vector<std::string>& extra) {
        std::vector<std::string> args = {"--db",
                                         db_,
                                         "train",
                                         "--model",
                                         (dir_ / "model").string(),
                                         "--train",
                                         data.string(),
                                         "--batch-size",
                                         "8",
                                         "--max-length",
                                         "32",
                                         "--lr",
                                         "3e-3",
                                         "--evals-per-epoch",
                                         "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        const auto trained = runCli(args, dir_.path());
        ASSERT_EQ(trained.code, 0) << trained.err;
    }

    /// predict --run 1 --json for texts.
    std::vector<nlohmann::json> predicted(const std::vector<std::string>& texts) {
        std::vector<std::string> args = {"--db", db_, "predict", "--run", "1", "--json"};
        args.insert(args.end(), texts.begin(), texts.end());
        const auto outcome = runCli(args, dir_.path());
        EXPECT_EQ(outcome.code, 0) << outcome.err;
        return jsonLines(outcome.out);
    }

    /// Exports run 1 in format and returns its README.
    std::string exported(const std::string& format) {
        const auto folder = dir_ / ("exported-" + format);
        const auto outcome =
            runCli({"--db", db_, "export", "1", folder.string(), "--format", format}, dir_.path());
        EXPECT_EQ(outcome.code, 0) << outcome.err;
        return readFile(folder / "README.md");
    }

    /// dir/model: a random model of modelType with its tokenizer files removed (the test writes
    /// the family's own).
    std::filesystem::path familyFolderWithoutTokenizer(const std::string& modelType,
                                                       std::int64_t vocabulary) {
        auto bundle = makeFamilyModel(modelType, 2, 32, 4, 0.1, 3, {"neg", "pos"}, vocabulary);
        const auto folder = dir_ / "model";
        std::filesystem::remove_all(folder);
        exportModelFolder(folder, *bundle.model, *bundle.tokenizer);
        for (const char* file :
             {"vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"}) {
            std::filesystem::remove(folder / file);
        }
        return folder;
    }

    /// Each export format's README example gives run 1's labels and probabilities for texts.
    void expectExportsPredictAsRun(const std::vector<std::string>& texts) {
        const auto ours = predicted(texts);
        ASSERT_EQ(ours.size(), texts.size());
        for (const auto& format : formats()) {
            SCOPED_TRACE(format);
            const auto theirs = runExample(exported(format), texts);
            ASSERT_EQ(theirs.size(), texts.size());
            for (std::size_t i = 0; i < texts.size(); ++i) {
                EXPECT_EQ(theirs[i]["label"], ours[i]["label"]) << texts[i];
                expectSameProbabilities(ours[i]["probabilities"], theirs[i]["probabilities"]);
            }
        }
    }

    /// Runs the README's one Python example on texts (its texts line replaced by them); what it
    /// printed, a JSON value per line. Adds a failure with the example and its output when it
    /// fails.
    std::vector<nlohmann::json> runExample(const std::string& readme,
                                           const std::vector<std::string>& texts) {
        const auto blocks = pythonBlocks(readme);
        EXPECT_EQ(blocks.size(), 1U) << readme;
        if (blocks.empty()) {
            return {};
        }
        auto code = blocks.front();
        const std::string line = "texts = [\"Some text to predict\"]";
        const auto at = code.find(line);
        EXPECT_NE(at, std::string::npos) << "no texts line in the example:\n" << code;
        if (at == std::string::npos) {
            return {};
        }
        // A JSON array of strings is a Python list literal.
        code.replace(at, line.size(), "texts = " + nlohmann::json(texts).dump());
        const auto script = dir_ / ("example-" + std::to_string(++examples_) + ".py");
        writeFile(script, code);
        const auto log = dir_ / ("example-" + std::to_string(examples_) + ".log");
        const int status = runPythonScript(script.string(), {}, log);
        const auto output = readFile(log);
        EXPECT_EQ(status, 0) << "the README's example failed:\n" << code << "\n---\n" << output;
        if (status != 0) {
            return {};
        }
        // Only the example's JSON lines (transformers may warn on stderr, merged into the log).
        std::string lines;
        std::istringstream in(output);
        for (std::string text; std::getline(in, text);) {
            if (!text.empty() && text.front() == '{') {
                lines += text + "\n";
            }
        }
        return jsonLines(lines);
    }

    /// Each format the build exports: transformers, and ONNX where it has ONNX export.
    static std::vector<std::string> formats() {
        if (onnxExportAvailable()) {
            return {"transformers", "onnx"};
        }
        std::cout << "this build has no ONNX export: the transformers README only\n";
        return {"transformers"};
    }

    int examples_ = 0;
};

TEST_F(ReadmeRun, SingleLabelExamplesGiveThePredictedLabelAndProbabilities) {
    train(dir_ / "reviews.csv",
          {"--text-column", "review", "--label-column", "sentiment", "--epochs", "2"});
    const std::vector<std::string> texts = {"i loved it , a great film !",
                                            "the film was very bad , awful", "café 猫 ok"};
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        EXPECT_NE(readme.find("Best validation accuracy"), std::string::npos) << readme;
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(theirs[i]["text"], texts[i]);
            EXPECT_EQ(theirs[i]["label"], ours[i]["label"]) << texts[i];
            expectSameProbabilities(ours[i]["probabilities"], theirs[i]["probabilities"]);
        }
    }
}

TEST_F(ReadmeRun, MultiLabelExamplesGiveEveryLabelAtTheRunsThreshold) {
    writeTaskCsv(dir_ / "tasks.csv", 120);
    train(dir_ / "tasks.csv", {"--label-column", "labels", "--epochs", "3"});
    const std::vector<std::string> texts = {"the cat sat good", "i was very bad good", "the mat",
                                            "good bad", "bad"};
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    bool twoLabels = false;  // the example must print more than the top label
    for (const auto& line : ours) {
        twoLabels = twoLabels || line["labels"].size() >= 2;
    }
    EXPECT_TRUE(twoLabels) << "no text has two labels: the comparison would not tell";
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        EXPECT_NE(readme.find("Best validation micro-F1"), std::string::npos) << readme;
        EXPECT_NE(readme.find("Decision threshold"), std::string::npos) << readme;
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(theirs[i]["labels"], ours[i]["labels"]) << texts[i];
            expectSameProbabilities(ours[i]["probabilities"], theirs[i]["probabilities"]);
        }
    }
}

TEST_F(ReadmeRun, RegressionExamplesGiveTheNumberInTheTargetsUnits) {
    writeTaskCsv(dir_ / "tasks.csv", 80);
    train(dir_ / "tasks.csv", {"--label-column", "words", "--task", "regression",
                               "--standardize-targets", "--epochs", "2"});
    const std::vector<std::string> texts = {"the cat", "the cat sat on the mat i was very it"};
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        // The card names the task's metric (it read "Best validation accuracy: 0.0000").
        EXPECT_NE(readme.find("Best validation RMSE"), std::string::npos) << readme;
        EXPECT_EQ(readme.find("accuracy"), std::string::npos) << readme;
        EXPECT_NE(readme.find("Target standardised"), std::string::npos) << readme;
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_NEAR(theirs[i]["value"].get<double>(), ours[i]["value"].get<double>(),
                        kTolerance)
                << texts[i];
        }
    }
}

TEST_F(ReadmeRun, TokenClassificationExamplesGiveTheEntitiesWithTheirOffsets) {
    writeConll(dir_ / "animals.conll", 80);
    train(dir_ / "animals.conll", {"--epochs", "3"});
    // Several spaces, a Chinese character (a word of its own), an accent: the offsets are code
    // points into the text as typed.
    const std::vector<std::string> texts = {"the cat sat on the mat", "dogs  and  cats here",
                                            "café cat 猫dogs", ""};
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    std::size_t entities = 0;
    for (const auto& line : ours) {
        entities += line["entities"].size();
    }
    EXPECT_GT(entities, 0U) << "no entity found: the comparison would not tell";
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        EXPECT_NE(readme.find("Best validation entity-F1"), std::string::npos) << readme;
        if (format == "transformers") {
            EXPECT_NE(readme.find("AutoModelForTokenClassification"), std::string::npos);
            EXPECT_EQ(readme.find("AutoModelForSequenceClassification"), std::string::npos);
        }
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            auto expected = nlohmann::json::array();
            for (const auto& entity : ours[i]["entities"]) {
                expected.push_back({{"type", entity["type"]},
                                    {"text", entity["text"]},
                                    {"start", entity["start"]},
                                    {"end", entity["end"]}});
            }
            EXPECT_EQ(theirs[i]["entities"], expected) << texts[i];
        }
    }
}

/// Reviews long enough to be cut at the runs' max length of 32: each a few sentences, the last
/// one deciding the label, some of them past the first window.
void writeLongReviews(const std::filesystem::path& file) {
    std::ofstream csv(file);
    csv << "review,sentiment\n";
    const std::string filler = "the film was on at the cinema , we went . ";
    for (int i = 0; i < 60; ++i) {
        std::string text;
        for (int r = 0; r < 1 + i % 5; ++r) {
            text += filler;
        }
        text += i % 2 == 0 ? "i loved it , a great film !" : "it was very bad , awful";
        csv << '"' << text << "\"," << (i % 2 == 0 ? "pos" : "neg") << "\n";
    }
}

/// The texts the long-text examples predict: long ones (several windows) and a short one.
std::vector<std::string> longTexts() {
    const std::string filler = "the film was on at the cinema , we went . ";
    return {filler + filler + filler + "i loved it , a great film !",
            filler + filler + filler + filler + "it was very bad , awful", "a great film"};
}

// Windows: predict pools a text's windows' logits; the README's example must cut the same
// windows (transformers' overflowing tokens with the run's stride) and pool them the same way.
TEST_F(ReadmeRun, LongTextWindowsExamplesPoolTheWindowsAsPredictDoes) {
    writeLongReviews(dir_ / "long.csv");
    train(dir_ / "long.csv", {"--text-column", "review", "--label-column", "sentiment", "--epochs",
                              "2", "--long-text", "windows", "--window-stride", "6"});
    const auto texts = longTexts();
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    // predict --json says how many windows a long text made and which one drove its answer;
    // a short text is one window and says nothing of them.
    for (std::size_t i = 0; i < 2; ++i) {
        ASSERT_TRUE(ours[i].contains("windows")) << ours[i].dump();
        EXPECT_GT(ours[i]["windows"].get<std::size_t>(), 1U);
        const auto& window = ours[i]["deciding_window"];
        EXPECT_GE(window["window"].get<std::size_t>(), 1U);
        EXPECT_LE(window["window"].get<std::size_t>(), ours[i]["windows"].get<std::size_t>());
        EXPECT_LT(window["tokens"][0].get<std::size_t>(), window["tokens"][1].get<std::size_t>());
    }
    EXPECT_FALSE(ours[2].contains("windows"));
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        EXPECT_NE(readme.find("Long texts: cut into windows"), std::string::npos) << readme;
        EXPECT_NE(readme.find("return_overflowing_tokens=True"), std::string::npos) << readme;
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(theirs[i]["label"], ours[i]["label"]) << texts[i];
            expectSameProbabilities(ours[i]["probabilities"], theirs[i]["probabilities"]);
        }
    }
    // The exported folder predicts as the run does: it carries the strategy.
    const auto folder = dir_ / "exported-transformers";
    std::vector<std::string> args = {"--db", db_, "predict", "--json", "-m", folder.string()};
    args.insert(args.end(), texts.begin(), texts.end());
    const auto fromFolder = runCli(args, dir_.path());
    ASSERT_EQ(fromFolder.code, 0) << fromFolder.err;
    const auto lines = jsonLines(fromFolder.out);
    ASSERT_EQ(lines.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        expectSameProbabilities(ours[i]["probabilities"], lines[i]["probabilities"]);
    }
}

TEST_F(ReadmeRun, LongTextHeadTailExamplesKeepTheHeadAndTheTailAsPredictDoes) {
    writeLongReviews(dir_ / "long.csv");
    train(dir_ / "long.csv", {"--text-column", "review", "--label-column", "sentiment", "--epochs",
                              "2", "--long-text", "head-tail", "--head-tokens", "8"});
    const auto texts = longTexts();
    const auto ours = predicted(texts);
    ASSERT_EQ(ours.size(), texts.size());
    for (const auto& format : formats()) {
        SCOPED_TRACE(format);
        const auto readme = exported(format);
        EXPECT_NE(readme.find("Long texts: the first 8 text tokens"), std::string::npos) << readme;
        const auto theirs = runExample(readme, texts);
        ASSERT_EQ(theirs.size(), texts.size());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(theirs[i]["label"], ours[i]["label"]) << texts[i];
            expectSameProbabilities(ours[i]["probabilities"], theirs[i]["probabilities"]);
        }
    }
}

/// spm.model in DeBERTa-v3's layout ([PAD] [CLS] [SEP] control, [UNK] at 3) over the tiny
/// vocabulary's words (each with its word-start mark), its suffixes and every letter, so that
/// the reviews tokenize into words and anything else into letters.
std::string tinyDebertaSentencePiece() {
    std::vector<SentencePieceEntry> pieces = {
        {"[PAD]", 0.0F, 3}, {"[CLS]", 0.0F, 3}, {"[SEP]", 0.0F, 3}, {"[UNK]", 0.0F, 2}};
    for (const auto& word : tinyVocabulary()) {
        if (word.front() == '[') {
            continue;
        }
        pieces.push_back({word.rfind("##", 0) == 0 ? word.substr(2) : "\u2581" + word, -2.0F, 1});
    }
    pieces.push_back({"\u2581", -5.0F, 1});
    for (char letter = 'a'; letter <= 'z'; ++letter) {
        pieces.push_back({std::string(1, letter), -8.0F, 1});
    }
    return sentencePieceModelFile(pieces);  // Unigram, unk_id 3
}

// DeBERTa-v3's folders on the hub ship spm.model without a tokenizer.json: one trains, and its
// export (tokenizer.json built from spm.model, DebertaV2Tokenizer named) gives in transformers
// and ONNX Runtime what predict gives, on texts with runs of spaces and tabs, capitals (not
// lowercased: do_lower_case is off), letters outside the words and a character no piece has.
TEST_F(ReadmeRun, DebertaFolderWithSpmModelAloneTrainsAndItsExportPredictsTheSame) {
    const auto folder = familyFolderWithoutTokenizer("deberta-v2", 128);
    writeFile(folder / "spm.model", tinyDebertaSentencePiece());
    writeFile(folder / "tokenizer_config.json", R"({"do_lower_case": false, "vocab_type": "spm"})");
    train(dir_ / "reviews.csv",
          {"--text-column", "review", "--label-column", "sentiment", "--epochs", "2"});
    const std::vector<std::string> texts = {"i loved it , a great film !",
                                            "the  film\twas very BAD ,\t\tawful  ", "zebra 猫 ok"};
    expectExportsPredictAsRun(texts);
}

/// tokenizer.json in Gemma's layout as mmBERT ships it: <pad> 0, <eos> 1, <bos> 2, <unk> 3,
/// <mask> 4, every byte's <0xXX> piece, then a BPE over the tiny vocabulary's words (each with
/// its word-start mark, merged letter by letter) and every letter; spaces made U+2581, byte
/// fallback, <bos> A <eos>.
std::string tinyGemmaTokenizerJson() {
    nlohmann::json vocab = nlohmann::json::object();
    nlohmann::json merges = nlohmann::json::array();
    auto add = [&](const std::string& piece) {
        if (!vocab.contains(piece)) {
            vocab[piece] = vocab.size();
        }
    };
    for (const char* special : {"<pad>", "<eos>", "<bos>", "<unk>", "<mask>"}) {
        add(special);
    }
    for (int byte = 0; byte < 256; ++byte) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", byte);
        add(name);
    }
    const std::string mark = "\u2581";
    add(mark);
    for (char letter = 'a'; letter <= 'z'; ++letter) {
        add(std::string(1, letter));
    }
    for (const auto& word : tinyVocabulary()) {
        if (word.front() == '[' || word.rfind("##", 0) == 0) {
            continue;
        }
        std::string piece = mark;
        for (const char c : word) {
            add(std::string(1, c));
            const std::string longer = piece + c;
            if (!vocab.contains(longer)) {
                merges.push_back(nlohmann::json::array({piece, std::string(1, c)}));
                add(longer);
            }
            piece = longer;
        }
    }
    nlohmann::json added = nlohmann::json::array();
    for (int id = 0; id < 5; ++id) {
        for (const auto& [content, value] : vocab.items()) {
            if (value == id) {
                added.push_back({{"id", id},
                                 {"content", content},
                                 {"single_word", false},
                                 {"lstrip", false},
                                 {"rstrip", false},
                                 {"normalized", false},
                                 {"special", true}});
            }
        }
    }
    auto special = [](const char* id, int typeId) {
        return nlohmann::json{{"SpecialToken", {{"id", id}, {"type_id", typeId}}}};
    };
    auto sequence = [](const char* id, int typeId) {
        return nlohmann::json{{"Sequence", {{"id", id}, {"type_id", typeId}}}};
    };
    const nlohmann::json tokenizer = {
        {"version", "1.0"},
        {"truncation", nullptr},
        {"padding", nullptr},
        {"added_tokens", added},
        {"normalizer", {{"type", "Replace"}, {"pattern", {{"String", " "}}}, {"content", mark}}},
        {"pre_tokenizer",
         {{"type", "Split"},
          {"pattern", {{"String", " "}}},
          {"behavior", "MergedWithPrevious"},
          {"invert", false}}},
        {"post_processor",
         {{"type", "TemplateProcessing"},
          {"single", {special("<bos>", 0), sequence("A", 0), special("<eos>", 0)}},
          {"pair",
           {special("<bos>", 0), sequence("A", 0), special("<eos>", 0), sequence("B", 1),
            special("<eos>", 1)}},
          {"special_tokens",
           {{"<bos>", {{"id", "<bos>"}, {"ids", {2}}, {"tokens", {"<bos>"}}}},
            {"<eos>", {{"id", "<eos>"}, {"ids", {1}}, {"tokens", {"<eos>"}}}}}}}},
        {"decoder", nullptr},
        {"model",
         {{"type", "BPE"},
          {"dropout", nullptr},
          {"unk_token", "<unk>"},
          {"continuing_subword_prefix", nullptr},
          {"end_of_word_suffix", nullptr},
          {"fuse_unk", true},
          {"byte_fallback", true},
          {"ignore_merges", false},
          {"vocab", vocab},
          {"merges", merges}}}};
    return tokenizer.dump();
}

// An mmBERT-shaped folder (model_type modernbert: mean pooling, <pad> 0 and <eos> 1 as [CLS] and
// [SEP], the first releases' rotary keys, sans_pos) with Gemma's tokenizer named GemmaTokenizer
// (which transformers ignores for this model type) trains, and its export gives in transformers
// and ONNX Runtime what predict gives: on runs of spaces, tabs, and characters no piece has
// (spelled in bytes).
TEST_F(ReadmeRun, MmbertShapedFolderWithGemmaTokenizerTrainsAndItsExportPredictsTheSame) {
    const auto folder = familyFolderWithoutTokenizer("modernbert", 512);
    writeFile(folder / "tokenizer.json", tinyGemmaTokenizerJson());
    writeFile(folder / "tokenizer_config.json",
              R"({"tokenizer_class": "GemmaTokenizer", "bos_token": "<bos>", "eos_token": "<eos>",
                  "pad_token": "<pad>", "unk_token": "<unk>", "mask_token": "<mask>"})");
    auto config = nlohmann::json::parse(readFile(folder / "config.json"));
    config.update({{"pad_token_id", 0},
                   {"cls_token_id", 1},
                   {"sep_token_id", 1},
                   {"bos_token_id", 2},
                   {"eos_token_id", 1},
                   {"classifier_pooling", "mean"},
                   {"position_embedding_type", "sans_pos"},
                   {"global_rope_theta", 160000.0},
                   {"local_rope_theta", 160000.0},
                   {"tie_word_embeddings", true}});
    writeFile(folder / "config.json", config.dump(2));
    train(dir_ / "reviews.csv",
          {"--text-column", "review", "--label-column", "sentiment", "--epochs", "2"});
    const std::vector<std::string> texts = {
        "i loved it , a great film !", "the  film\twas very bad ,\t\tawful  ", "zebra 猫 ok 🦜"};
    expectExportsPredictAsRun(texts);
}

// Temperature scaling (--temperature-scaling): the temperature fitted on validation at the
// served evaluation divides the logits in predict, in the export's config.json and README, and
// in both README examples (transformers and ONNX Runtime give our probabilities); without it,
// the same export's log-odds are T times as large. The validation file has three of its ten
// labels wrong, so that the fit has a minimum (a set predicted without an error has none).
TEST_F(ReadmeRun, TemperatureScalingIsAppliedByPredictAndByEveryExport) {
    {
        std::ofstream validation(dir_ / "validation.csv");
        validation << "review,sentiment\n";
        for (int i = 0; i < 10; ++i) {
            const bool positive = i % 2 == 0;
            const bool flipped = i % 3 == 0;
            validation << (positive ? "\"i loved it, a great film !\""
                                    : "\"the film was very bad , awful\"")
                       << "," << (positive != flipped ? "pos" : "neg") << "\n";
        }
    }
    train(dir_ / "reviews.csv",
          {"--text-column", "review", "--label-column", "sentiment", "--epochs", "2",
           "--validation", (dir_ / "validation.csv").string(), "--temperature-scaling"});
    const std::vector<std::string> texts = {"i loved it , a great film !",
                                            "the film was very bad , awful", "ok"};
    expectExportsPredictAsRun(texts);

    // The temperature the export carries is the served evaluation's.
    const auto folder = dir_ / "exported-transformers";
    auto config = nlohmann::json::parse(readFile(folder / "config.json"));
    ASSERT_TRUE(config["bert_studio_task"].contains("temperature")) << config.dump(1);
    const double t = config["bert_studio_task"]["temperature"].get<double>();
    EXPECT_GT(std::abs(t - 1.0), 0.05) << "a temperature that changes nothing tells nothing";
    EXPECT_NE(readFile(folder / "README.md").find("- Temperature: "), std::string::npos);
    // Without it (config.json's key removed), the log-odds are T times ours.
    const auto ours = predicted(texts);
    config["bert_studio_task"].erase("temperature");
    writeFile(folder / "config.json", config.dump(2));
    std::vector<std::string> args = {"predict", "--model", folder.string(), "--json"};
    args.insert(args.end(), texts.begin(), texts.end());
    const auto plain = runCli(args, dir_.path());
    ASSERT_EQ(plain.code, 0) << plain.err;
    const auto unscaled = jsonLines(plain.out);
    ASSERT_EQ(unscaled.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto logOdds = [](const nlohmann::json& line) {
            const auto& p = line["probabilities"];
            return std::log(p["pos"].get<double>() / p["neg"].get<double>());
        };
        EXPECT_EQ(unscaled[i]["label"], ours[i]["label"]) << "the label stays";
        EXPECT_NEAR(logOdds(unscaled[i]), t * logOdds(ours[i]),
                    1e-3 * std::abs(logOdds(unscaled[i])) + 1e-4)
            << texts[i];
    }
}

}  // namespace
}  // namespace bert::test
