// `runs examples`: the validation examples of a run's best evaluation, highest loss first, as a
// user reads them (a table, CSV, JSON), and what `predict` says of the same texts with the same
// model: the stored prediction and probability must be the served model's, or the list would send
// the user to the wrong examples.
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CliSupport.h"
#include "runs/RunStore.h"

namespace bert::test {
namespace {

using CliExamples = CliFixture;

nlohmann::json examplesJson(const std::string& db, const std::filesystem::path& dir,
                            const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"--db", db, "runs", "examples", "1", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto outcome = runCli(args, dir);
    EXPECT_EQ(outcome.code, 0) << outcome.err;
    return nlohmann::json::parse(outcome.out);
}

TEST_F(CliExamples, TheWorstExamplesAreWhatPredictSaysOfThemAndTheirCountsAddUp) {
    const auto trained = runCli(trainArgs({"--epochs", "1"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    const auto evaluations = store.evaluations(1);
    ASSERT_FALSE(evaluations.empty());
    std::int64_t validation = 0;
    std::int64_t right = 0;
    for (std::size_t t = 0; t < evaluations.back().confusion.size(); ++t) {
        for (std::size_t p = 0; p < evaluations.back().confusion[t].size(); ++p) {
            validation += evaluations.back().confusion[t][p];
            right += t == p ? evaluations.back().confusion[t][p] : 0;
        }
    }

    // All of them, highest loss first.
    const auto all = examplesJson(db_, dir_.path());
    EXPECT_EQ(all["evaluated"].get<std::int64_t>(), validation);
    ASSERT_EQ(static_cast<std::int64_t>(all["examples"].size()), validation);
    for (std::size_t i = 1; i < all["examples"].size(); ++i) {
        EXPECT_GE(all["examples"][i - 1]["loss"].get<double>(),
                  all["examples"][i]["loss"].get<double>());
    }
    // --wrong: those the matrix counts off its diagonal.
    const auto wrong = examplesJson(db_, dir_.path(), {"--wrong"});
    EXPECT_EQ(static_cast<std::int64_t>(wrong["examples"].size()), validation - right);

    // The five worst: predict gives the same label and the same probability of the truth.
    const auto worst = examplesJson(db_, dir_.path(), {"--worst", "5"});
    ASSERT_EQ(worst["examples"].size(), 5U);
    std::vector<std::string> args = {"--db", db_, "predict", "--json", "--run", "1"};
    for (const auto& row : worst["examples"]) {
        args.push_back(row["text"].get<std::string>());
    }
    const auto predicted = runCli(args, dir_.path());
    ASSERT_EQ(predicted.code, 0) << predicted.err;
    std::istringstream lines(predicted.out);
    for (const auto& row : worst["examples"]) {
        std::string line;
        ASSERT_TRUE(std::getline(lines, line));
        const auto answer = nlohmann::json::parse(line);
        EXPECT_EQ(answer["label"], row["predicted"]) << line;
        EXPECT_NEAR(answer["probabilities"][row["truth"].get<std::string>()].get<double>(),
                    row["truth_probability"].get<double>(), 1e-4)
            << line;
    }

    // The table says which evaluation and how many; CSV writes a line per example.
    const auto table = runCli({"--db", db_, "runs", "examples", "1", "--worst", "3"}, dir_.path());
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("(best): the 3 of " + std::to_string(validation) +
                             " validation examples with the highest loss\n"),
              std::string::npos)
        << table.out;
    EXPECT_NE(table.out.find(worst["examples"][0]["truth"].get<std::string>() + " -> " +
                             worst["examples"][0]["predicted"].get<std::string>()),
              std::string::npos)
        << table.out;
    const auto csvFile = dir_ / "worst.csv";
    const auto written =
        runCli({"--db", db_, "runs", "examples", "1", "--worst", "4", "--csv", csvFile.string()},
               dir_.path());
    ASSERT_EQ(written.code, 0) << written.err;
    std::ifstream csv(csvFile);
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header.rfind("line,text,pair,truth,predicted,truth_probability,loss,correct", 0), 0U)
        << header;
    std::size_t rows = 0;
    for (std::string line; std::getline(csv, line);) {
        ++rows;
    }
    EXPECT_EQ(rows, 4U);

    // A run that does not exist: exit 2, named.
    const auto missing = runCli({"--db", db_, "runs", "examples", "9"}, dir_.path());
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("has no run 9"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace bert::test
