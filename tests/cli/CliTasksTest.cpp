// Issue 29: each task type from the command line as a user runs it: the task guessed from the
// data and said before training, the run trained and stored with the task's figures, `runs
// show` printing them, and the exported folder naming transformers' class and problem_type.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliSupport.h"
#include "runs/RunStore.h"

namespace bert::test {
namespace {

using CliTasks = CliFixture;

/// predict --json's lines for texts, from a run (--run 1) or a folder.
std::vector<nlohmann::json> predictJson(const std::string& db, const std::filesystem::path& dir,
                                        const std::vector<std::string>& source,
                                        const std::vector<std::string>& texts) {
    std::vector<std::string> args = {"--db", db, "predict", "--json"};
    args.insert(args.end(), source.begin(), source.end());
    args.insert(args.end(), texts.begin(), texts.end());
    const auto outcome = runCli(args, dir);
    EXPECT_EQ(outcome.code, 0) << outcome.err;
    std::vector<nlohmann::json> lines;
    std::istringstream in(outcome.out);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(nlohmann::json::parse(line));
    }
    return lines;
}

/// `runs examples 1 --worst count --json`'s rows, and predict --json's line for each of their
/// texts (the run's served model).
struct WorstExamples {
    nlohmann::json rows;
    std::vector<nlohmann::json> predicted;
};
WorstExamples worstExamples(const std::string& db, const std::filesystem::path& dir, int count) {
    const auto outcome = runCli(
        {"--db", db, "runs", "examples", "1", "--worst", std::to_string(count), "--json"}, dir);
    EXPECT_EQ(outcome.code, 0) << outcome.err;
    WorstExamples worst;
    worst.rows = nlohmann::json::parse(outcome.out)["examples"];
    EXPECT_EQ(static_cast<int>(worst.rows.size()), count);
    std::vector<std::string> texts;
    for (const auto& row : worst.rows) {
        texts.push_back(row["text"].get<std::string>());
    }
    worst.predicted = predictJson(db, dir, {"--run", "1"}, texts);
    EXPECT_EQ(worst.predicted.size(), worst.rows.size());
    return worst;
}

/// Items joined as a run's examples join them, or none when there are no items.
std::string joinedOr(const std::vector<std::string>& items, const std::string& separator,
                     const std::string& none) {
    std::string text;
    for (const auto& item : items) {
        text += (text.empty() ? "" : separator) + item;
    }
    return text.empty() ? none : text;
}

nlohmann::json exportedConfig(const std::filesystem::path& folder) {
    return nlohmann::json::parse(std::ifstream(folder / "config.json"));
}

std::vector<std::string> taskArgs(const std::string& db, const std::filesystem::path& dir,
                                  const std::filesystem::path& data,
                                  const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--db",
                                     db,
                                     "train",
                                     "--model",
                                     (dir / "model").string(),
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
    return args;
}

TEST_F(CliTasks, MultiLabelIsGuessedTrainedShownAndExportedAsTransformersMultiLabel) {
    writeTaskCsv(dir_ / "tasks.csv", 120);
    const auto trained = runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                                         {"--label-column", "labels", "--epochs", "3"}),
                                dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_NE(trained.err.find("task: multi-label"), std::string::npos) << trained.err;
    EXPECT_NE(trained.out.find("validation micro-F1"), std::string::npos) << trained.out;

    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("subset accuracy"), std::string::npos) << show.out;

    // The worst examples' labels are predict's, at the run's threshold; what they miss and add
    // is the difference from the truth.
    const auto worst = worstExamples(db_, dir_.path(), 4);
    for (std::size_t i = 0; i < worst.predicted.size(); ++i) {
        const auto& row = worst.rows[i];
        EXPECT_EQ(
            row["predicted"].get<std::string>(),
            joinedOr(worst.predicted[i]["labels"].get<std::vector<std::string>>(), ", ", "(none)"))
            << row.dump();
        for (const auto& missed : row.value("missed", nlohmann::json::array())) {
            EXPECT_NE(row["truth"].get<std::string>().find(missed.get<std::string>()),
                      std::string::npos);
        }
    }

    // Compared with a single-label run, each is judged by its own task's metric, named (it read
    // "best accuracy", the multi-label run's subset accuracy).
    ASSERT_EQ(
        runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                        {"--label-column", "labels", "--task", "single-label", "--epochs", "1"}),
               dir_.path())
            .code,
        0);
    const auto compare = runCli({"--db", db_, "runs", "compare", "1", "2"}, dir_.path());
    ASSERT_EQ(compare.code, 0) << compare.err;
    EXPECT_EQ(compare.out.find("best accuracy"), std::string::npos) << compare.out;
    EXPECT_NE(compare.out.find("best task metric"), std::string::npos) << compare.out;
    const std::regex microF1(R"(\d\.\d{4} micro-F1)");
    const std::regex accuracy(R"(\d\.\d{4} accuracy)");
    EXPECT_TRUE(std::regex_search(compare.out, microF1)) << compare.out;
    EXPECT_TRUE(std::regex_search(compare.out, accuracy)) << compare.out;

    // `runs list` shows the same: each run's best by its task's metric, named (its "accuracy"
    // column showed the multi-label run's subset accuracy).
    const auto list = runCli({"--db", db_, "runs", "list"}, dir_.path());
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_NE(list.out.find("best task metric"), std::string::npos) << list.out;
    const auto firstLine = list.out.substr(list.out.find("\n1 "));
    EXPECT_TRUE(std::regex_search(firstLine.substr(0, firstLine.find('\n', 1)), microF1))
        << list.out;
    EXPECT_TRUE(std::regex_search(list.out, accuracy)) << list.out;

    const auto folder = dir_ / "exported";
    ASSERT_EQ(runCli({"--db", db_, "export", "1", folder.string()}, dir_.path()).code, 0);
    const auto config = exportedConfig(folder);
    EXPECT_EQ(config["problem_type"], "multi_label_classification");
    EXPECT_EQ(config["id2label"]["0"], "bad");
    EXPECT_EQ(config["id2label"]["1"], "good");
    ASSERT_TRUE(config["bert_studio_task"]["threshold"].is_number());

    // Predicting from the run and from the exported folder gives the same labels at the run's
    // threshold: a label when its own sigmoid probability reaches it.
    const std::vector<std::string> texts = {"the cat sat good", "i was very bad good", "the mat"};
    const auto fromRun = predictJson(db_, dir_.path(), {"--run", "1"}, texts);
    const auto fromFolder = predictJson(db_, dir_.path(), {"--model", folder.string()}, texts);
    ASSERT_EQ(fromRun.size(), 3U);
    ASSERT_EQ(fromFolder.size(), 3U);
    const double threshold = config["bert_studio_task"]["threshold"].get<double>();
    for (std::size_t i = 0; i < texts.size(); ++i) {
        EXPECT_EQ(fromRun[i]["labels"], fromFolder[i]["labels"]);
        EXPECT_DOUBLE_EQ(fromRun[i]["threshold"].get<double>(), threshold);
        std::vector<std::string> expected;
        for (const auto& [label, p] : fromRun[i]["probabilities"].items()) {
            if (p.get<double>() >= threshold) {
                expected.push_back(label);
            }
        }
        EXPECT_EQ(fromRun[i]["labels"].get<std::vector<std::string>>(), expected);
    }
}

