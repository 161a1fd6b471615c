// Issue 26, points 1 and 7: no output path may destroy a run. -o and --report are refused onto a
// run database, a runs folder, the data, the model or the input being read (through links too);
// export --force replaces only a folder an earlier export wrote; paths that are links are
// resolved first.
#include <map>
#include <tuple>

#include <gtest/gtest.h>

#include "cli/CliSupport.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"

namespace bert {
namespace {

class CliOutputs : public test::CliFixture {
protected:
    test::Outcome cli(const std::vector<std::string>& args) {
        return test::runCli(args, dir_.path());
    }
    std::vector<std::string> withDb(std::vector<std::string> args) const {
        args.insert(args.begin(), {"--db", db_});
        return args;
    }
    /// The bytes of every file under folder, by relative path: what must stay as it was (but
    /// the commands' own stdout and stderr, and SQLite's -wal and -shm, which readers touch).
    static std::map<std::string, std::string> contentsOf(const std::filesystem::path& folder) {
        std::map<std::string, std::string> contents;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
            const auto name = entry.path().filename().string();
            const bool ignored = name == "stdout" || name == "stderr" ||
                                 name.find("-wal") != std::string::npos ||
                                 name.find("-shm") != std::string::npos;
            if (entry.is_regular_file() && !ignored) {
                contents[entry.path().lexically_relative(folder).string()] =
                    test::readFile(entry.path());
            }
        }
        return contents;
    }
};

TEST_F(CliOutputs, PredictAndReportNeverOverwriteWhatTheToolOwnsOrReads) {
    ASSERT_EQ(cli(trainArgs({"--max-steps", "2"})).code, 0);
    std::filesystem::path checkpoint;
    {
        RunStore store(db_, RunStore::Access::ReadOnly);
        checkpoint = modelCheckpointOfRun(store, 1);
    }
    ASSERT_FALSE(checkpoint.empty());
    std::filesystem::create_symlink(db_, dir_ / "link-to-db.sqlite");
    const auto protectedBefore = contentsOf(dir_.path());

    const auto predict = [&](const std::filesystem::path& output) {
        return cli(withDb({"predict", "--run", "1", "--file", (dir_ / "reviews.csv").string(),
                           "--text-column", "review", "-o", output.string()}));
    };
    for (const auto& [output, what] : std::vector<std::pair<std::filesystem::path, std::string>>{
             {db_, "an SQLite database"},
             {dir_ / "link-to-db.sqlite", "an SQLite database"},
             {dir_ / "reviews.csv", "a file this command reads"},
             {checkpoint / "model.safetensors", "runs folder"},
             {dir_ / "runs" / "new-file.csv", "runs folder"},
             {dir_ / "model" / "config.json", "model folder"}}) {
        const auto refused = predict(output);
        EXPECT_EQ(refused.code, 2) << output << ": " << refused.err;
        EXPECT_NE(refused.err.find(what), std::string::npos) << output << ": " << refused.err;
    }
    // predict -m: the model folder it reads.
    const auto intoModel =
        cli({"predict", "-m", (dir_ / "model").string(), "--file", (dir_ / "reviews.csv").string(),
             "--text-column", "review", "-o", (dir_ / "model" / "vocab.txt").string()});
    EXPECT_EQ(intoModel.code, 2) << intoModel.err;

    // train --report: the database, the data, the model, a checkpoint; and no run is made.
    for (const auto& report : {std::filesystem::path(db_), dir_ / "reviews.csv",
                               dir_ / "model" / "config.json", checkpoint / "trainer_state.json"}) {
        const auto refused = cli(trainArgs({"--max-steps", "1", "--report", report.string()}));
        EXPECT_EQ(refused.code, 2) << report << ": " << refused.err;
        EXPECT_NE(refused.err.find("--report would overwrite"), std::string::npos) << refused.err;
    }
    EXPECT_EQ(contentsOf(dir_.path()), protectedBefore) << "a refused output changed a file";
    EXPECT_EQ(RunStore(db_, RunStore::Access::ReadOnly).runs().size(), 1U);

    // What may be written still is.
    const auto fine = predict(dir_ / "predictions.csv");
    EXPECT_EQ(fine.code, 0) << fine.err;
    const auto again = predict(dir_ / "predictions.csv");  // its own earlier output
    EXPECT_EQ(again.code, 0) << again.err;
}

TEST_F(CliOutputs, ExportForceReplacesOnlyAnEarlierExport) {
    ASSERT_EQ(cli(trainArgs({"--max-steps", "2"})).code, 0);
    // Run 2 trains on a copy of the data in its own folder.
    std::filesystem::create_directories(dir_ / "data");
    std::filesystem::copy_file(dir_ / "reviews.csv", dir_ / "data" / "reviews.csv");
    auto second = trainArgs({"--max-steps", "2"});
    second[6] = (dir_ / "data" / "reviews.csv").string();  // --train
    ASSERT_EQ(cli(second).code, 0);
    std::filesystem::create_directories(dir_ / "photos");
    test::writeFile(dir_ / "photos" / "holiday.jpg", "a picture");
    const auto before = contentsOf(dir_.path());

    const auto exportTo = [&](const std::filesystem::path& target, std::int64_t run = 1) {
        return cli(withDb({"export", std::to_string(run), target.string(), "--force"}));
    };
    // Another run's checkpoints (run 2 then served run 1's weights), the run's data, an unrelated
    // folder, the database's own folder.
    for (const auto& [target, run, what] :
         std::vector<std::tuple<std::filesystem::path, std::int64_t, std::string>>{
             {dir_ / "runs" / "2", 1, "runs folder"},
             {dir_ / "runs", 1, "own checkpoints"},
             {dir_ / "data", 2, "the run's data"},
             {dir_ / "photos", 1, "no export wrote it"},
             {dir_.path(), 1, "own checkpoints"}}) {
        const auto refused = exportTo(target, run);
        EXPECT_EQ(refused.code, 2) << target << ": " << refused.err;
        EXPECT_NE(refused.err.find(what), std::string::npos) << target << ": " << refused.err;
    }
    EXPECT_EQ(contentsOf(dir_.path()), before) << "a refused export changed a file";

    // An earlier export is replaced; a file the export did not write stops it.
    const auto out = dir_ / "out";
    ASSERT_EQ(cli(withDb({"export", "1", out.string()})).code, 0);
    EXPECT_TRUE(std::filesystem::exists(out / ".bert-studio-export"));
    const auto replaced = exportTo(out, 2);
    ASSERT_EQ(replaced.code, 0) << replaced.err;
    EXPECT_EQ(nlohmann::json::parse(test::readFile(out / "run_card.json"))["run"], 2);
    test::writeFile(out / "notes.txt", "mine");
    const auto refused = exportTo(out);
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("holds files an earlier export did not write (notes.txt)"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(test::readFile(out / "notes.txt"), "mine");
    EXPECT_EQ(nlohmann::json::parse(test::readFile(out / "run_card.json"))["run"], 2);
}

// --db through a symlinked file put checkpoints beside the link; export onto a link to an empty
// folder replaced the link instead of filling the folder.
TEST_F(CliOutputs, LinksAreResolvedFirst) {
    std::filesystem::create_directories(dir_ / "real");
    std::filesystem::create_directories(dir_ / "links");
    RunStore(dir_ / "real" / "runs.sqlite");  // the database the link points to
    std::filesystem::create_symlink(dir_ / "real" / "runs.sqlite", dir_ / "links" / "runs.sqlite");
    db_ = (dir_ / "links" / "runs.sqlite").string();
    ASSERT_EQ(cli(trainArgs({"--max-steps", "2"})).code, 0);
    EXPECT_TRUE(std::filesystem::exists(dir_ / "real" / "runs" / "1"))
        << "checkpoints went beside the link";
    EXPECT_FALSE(std::filesystem::exists(dir_ / "links" / "runs"));

    std::filesystem::create_directories(dir_ / "empty");
    std::filesystem::create_directory_symlink(dir_ / "empty", dir_ / "to-empty");
    const auto exported = cli({"--db", (dir_ / "real" / "runs.sqlite").string(), "export", "1",
                               (dir_ / "to-empty").string()});
    ASSERT_EQ(exported.code, 0) << exported.err;
    EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "to-empty")) << "the link was replaced";
    EXPECT_TRUE(std::filesystem::exists(dir_ / "empty" / "model.safetensors"));

    const auto deleted =
        cli({"--db", (dir_ / "real" / "runs.sqlite").string(), "runs", "delete", "1", "--yes"});
    ASSERT_EQ(deleted.code, 0) << deleted.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "real" / "runs" / "1"));
}

}  // namespace
}  // namespace bert
