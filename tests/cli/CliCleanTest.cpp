// `clean`: likely label errors found by training on folds and ranking the held-out predictions by
// confident learning, as a user runs it: the labels flipped on purpose are the ones listed, the
// corrected copy leaves them out (or relabels them) in a new file, the user's file is never
// changed, and what cannot be cleaned is refused with exit code 2 before anything trains.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "CliSupport.h"

namespace bert::test {
namespace {

/// The fixture's training flags (tiny model, reviews' columns, batch 8, length 32) for `clean`
/// on data, 4 epochs at learning rate 3e-3, then extra.
class CliClean : public CliFixture {
protected:
    std::vector<std::string> cleanArgs(const std::filesystem::path& data,
                                       const std::vector<std::string>& extra) const {
        auto args = trainArgs({"--epochs", "4"});
        args[2] = "clean";
        args[6] = data.string();  // --train
        *(std::find(args.begin(), args.end(), "--lr") + 1) = "3e-3";
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
};

/// 60 reviews of two kinds (the even rows "loved it", the odd "very bad"), the labels of rows
/// flipped; returns the file's lines of the flipped rows (the header is line 1).
std::set<std::size_t> writeFlippedReviews(const std::filesystem::path& file,
                                          const std::set<int>& flipped) {
    std::ofstream csv(file);
    csv << "review,sentiment\n";
    std::set<std::size_t> lines;
    for (int i = 0; i < 60; ++i) {
        const bool positive = i % 2 == 0;
        const bool flip = flipped.count(i) > 0;
        csv << (positive ? "\"i loved it, a great film !\"" : "\"the film was very bad , awful\"")
            << "," << ((positive != flip) ? "pos" : "neg") << "\n";
        if (flip) {
            lines.insert(static_cast<std::size_t>(i) + 2);
        }
    }
    return lines;
}

std::vector<std::vector<std::string>> csvRows(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::string cell;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
        cells.push_back(cell);
        rows.push_back(cells);
    }
    return rows;
}

TEST_F(CliClean, TheFlippedLabelsAreFoundAndTheCorrectedCopyLeavesThemOut) {
    const auto data = dir_ / "flipped.csv";
    const auto flipped = writeFlippedReviews(data, {3, 10, 21, 38});
    const auto before = readFile(data);
    const auto list = dir_ / "issues.csv";
    const auto cleaned = dir_ / "flipped.cleaned.csv";
    const auto outcome = runCli(
        cleanArgs(data, {"--folds", "3", "--output", list.string(), "--cleaned", cleaned.string()}),
        dir_.path());
    ASSERT_EQ(outcome.code, 0) << outcome.err;
    EXPECT_NE(outcome.out.find("4 of 60 examples (6.7%) have a label that is likely wrong"),
              std::string::npos)
        << outcome.out;
    EXPECT_NE(outcome.err.find("fold 3/3: trained on 40 examples, 20 held out"), std::string::npos)
        << outcome.err;

    // The list: the flipped rows, by their lines, each given the other label.
    const auto rows = csvRows(list);
    ASSERT_EQ(rows.size(), 5U);
    EXPECT_EQ(rows[0][0], "rank");
    std::set<std::size_t> found;
    for (std::size_t r = 1; r < rows.size(); ++r) {
        found.insert(std::stoul(rows[r][1]));
        EXPECT_NE(rows[r][2], rows[r][3]) << "given and likely differ";
        EXPECT_EQ(rows[r][3], rows[r][5].find("loved") != std::string::npos ? "pos" : "neg");
    }
    EXPECT_EQ(found, flipped);

    // The corrected copy: the 56 others, each with the label of its kind; the file as it was.
    const auto kept = csvRows(cleaned);
    ASSERT_EQ(kept.size(), 57U);
    EXPECT_EQ(kept[0], (std::vector<std::string>{"review", "sentiment"}));
    for (std::size_t r = 1; r < kept.size(); ++r) {
        EXPECT_EQ(kept[r][1], kept[r][0].find("loved") != std::string::npos ? "pos" : "neg");
    }
    EXPECT_EQ(readFile(data), before) << "the user's file is never changed";

    // Relabelled instead: all 60, every label now its kind's.
    const auto relabelled = dir_ / "flipped.relabelled.csv";
    const auto again = runCli(cleanArgs(data, {"--folds", "3", "--cleaned", relabelled.string(),
                                               "--relabel", "--show", "2"}),
                              dir_.path());
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_NE(again.out.find("… and 2 more"), std::string::npos) << again.out;
    const auto all = csvRows(relabelled);
    ASSERT_EQ(all.size(), 61U);
    for (std::size_t r = 1; r < all.size(); ++r) {
        EXPECT_EQ(all[r][1], all[r][0].find("loved") != std::string::npos ? "pos" : "neg");
    }
}

TEST_F(CliClean, WhatCannotBeCleanedIsRefusedBeforeAnythingTrains) {
    const auto data = dir_ / "flipped.csv";
    writeFlippedReviews(data, {1});
    // More folds than a class has examples: the class named.
    const auto folds = runCli(cleanArgs(data, {"--folds", "40"}), dir_.path());
    EXPECT_EQ(folds.code, 2) << folds.err;
    EXPECT_NE(folds.err.find("has 29 examples, fewer than the 40 folds"), std::string::npos)
        << folds.err;
    EXPECT_EQ(folds.err.find("fold 1/"), std::string::npos) << "nothing trained";
    // The user's own file as the corrected copy.
    const auto over = runCli(cleanArgs(data, {"--cleaned", data.string()}), dir_.path());
    EXPECT_EQ(over.code, 2) << over.err;
    EXPECT_NE(over.err.find("is the training file itself"), std::string::npos) << over.err;
    // A task other than single-label.
    writeTaskCsv(dir_ / "tasks.csv", 40);
    const auto multi =
        runCli({"--db", db_, "clean", "--model", (dir_ / "model").string(), "--train",
                (dir_ / "tasks.csv").string(), "--label-column", "labels", "--task", "multi-label"},
               dir_.path());
    EXPECT_EQ(multi.code, 2) << multi.err;
    EXPECT_NE(multi.err.find("clean finds label errors of single-label classification, not "
                             "multi-label"),
              std::string::npos)
        << multi.err;
}

}  // namespace
}  // namespace bert::test
