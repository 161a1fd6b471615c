// A run's stored figures are the figures of its own predictions: for every task, a tiny run is
// trained from the command line with a validation file, `predict --run 1 --file` scores that
// file, the metric is computed from predict's output and compared with the figures the run
// stored for the evaluation whose weights predict used; and its export predicts as the run does.
// Found: multi-label figures stored at 0.5 while predict used the tuned threshold; CLUENER text
// cut per character in training and per Latin run in predict; combining marks breaking entities;
// an export of a run at max length 32 cutting at 512.
#include <cmath>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../core/TinyModel.h"
#include "CliSupport.h"
#include "data/TableReader.h"
#include "hf/ModelFolder.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"

namespace bert::test {
namespace {

const char* const kFiller[] = {"the", "cat", "sat",  "on", "mat",    "movie", "film",
                               "i",   "was", "very", "it", "report", "here"};

std::string quoted(const std::string& text) {
    return "\"" + text + "\"";
}

/// Rows of sentences over the tiny vocabulary: text, a single label (pos when "good" is in it),
/// multi-label labels ("good", "bad"), a number (the count of words).
void writeRows(const std::filesystem::path& file, int rows, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::ofstream out(file);
    out << "text,sentiment,labels,words\n";
    for (int i = 0; i < rows; ++i) {
        const auto count = 3 + random() % 14;
        std::string text;
        for (std::size_t w = 0; w < count; ++w) {
            text += std::string(w == 0 ? "" : " ") + kFiller[random() % std::size(kFiller)];
        }
        const bool good = random() % 2 == 0;
        const bool bad = random() % 3 == 0;
        text += good ? " good" : "";
        text += bad ? " bad" : "";
        std::string labels = good ? "good" : "";
        labels += bad ? (labels.empty() ? "bad" : ";bad") : "";
        labels = labels.empty() ? "plain" : labels;
        out << quoted(text) << ',' << (good ? "pos" : "neg") << ',' << labels << ','
            << count + (good ? 1 : 0) + (bad ? 1 : 0) << "\n";
    }
}

/// The evaluation whose weights the run serves, as the store recorded it.
EvalMetrics servedEvaluation(const std::string& db) {
    RunStore store(db, RunStore::Access::ReadOnly);
    const auto served = servedCheckpointOfRun(store, 1);
    EXPECT_TRUE(served && served->evaluation) << "run 1 has no served evaluation";
    return served && served->evaluation ? *served->evaluation : EvalMetrics{};
}

double figure(const EvalMetrics& eval, const std::string& key) {
    return eval.task.at("figures").at(key).get<double>();
}

std::string fileText(const std::filesystem::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class Agreement : public CliFixture {
protected:
    Outcome train(const std::filesystem::path& trainFile, const std::filesystem::path& validation,
                  const std::vector<std::string>& extra, const std::string& model = "model",
                  const std::string& maxLength = "32", const std::string& epochs = "4") {
        std::vector<std::string> args = {"--db",
                                         db_,
                                         "train",
                                         "--model",
                                         (dir_ / model).string(),
                                         "--train",
                                         trainFile.string(),
                                         "--validation",
                                         validation.string(),
                                         "--batch-size",
                                         "8",
                                         "--max-length",
                                         maxLength,
                                         "--lr",
                                         "3e-3",
                                         "--evals-per-epoch",
                                         "1",
                                         "--epochs",
                                         epochs};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args, dir_.path());
    }

    /// predict --file over rows from the run (source {"--run", "1"}) or a folder; returns the
    /// --output file's text.
    std::string predictFile(const std::vector<std::string>& source,
                            const std::filesystem::path& rows, const std::string& name,
                            const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args = {"--db", db_, "predict"};
        args.insert(args.end(), source.begin(), source.end());
        args.insert(args.end(), {"--file", rows.string(), "--output", (dir_ / name).string()});
        args.insert(args.end(), extra.begin(), extra.end());
        const auto outcome = runCli(args, dir_.path());
        EXPECT_EQ(outcome.code, 0) << outcome.err;
        lastErr_ = outcome.err;
        return fileText(dir_ / name);
    }

    /// Exports run 1 and checks that the folder predicts rows as the run does.
    void expectExportPredictsAsRun(const std::filesystem::path& rows, const std::string& fromRun,
                                   const std::vector<std::string>& extra = {}) {
        const auto folder = dir_ / "exported";
        const auto exported = runCli({"--db", db_, "export", "1", folder.string()}, dir_.path());
        ASSERT_EQ(exported.code, 0) << exported.err;
        EXPECT_EQ(predictFile({"--model", folder.string()}, rows, "from-folder.out", extra),
                  fromRun)
            << "the export must predict as its run";
    }

    std::string lastErr_;
};

TEST_F(Agreement, SingleLabelAccuracyIsTheAccuracyOfPredictsOwnLabels) {
    writeRows(dir_ / "train.csv", 120, 11);
    writeRows(dir_ / "val.csv", 40, 12);
    const auto trained = train(dir_ / "train.csv", dir_ / "val.csv",
                               {"--label-column", "sentiment", "--task", "single-label"});
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out = predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.csv",
                                 {"--label-column", "sentiment"});
    const auto table = parseTable(out, TableFormat::Csv, dir_ / "from-run.csv");
    std::size_t right = 0;
    for (const auto& row : table.rows) {
        right += row[*table.columnIndex("label")] == row[*table.columnIndex("predicted")] ? 1 : 0;
    }
    ASSERT_EQ(table.rows.size(), 40U);
    const auto served = servedEvaluation(db_);
    EXPECT_DOUBLE_EQ(served.accuracy, static_cast<double>(right) / 40.0);
    // Every screen names the evaluation whose weights answer.
    const std::string step = "step " + std::to_string(served.step) + " (best checkpoint)";
    EXPECT_NE(lastErr_.find("run 1's model: " + step), std::string::npos) << lastErr_;
    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    EXPECT_NE(show.out.find("Served       " + step), std::string::npos) << show.out;
    expectExportPredictsAsRun(dir_ / "val.csv", out, {"--label-column", "sentiment"});
    const auto card = nlohmann::json::parse(fileText(dir_ / "exported" / "run_card.json"));
    EXPECT_EQ(card["served"]["step"], served.step) << card["served"];
}

TEST_F(Agreement, MultiLabelFiguresAreThoseOfTheThresholdPredictUses) {
    writeRows(dir_ / "train.csv", 120, 21);
    writeRows(dir_ / "val.csv", 40, 22);
    const auto trained =
        train(dir_ / "train.csv", dir_ / "val.csv",
              {"--label-column", "labels", "--task", "multi-label"}, "model", "32", "2");
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out =
        predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.csv", {"--label-column", "labels"});
    // The threshold predict uses is said, and is the one the stored figures hold at.
    const auto served = servedEvaluation(db_);
    char threshold[32];
    std::snprintf(threshold, sizeof threshold, "%.4f", served.task.at("threshold").get<double>());
    EXPECT_NE(lastErr_.find(std::string("Decision threshold: ") + threshold), std::string::npos)
        << lastErr_;
    const auto table = parseTable(out, TableFormat::Csv, dir_ / "from-run.csv");
    ASSERT_EQ(table.rows.size(), 40U);
    double tp = 0;
    double fp = 0;
    double fn = 0;
    auto split = [](const std::string& cell) {
        std::set<std::string> labels;
        std::istringstream in(cell);
        for (std::string label; std::getline(in, label, ';');) {
            if (!label.empty()) {
                labels.insert(label);
            }
        }
        return labels;
    };
    for (const auto& row : table.rows) {
        const auto truth = split(row[*table.columnIndex("label")]);
        const auto predicted = split(row[*table.columnIndex("predicted")]);
        for (const auto& label : predicted) {
            (truth.count(label) ? tp : fp) += 1;
        }
        for (const auto& label : truth) {
            fn += predicted.count(label) ? 0 : 1;
        }
    }
    const double microF1 = 2 * tp / (2 * tp + fp + fn);
    EXPECT_NEAR(figure(served, "micro_f1"), microF1, 1e-9)
        << "stored at threshold " << served.task.at("threshold");
    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    EXPECT_NE(show.out.find(std::string("at threshold ") + threshold), std::string::npos)
        << show.out;
    expectExportPredictsAsRun(dir_ / "val.csv", out, {"--label-column", "labels"});
}

TEST_F(Agreement, RegressionRmseIsTheRmseOfPredictsOwnNumbers) {
    writeRows(dir_ / "train.csv", 120, 31);
    writeRows(dir_ / "val.csv", 40, 32);
    const auto trained = train(dir_ / "train.csv", dir_ / "val.csv",
                               {"--label-column", "words", "--task", "regression"});
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out =
        predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.csv", {"--label-column", "words"});
    const auto table = parseTable(out, TableFormat::Csv, dir_ / "from-run.csv");
    ASSERT_EQ(table.rows.size(), 40U);
    double squares = 0.0;
    for (const auto& row : table.rows) {
        const double error = std::stod(row[*table.columnIndex("predicted")]) -
                             std::stod(row[*table.columnIndex("label")]);
        squares += error * error;
    }
    // The evaluation undoes the scaling on float targets: agreement to a millionth of a word.
    EXPECT_NEAR(figure(servedEvaluation(db_), "rmse"), std::sqrt(squares / 40.0), 1e-5);
    expectExportPredictsAsRun(dir_ / "val.csv", out, {"--label-column", "words"});
}

/// Entities as (row, type, start, end) in code points.
using Entity = std::tuple<std::size_t, std::string, std::size_t, std::size_t>;

std::string describe(const std::set<Entity>& entities) {
    std::ostringstream text;
    std::size_t shown = 0;
    for (const auto& [row, type, start, end] : entities) {
        text << '(' << row << ' ' << type << ' ' << start << '-' << end << ") ";
        if (++shown == 30) {
            break;
        }
    }
    return text.str();
}

double entityF1(const std::set<Entity>& truth, const std::set<Entity>& predicted) {
    double tp = 0;
    for (const auto& entity : predicted) {
        tp += truth.count(entity) ? 1 : 0;
    }
    return truth.empty() && predicted.empty()
               ? 0.0
               : 2 * tp / static_cast<double>(truth.size() + predicted.size());
}

std::set<Entity> predictedEntities(const std::string& jsonl) {
    std::set<Entity> entities;
    std::istringstream in(jsonl);
    std::size_t row = 0;
    for (std::string line; std::getline(in, line); ++row) {
        const auto parsed = nlohmann::json::parse(line);
        for (const auto& entity : parsed["entities"]) {
            entities.insert({row, entity["type"].get<std::string>(),
                             entity["start"].get<std::size_t>(), entity["end"].get<std::size_t>()});
        }
    }
    return entities;
}

TEST_F(Agreement, ConllEntityF1IsTheF1OfPredictsOwnEntities) {
    writeConll(dir_ / "all.conll", 160);
    // The first 120 sentences train, the rest validate (sentences end at blank lines).
    std::ifstream all(dir_ / "all.conll");
    std::ofstream trainFile(dir_ / "train.conll");
    std::ofstream validation(dir_ / "val.conll");
    std::ofstream rows(dir_ / "val.csv");
    rows << "text\n";
    std::set<Entity> truth;
    std::size_t sentence = 0;
    std::string text;
    std::size_t row = 0;
    for (std::string line; std::getline(all, line);) {
        if (line.rfind("-DOCSTART-", 0) == 0) {
            continue;
        }
        (sentence < 120 ? trainFile : validation) << line << "\n";
        if (line.empty()) {
            if (sentence >= 120 && !text.empty()) {
                rows << quoted(text) << "\n";
                ++row;
            }
            text.clear();
            ++sentence;
            continue;
        }
        const auto word = line.substr(0, line.find(' '));
        const auto tag = line.substr(line.find(' ') + 1);
        text += text.empty() ? "" : " ";
        if (sentence >= 120 && tag != "O") {
            truth.insert({row, tag.substr(2), text.size(), text.size() + word.size() - 1});
        }
        text += word;
    }
    trainFile.close();
    validation.close();
    rows.close();
    const auto trained = train(dir_ / "train.conll", dir_ / "val.conll", {});
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out = predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.jsonl");
    const auto served = servedEvaluation(db_);
    EXPECT_NEAR(figure(served, "entity_f1"), entityF1(truth, predictedEntities(out)), 1e-9)
        << "truth " << describe(truth) << "\npredicted " << describe(predictedEntities(out));
    EXPECT_GT(figure(served, "entity_f1"), 0.0) << "the run must find entities to compare";
    expectExportPredictsAsRun(dir_ / "val.csv", out);
}

// CLUENER's span JSON over Chinese with Latin letters (and combining accents): a model folder
// whose vocabulary holds the letters and characters, entities of letters run into other letters.
TEST_F(Agreement, ClueNerEntityF1IsTheF1OfPredictsOwnEntities) {
    std::vector<std::string> vocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    for (char c = 'a'; c <= 'z'; ++c) {
        vocabulary.emplace_back(1, c);
    }
    const std::vector<std::string> chinese = {"我", "在", "看", "买", "了", "和"};
    vocabulary.insert(vocabulary.end(), chinese.begin(), chinese.end());
    {
        auto bundle = makeModel(2, 32, 4, 0.0, 3, {"neg", "pos"}, 64);
        exportModelFolder(dir_ / "letters", *bundle.model, *bundle.tokenizer);
        std::ofstream vocab(dir_ / "letters" / "vocab.txt");
        for (const auto& token : vocabulary) {
            vocab << token << "\n";
        }
    }
    // Entities: runs of a-d (an "e" with a combining acute among them), run into x-z letters.
    std::mt19937_64 random(7);
    const std::vector<std::string> entityLetters = {"a", "b", "c", "d", "e\u0301"};
    const std::vector<std::string> otherLetters = {"x", "y", "z"};
    auto sentenceOf = [&](std::vector<std::pair<std::size_t, std::size_t>>& spans) {
        std::string text;
        std::size_t chars = 0;
        auto add = [&](const std::string& piece, std::size_t codePoints) {
            text += piece;
            chars += codePoints;
        };
        for (int part = 0; part < 2; ++part) {
            for (std::size_t i = 0, n = 1 + random() % 3; i < n; ++i) {
                add(chinese[random() % chinese.size()], 1);
            }
            const std::size_t start = chars;
            for (std::size_t i = 0, n = 2 + random() % 3; i < n; ++i) {
                const auto& letter = entityLetters[random() % entityLetters.size()];
                add(letter, letter.size() == 1 ? 1 : 2);
            }
            spans.emplace_back(start, chars - 1);
            for (std::size_t i = 0, n = 1 + random() % 2; i < n; ++i) {
                add(otherLetters[random() % otherLetters.size()], 1);
            }
        }
        return text;
    };
    std::ofstream trainFile(dir_ / "train.json");
    std::ofstream validation(dir_ / "val.json");
    std::ofstream rows(dir_ / "val.csv");
    rows << "text\n";
    std::set<Entity> truth;
    for (std::size_t s = 0; s < 160; ++s) {
        std::vector<std::pair<std::size_t, std::size_t>> spans;
        const auto text = sentenceOf(spans);
        nlohmann::json mentions = nlohmann::json::object();
        // The entity texts at their spans (code points to bytes).
        std::vector<std::size_t> bytes;
        for (std::size_t pos = 0; pos < text.size(); ++pos) {
            if ((static_cast<unsigned char>(text[pos]) & 0xC0) != 0x80) {
                bytes.push_back(pos);
            }
        }
        bytes.push_back(text.size());
        for (const auto& [start, end] : spans) {
            const auto mention = text.substr(bytes[start], bytes[end + 1] - bytes[start]);
            mentions[mention].push_back({start, end});
            if (s >= 120) {
                truth.insert({s - 120, "ENT", start, end});
            }
        }
        (s < 120 ? trainFile : validation)
            << nlohmann::json{{"text", text}, {"label", {{"ENT", mentions}}}}.dump() << "\n";
        if (s >= 120) {
            rows << quoted(text) << "\n";
        }
    }
    trainFile.close();
    validation.close();
    rows.close();
    const auto trained = train(dir_ / "train.json", dir_ / "val.json", {}, "letters", "32", "6");
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out = predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.jsonl");
    const auto served = servedEvaluation(db_);
    EXPECT_GT(figure(served, "entity_f1"), 0.5) << "the run must find entities to compare";
    EXPECT_NEAR(figure(served, "entity_f1"), entityF1(truth, predictedEntities(out)), 1e-9)
        << "truth " << describe(truth) << "\npredicted " << describe(predictedEntities(out));
    expectExportPredictsAsRun(dir_ / "val.csv", out);
}

// An export of a run trained at 8 tokens cuts texts at 8 (its tokenizer_config.json's
// model_max_length), as predict --run does: it cut at 512 and answered otherwise.
TEST_F(Agreement, AnExportCutsTextsAtTheLengthItsRunTrainedAt) {
    writeRows(dir_ / "train.csv", 120, 41);
    writeRows(dir_ / "val.csv", 40, 42);
    const auto trained =
        train(dir_ / "train.csv", dir_ / "val.csv", {"--label-column", "sentiment"}, "model", "8");
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto out = predictFile({"--run", "1"}, dir_ / "val.csv", "from-run.csv");
    EXPECT_NE(fileText(dir_ / "stdout").find("at max length 8"), std::string::npos);
    expectExportPredictsAsRun(dir_ / "val.csv", out);
    EXPECT_NE(fileText(dir_ / "stdout").find("at max length 8"), std::string::npos)
        << fileText(dir_ / "stdout");
}

}  // namespace
}  // namespace bert::test