// A file of one 0/1 column per label, trained with no flag: the guess said multi-label from
// those columns and then training failed with "no label column" (the guess's columns were not
// used); the studio trained the same file.
TEST_F(CliTasks, ZeroOneColumnsAreGuessedAndTrainedUnderTheirNamesWithoutFlags) {
    {
        std::ofstream out(dir_ / "flags.csv");
        out << "text,good,bad\n";
        for (int i = 0; i < 48; ++i) {
            const bool good = i % 2 == 0;
            const bool bad = i % 3 == 0;
            out << "the cat sat" << (good ? " good" : "") << (bad ? " bad" : "") << ','
                << (good ? 1 : 0) << ',' << (bad ? 1 : 0) << "\n";
        }
    }
    std::vector<std::string> args = {"--db",
                                     db_,
                                     "train",
                                     "--model",
                                     (dir_ / "model").string(),
                                     "--train",
                                     (dir_ / "flags.csv").string(),
                                     "--max-steps",
                                     "2",
                                     "--max-length",
                                     "16"};
    const auto trained = runCli(args, dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_NE(trained.err.find("task: multi-label (one 0/1 column per label"), std::string::npos)
        << trained.err;
    const auto folder = dir_ / "exported";
    ASSERT_EQ(runCli({"--db", db_, "export", "1", folder.string()}, dir_.path()).code, 0);
    const auto config = exportedConfig(folder);
    EXPECT_EQ(config["problem_type"], "multi_label_classification");
    EXPECT_EQ(config["id2label"]["0"], "bad");
    EXPECT_EQ(config["id2label"]["1"], "good");
}

TEST_F(CliTasks, RegressionIsChosenStandardisedTrainedAndExportedWithOneOutput) {
    writeTaskCsv(dir_ / "tasks.csv", 80);
    // 3..18 words: few enough distinct integers to read as classes, so the user says.
    const auto trained = runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                                         {"--label-column", "words", "--task", "regression",
                                          "--standardize-targets", "--epochs", "2"}),
                                dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_EQ(trained.err.find("task:"), std::string::npos) << "nothing is guessed when told";
    EXPECT_NE(trained.out.find("validation RMSE"), std::string::npos) << trained.out;

    // The largest residuals first, each predict's number less the truth, in words.
    const auto worst = worstExamples(db_, dir_.path(), 3);
    for (std::size_t i = 0; i < worst.predicted.size(); ++i) {
        const auto& row = worst.rows[i];
        const double value = worst.predicted[i]["value"].get<double>();
        EXPECT_NEAR(std::stod(row["predicted"].get<std::string>()), value,
                    1e-4 * std::max(1.0, std::abs(value)))
            << row.dump();
        EXPECT_NEAR(row["residual"].get<double>(),
                    value - std::stod(row["truth"].get<std::string>()), 1e-3)
            << row.dump();
        if (i > 0) {
            EXPECT_GE(std::abs(worst.rows[i - 1]["residual"].get<double>()),
                      std::abs(row["residual"].get<double>()));
        }
    }

    const auto folder = dir_ / "exported";
    ASSERT_EQ(runCli({"--db", db_, "export", "1", folder.string()}, dir_.path()).code, 0);
    const auto config = exportedConfig(folder);
    EXPECT_EQ(config["problem_type"], "regression");
    EXPECT_EQ(config["id2label"].size(), 1U);
    const auto scale = config["bert_studio_task"]["target_scaling"]["scale"].get<double>();
    EXPECT_GT(scale, 1.0) << "standardised: the words' deviation is several words";

    // The number comes back in words, the same from the run and from the folder.
    const std::vector<std::string> texts = {"the cat", "the cat sat on the mat i was very it"};
    const auto fromRun = predictJson(db_, dir_.path(), {"--run", "1"}, texts);
    const auto fromFolder = predictJson(db_, dir_.path(), {"--model", folder.string()}, texts);
    ASSERT_EQ(fromRun.size(), 2U);
    ASSERT_EQ(fromFolder.size(), 2U);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        EXPECT_NEAR(fromRun[i]["value"].get<double>(), fromFolder[i]["value"].get<double>(), 1e-9);
        EXPECT_GT(fromRun[i]["value"].get<double>(), 0.0);
    }
}

