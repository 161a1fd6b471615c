// Issue 26, points 2 and 4: a resume trains exactly the run it resumes, and one process trains a
// run. A changed config.json (activation, dropout, lower-casing), a shuffled vocabulary or a
// swapped model folder resumed silently, and the run ended with two models; two `resume 1`
// started together both trained it.
#include <signal.h>
#include <sys/wait.h>

#include <gtest/gtest.h>

#include "cli/CliSupport.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"

namespace bert {
namespace {

class CliResume : public test::CliFixture {
protected:
    /// Trains run 1 (40 epochs unless told) and stops it with Ctrl-C after a few recorded steps.
    void trainAndStop(const std::string& epochs = "40") {
        const pid_t pid = test::startCli(trainArgs({"--epochs", epochs}), dir_.path());
        ASSERT_GT(waitForSteps(10), 0U) << test::readFile(dir_ / "stderr");
        ::kill(pid, SIGINT);
        const auto stopped = test::finishCli(pid, dir_.path());
        ASSERT_EQ(stopped.code, 130) << stopped.err;
    }
    test::Outcome resume(const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args = {"--db", db_, "resume", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return test::runCli(args, dir_.path());
    }
    nlohmann::json configOf(const std::filesystem::path& folder) {
        return nlohmann::json::parse(test::readFile(folder / "config.json"));
    }
};

TEST_F(CliResume, AChangedModelIsRefusedAndTheRunContinuesFromItsOwnCheckpoint) {
    trainAndStop();
    const auto original = configOf(dir_ / "model");
    auto relu = original;
    relu["hidden_act"] = "relu";
    test::writeFile(dir_ / "model" / "config.json", relu.dump(2));
    const auto refused = resume();
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find((dir_ / "model" / "config.json").string() + " has changed"),
              std::string::npos)
        << refused.err;
    EXPECT_NE(refused.err.find("resume 1 --from-checkpoint"), std::string::npos) << refused.err;
    {
        RunStore store(db_, RunStore::Access::ReadOnly);
        EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled) << "a refused resume changed the run";
    }

    // Swapped for another folder (or gone): the same.
    std::filesystem::rename(dir_ / "model", dir_ / "model-elsewhere");
    const auto gone = resume();
    EXPECT_EQ(gone.code, 2) << gone.err;
    EXPECT_NE(gone.err.find("config.json is gone"), std::string::npos) << gone.err;

    // The run's own checkpoint holds what it trained with: it ends with one model, not two.
    const auto continued = resume({"--from-checkpoint"});
    ASSERT_EQ(continued.code, 0) << continued.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Completed);
    EXPECT_EQ(store.steps(1).back().step, 40U * 8U);
    for (const bool best : {true, false}) {
        EXPECT_EQ(configOf(modelCheckpointOfRun(store, 1, best))["hidden_act"],
                  original["hidden_act"])
            << (best ? "best" : "last") << " checkpoint trained another model";
    }
}

TEST_F(CliResume, ChangedDataIsRefused) {
    trainAndStop();
    test::writeFile(dir_ / "reviews.csv",
                    test::readFile(dir_ / "reviews.csv") + "\"an extra review, great\",pos\n");
    const auto refused = resume({"--from-checkpoint"});
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("reviews.csv has changed"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("resuming would train on other data"), std::string::npos)
        << refused.err;
}

// A database moved with its runs folder keeps working; moved without it, it says so (it said the
// run "stopped before its first checkpoint").
TEST_F(CliResume, ADatabaseMovedWithItsRunsFolderKeepsWorkingAndWithoutItSaysSo) {
    trainAndStop();
    std::filesystem::create_directories(dir_ / "moved");
    std::filesystem::rename(db_, dir_ / "moved" / "runs.sqlite");
    std::filesystem::remove(db_ + "-wal");
    std::filesystem::remove(db_ + "-shm");
    const auto alone = test::runCli(
        {"--db", (dir_ / "moved" / "runs.sqlite").string(), "resume", "1"}, dir_.path());
    EXPECT_EQ(alone.code, 2) << alone.err;
    EXPECT_NE(alone.err.find("was the database moved without its runs folder?"), std::string::npos)
        << alone.err;
    const auto exported = test::runCli(
        {"--db", (dir_ / "moved" / "runs.sqlite").string(), "export", "1", (dir_ / "out").string()},
        dir_.path());
    EXPECT_EQ(exported.code, 2) << exported.err;
    EXPECT_NE(exported.err.find("was the database moved without its runs folder"),
              std::string::npos)
        << exported.err;

    std::filesystem::rename(dir_ / "runs", dir_ / "moved" / "runs");
    const auto together = test::runCli(
        {"--db", (dir_ / "moved" / "runs.sqlite").string(), "resume", "1"}, dir_.path());
    ASSERT_EQ(together.code, 0) << together.err;
    EXPECT_NE(together.out.find("completed"), std::string::npos) << together.out;
}

// Two resumes started together: exactly one trains; the other ends at once with exit code 4 and
// names the process that holds the run.
TEST_F(CliResume, TwoResumesStartedTogetherTrainTheRunOnce) {
    trainAndStop("1000");  // the winner trains until it is stopped, however loaded the machine
    std::filesystem::create_directories(dir_ / "a");
    std::filesystem::create_directories(dir_ / "b");
    const std::vector<std::string> args = {"--db", db_, "resume", "1"};
    const pid_t a = test::startCli(args, dir_ / "a");
    const pid_t b = test::startCli(args, dir_ / "b");
    // The loser ends within seconds; the winner trains hundreds of steps.
    int status = 0;
    const pid_t first = ::waitpid(-1, &status, 0);
    ASSERT_TRUE(first == a || first == b);
    const pid_t winner = first == a ? b : a;
    const auto loserDir = dir_ / (first == a ? "a" : "b");
    ASSERT_TRUE(WIFEXITED(status));
    const auto loserErr = test::readFile(loserDir / "stderr");
    EXPECT_EQ(WEXITSTATUS(status), 4) << loserErr;
    EXPECT_NE(loserErr.find("run 1 is being resumed by process " + std::to_string(winner)),
              std::string::npos)
        << loserErr;
    ::kill(winner, SIGINT);
    const auto stopped = test::finishCli(winner, dir_ / (first == a ? "b" : "a"));
    EXPECT_EQ(stopped.code, 130) << stopped.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled);
}

}  // namespace
}  // namespace bert