TEST_F(CliTasks, ACoNLLFileTrainsATokenClassifierExportedForAutoModelForTokenClassification) {
    writeConll(dir_ / "animals.conll", 80);
    const auto trained =
        runCli(taskArgs(db_, dir_.path(), dir_ / "animals.conll", {"--epochs", "3"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_NE(trained.err.find("task: token-classification"), std::string::npos) << trained.err;
    EXPECT_NE(trained.out.find("validation entity-F1"), std::string::npos) << trained.out;

    // The worst sentences' entities, quoted as predict finds them in the same text.
    const auto worst = worstExamples(db_, dir_.path(), 3);
    for (std::size_t i = 0; i < worst.predicted.size(); ++i) {
        std::vector<std::string> entities;
        for (const auto& entity : worst.predicted[i]["entities"]) {
            entities.push_back(entity["type"].get<std::string>() + ": " +
                               entity["text"].get<std::string>());
        }
        EXPECT_EQ(worst.rows[i]["predicted"].get<std::string>(),
                  joinedOr(entities, "; ", "(no entity)"))
            << worst.rows[i].dump();
    }

    const auto folder = dir_ / "exported";
    ASSERT_EQ(runCli({"--db", db_, "export", "1", folder.string()}, dir_.path()).code, 0);
    const auto config = exportedConfig(folder);
    EXPECT_EQ(config["architectures"][0], "BertForTokenClassification");
    EXPECT_EQ(config["id2label"]["1"], "B-ANIMAL");

    // Entities with their offsets into the text, the same from the run and from the folder;
    // every span is the text it names.
    const std::vector<std::string> texts = {"the cat sat on the mat", "dogs  and  cats here"};
    const auto fromRun = predictJson(db_, dir_.path(), {"--run", "1"}, texts);
    const auto fromFolder = predictJson(db_, dir_.path(), {"--model", folder.string()}, texts);
    ASSERT_EQ(fromRun.size(), 2U);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        EXPECT_EQ(fromRun[i], fromFolder[i]);
        for (const auto& entity : fromRun[i]["entities"]) {
            const auto begin = entity["byte_start"].get<std::size_t>();
            const auto end = entity["byte_end"].get<std::size_t>();
            EXPECT_EQ(texts[i].substr(begin, end - begin), entity["text"].get<std::string>());
        }
    }

    // A file's predictions as JSON lines.
    std::ofstream(dir_ / "texts.csv") << "text\nthe cat sat\ndogs were here\n";
    const auto scored =
        runCli({"--db", db_, "predict", "--run", "1", "--file", (dir_ / "texts.csv").string(),
                "--output", (dir_ / "entities.jsonl").string()},
               dir_.path());
    ASSERT_EQ(scored.code, 0) << scored.err;
    std::ifstream lines(dir_ / "entities.jsonl");
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        EXPECT_TRUE(nlohmann::json::parse(line).contains("entities")) << line;
    }
    EXPECT_EQ(count, 2U);
}

TEST_F(CliTasks, ATargetThatIsNotANumberEndsWithTheFileAndLineAndExitCode2) {
    std::ofstream(dir_ / "scores.csv") << "text,score\nthe cat sat,1.5\nthe mat,4.25\nit was,n/a\n";
    const auto trained = runCli(taskArgs(db_, dir_.path(), dir_ / "scores.csv",
                                         {"--label-column", "score", "--task", "regression"}),
                                dir_.path());
    EXPECT_EQ(trained.code, 2);
    EXPECT_NE(trained.err.find("scores.csv"), std::string::npos) << trained.err;
    EXPECT_NE(trained.err.find("line 4"), std::string::npos) << trained.err;
}

// A class under 5% of the examples is named before training with what weighs it up; a run that
// weighs it up already is not told.
TEST_F(CliTasks, ARareClassIsNamedWithItsRemediesUnlessTheRunWeighsItUp) {
    {
        std::ofstream out(dir_ / "rare.csv");
        out << "text,label\n";
        for (int i = 0; i < 100; ++i) {
            out << (i % 33 == 5 ? "the film was bad,spam\n" : "the cat sat on the mat,ham\n");
        }
    }
    const auto plain =
        runCli(taskArgs(db_, dir_.path(), dir_ / "rare.csv", {"--epochs", "1"}), dir_.path());
    ASSERT_EQ(plain.code, 0) << plain.err;
    EXPECT_NE(plain.err.find("rare classes: \"spam\" 3.0% (3/100); a model can score well while "
                             "ignoring them: --class-weighting balanced or --focal-gamma 2"),
              std::string::npos)
        << plain.err;
    for (const auto& remedy : {std::vector<std::string>{"--class-weighting", "balanced"},
                               std::vector<std::string>{"--focal-gamma", "2"}}) {
        auto extra = remedy;
        extra.insert(extra.end(), {"--epochs", "1"});
        const auto weighed =
            runCli(taskArgs(db_, dir_.path(), dir_ / "rare.csv", extra), dir_.path());
        ASSERT_EQ(weighed.code, 0) << weighed.err;
        EXPECT_EQ(weighed.err.find("rare classes"), std::string::npos) << weighed.err;
    }
    // A share the user chose: 3% is rare under 4%, not under 2.5%.
    for (const auto& [share, rare] : {std::pair<const char*, bool>{"2.5", false}, {"4", true}}) {
        const auto chosen = runCli(
            taskArgs(db_, dir_.path(), dir_ / "rare.csv", {"--rare-share", share, "--epochs", "1"}),
            dir_.path());
        ASSERT_EQ(chosen.code, 0) << chosen.err;
        EXPECT_EQ(chosen.err.find("rare classes: \"spam\" 3.0%") != std::string::npos, rare)
            << "--rare-share " << share << ": " << chosen.err;
    }
    // Multi-label: a label on 3 of 100 examples.
    {
        std::ofstream out(dir_ / "rare-labels.csv");
        out << "text,labels\n";
        for (int i = 0; i < 100; ++i) {
            out << "the cat sat on the mat," << (i % 2 == 0 ? "reply;list" : "reply")
                << (i % 33 == 5 ? ";urgent" : "") << "\n";
        }
    }
    const auto labels =
        runCli(taskArgs(db_, dir_.path(), dir_ / "rare-labels.csv",
                        {"--label-column", "labels", "--task", "multi-label", "--epochs", "1"}),
               dir_.path());
    ASSERT_EQ(labels.code, 0) << labels.err;
    EXPECT_NE(labels.err.find("rare labels: \"urgent\" 3.0% (3/100); a model can score well "
                              "while ignoring them"),
              std::string::npos)
        << labels.err;
    EXPECT_NE(labels.err.find("per-label F1"), std::string::npos) << labels.err;
}

// Focal loss: a multi-label run with it trains and lists it among its techniques; regression has
// no classes for it to reshape, so a regression job asking for it is refused naming the setting
// (exit 2) before any run is stored.
TEST_F(CliTasks, FocalLossTrainsWhereThereAreClassesAndIsRefusedForRegression) {
    writeTaskCsv(dir_ / "tasks.csv", 40);
    const auto focal =
        runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                        {"--label-column", "labels", "--focal-gamma", "2", "--epochs", "1"}),
               dir_.path());
    ASSERT_EQ(focal.code, 0) << focal.err;
    const auto shown = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    ASSERT_EQ(shown.code, 0) << shown.err;
    EXPECT_NE(shown.out.find("focal loss (gamma 2)"), std::string::npos) << shown.out;

    const auto regression =
        runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                        {"--label-column", "words", "--task", "regression", "--focal-gamma", "2"}),
               dir_.path());
    EXPECT_EQ(regression.code, 2) << regression.err;
    EXPECT_NE(regression.err.find("--focal-gamma 2: focal loss reshapes a loss over classes, and "
                                  "regression has none"),
              std::string::npos)
        << regression.err;
    const auto runs = runCli({"--db", db_, "runs", "list"}, dir_.path());
    EXPECT_EQ(runs.out.find("\n2 "), std::string::npos) << "a refused run was stored:\n"
                                                        << runs.out;
}

// Every single-label evaluation measures its calibration: the final line and `runs show` say the
// expected calibration error. --temperature-scaling and --balanced-sampling are single-label
// settings, refused for the other tasks before any run is stored, naming them (exit 2).
TEST_F(CliTasks, EceIsSaidForSingleLabelAndItsOwnSettingsRefusedForOtherTasks) {
    const auto trained = runCli(trainArgs({"--epochs", "1", "--balanced-sampling"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_NE(trained.out.find(", ECE 0."), std::string::npos) << trained.out;
    const auto shown = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    ASSERT_EQ(shown.code, 0) << shown.err;
    EXPECT_NE(shown.out.find("balanced sampling"), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find("ECE 0."), std::string::npos) << shown.out;
    RunStore store(db_, RunStore::Access::ReadOnly);
    const auto evaluations = store.evaluations(1);
    ASSERT_FALSE(evaluations.empty());
    const auto& calibration = evaluations.back().calibration;
    ASSERT_TRUE(calibration.is_object()) << "stored with the evaluation";
    std::int64_t counted = 0;
    for (const auto& bin : calibration["reliability"]) {
        counted += bin["count"].get<std::int64_t>();
    }
    std::int64_t examples = 0;
    for (const auto& row : evaluations.back().confusion) {
        for (const auto cell : row) {
            examples += cell;
        }
    }
    EXPECT_GT(examples, 0);
    EXPECT_EQ(counted, examples) << "every validation example in a bin";

    writeTaskCsv(dir_ / "tasks.csv", 40);
    for (const std::string task : {"multi-label", "regression"}) {
        const auto column = task == "regression" ? "words" : "labels";
        const std::pair<const char*, std::string> refusals[] = {
            {"--temperature-scaling",
             "--temperature-scaling calibrates single-label classification (one softmax per "
             "text), not "},
            {"--balanced-sampling",
             "--balanced-sampling draws single-label classes equally "
             "often, not "}};
        for (const auto& [flag, said] : refusals) {
            const auto refused = runCli(taskArgs(db_, dir_.path(), dir_ / "tasks.csv",
                                                 {"--label-column", column, "--task", task, flag}),
                                        dir_.path());
            EXPECT_EQ(refused.code, 2) << refused.err;
            EXPECT_NE(refused.err.find(said + task), std::string::npos) << refused.err;
        }
    }
    const auto runs = runCli({"--db", db_, "runs", "list"}, dir_.path());
    EXPECT_EQ(runs.out.find("\n2 "), std::string::npos) << "a refused run was stored:\n"
                                                        << runs.out;
}

// Long texts: a strategy that cannot apply, or a stride that cannot cut, is refused before any
// run is stored, naming the setting (exit 2); a strategy that applies says what it made.
TEST_F(CliTasks, LongTextStrategiesSayWhatTheyMadeAndRefuseWhatCannotApply) {
    const auto windows = runCli(trainArgs({"--long-text", "windows", "--window-stride", "8",
                                           "--max-length", "12", "--epochs", "1"}),
                                dir_.path());
    ASSERT_EQ(windows.code, 0) << windows.err;
    EXPECT_NE(windows.err.find("windows per document"), std::string::npos) << windows.err;
    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    EXPECT_NE(show.out.find("windows (stride 8"), std::string::npos) << show.out;

    const auto wide =
        runCli(trainArgs({"--long-text", "windows", "--window-stride", "10", "--max-length", "12"}),
               dir_.path());
    EXPECT_EQ(wide.code, 2) << wide.err;
    EXPECT_NE(wide.err.find("--window-stride 10"), std::string::npos) << wide.err;

    writeConll(dir_ / "tags.conll", 20);
    const auto tagging = runCli(
        taskArgs(db_, dir_.path(), dir_ / "tags.conll", {"--long-text", "head-tail"}), dir_.path());
    EXPECT_EQ(tagging.code, 2) << tagging.err;
    EXPECT_NE(tagging.err.find("--long-text head-tail"), std::string::npos) << tagging.err;
    const auto runs = runCli({"--db", db_, "runs", "list"}, dir_.path());
    EXPECT_EQ(runs.out.find("\n2 "), std::string::npos) << "a refused run was stored:\n"
                                                        << runs.out;
}

// A model trained on pairs predicts pairs: a file's second-text column (the run's, found by
// name) and --pair on the command line; the label here is in the second text alone, so a
// prediction that dropped it could not be right. Read alone, each text is warned of.
TEST_F(CliTasks, APairModelPredictsPairsFromAFileAndFromTheCommandLine) {
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
    const auto trained = runCli(taskArgs(db_, dir_.path(), dir_ / "pairs.csv",
                                         {"--text-column", "question", "--pair-column", "answer",
                                          "--label-column", "sentiment", "--epochs", "3"}),
                                dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;

    const auto scored =
        runCli({"--db", db_, "predict", "--run", "1", "--file", (dir_ / "pairs.csv").string(),
                "--text-column", "question", "--label-column", "sentiment"},
               dir_.path());
    ASSERT_EQ(scored.code, 0) << scored.err;
    EXPECT_NE(scored.out.find("accuracy 1.0000 (80/80)"), std::string::npos) << scored.out;

    const auto lines = predictJson(
        db_, dir_.path(),
        {"--run", "1", "--pair", "a great film , i loved it", "--pair", "very bad , awful"},
        {"what did you think ?", "what did you think ?"});
    ASSERT_EQ(lines.size(), 2U);
    EXPECT_EQ(lines[0]["pair"], "a great film , i loved it");
    EXPECT_EQ(lines[0]["label"], "pos") << lines[0];
    EXPECT_EQ(lines[1]["label"], "neg") << lines[1];

    const auto alone =
        runCli({"--db", db_, "predict", "--run", "1", "what did you think ?"}, dir_.path());
    EXPECT_EQ(alone.code, 0) << alone.err;
    EXPECT_NE(alone.err.find("trained on pairs"), std::string::npos) << alone.err;
    const auto mismatched =
        runCli({"--db", db_, "predict", "--run", "1", "--pair", "x", "a", "b"}, dir_.path());
    EXPECT_EQ(mismatched.code, 2) << mismatched.err;
    EXPECT_NE(mismatched.err.find("--pair"), std::string::npos) << mismatched.err;
}

}  // namespace
}  // namespace bert::test
