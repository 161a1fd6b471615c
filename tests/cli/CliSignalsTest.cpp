// Issue 26, point 6: SIGTERM and SIGHUP (docker stop, systemd, Slurm, timeout, a closed
// terminal) stop a run as Ctrl-C does, and the ranks of a --nproc launch never outlive their
// launcher.
#include <chrono>
#include <signal.h>
#include <thread>

#include <gtest/gtest.h>

#include "cli/CliSupport.h"
#include "runs/RunStore.h"

namespace bert {
namespace {

using test::CliFixture;

/// Every file under folder whose name holds ".tmp-" (what an interrupted atomic write leaves).
std::vector<std::filesystem::path> temporariesUnder(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> found;
    std::error_code error;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(folder, error)) {
        if (entry.path().filename().string().find(".tmp-") != std::string::npos) {
            found.push_back(entry.path());
        }
    }
    return found;
}

/// Waits (up to 3 minutes: a loaded machine) until pid is gone; returns whether it went.
bool waitUntilGone(pid_t pid) {
    for (int attempt = 0; attempt < 1800; ++attempt) {
        if (!test::processExists(pid)) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

class CliSignals : public CliFixture {};

// A single process killed by SIGTERM once died with 143 and lost up to an epoch.
TEST_F(CliSignals, SigtermAndSighupStopARunAsCtrlCDoes) {
    for (const int signal : {SIGTERM, SIGHUP}) {
        SCOPED_TRACE(strsignal(signal));
        db_ = (dir_ / (std::string("runs-") + std::to_string(signal) + ".sqlite")).string();
        const pid_t pid = test::startCli(trainArgs({"--epochs", "40"}), dir_.path());
        ASSERT_GT(waitForSteps(10), 0U) << test::readFile(dir_ / "stderr");
        ::kill(pid, signal);
        const auto stopped = test::finishCli(pid, dir_.path());
        EXPECT_EQ(stopped.code, 130) << stopped.err;
        EXPECT_NE(stopped.err.find("resume 1"), std::string::npos) << stopped.err;
        RunStore store(db_, RunStore::Access::ReadOnly);
        EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled) << store.run(1)->error;
        bool cancelCheckpoint = false;
        for (const auto& checkpoint : store.checkpoints(1)) {
            cancelCheckpoint = cancelCheckpoint || checkpoint.kind == CheckpointKind::Cancel;
        }
        EXPECT_TRUE(cancelCheckpoint) << "no checkpoint at the stop";
        EXPECT_LT(store.steps(1).size(), 40U * 8U) << "the run ended before it could be stopped";
        EXPECT_EQ(temporariesUnder(store.runFolder(1)), std::vector<std::filesystem::path>{});
    }
}

// The launcher died of SIGTERM and left both ranks training to completion as orphans.
TEST_F(CliSignals, SigtermToTheLauncherStopsEveryRank) {
    const pid_t launcher = test::startCli(
        trainArgs({"--epochs", "200", "--nproc", "2", "--batch-size", "4"}), dir_.path());
    ASSERT_GT(waitForSteps(3), 0U) << test::readFile(dir_ / "stderr");
    const pid_t rank0 = test::workerOfRank(launcher, 0);
    const pid_t rank1 = test::workerOfRank(launcher, 1);
    ASSERT_GT(rank0, 0);
    ASSERT_GT(rank1, 0);
    ::kill(launcher, SIGTERM);
    const auto stopped = test::finishCli(launcher, dir_.path());
    EXPECT_EQ(stopped.code, 130) << stopped.err;
    EXPECT_TRUE(waitUntilGone(rank0));
    EXPECT_TRUE(waitUntilGone(rank1));
    RunStore store(db_, RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled) << store.run(1)->error;
}

// A launcher killed outright (kill -9, the OOM killer) cannot forward anything: its ranks must
// still stop (PR_SET_PDEATHSIG), with a checkpoint, instead of training on to the end.
TEST_F(CliSignals, RanksStopWhenTheirLauncherIsKilled) {
    const pid_t launcher = test::startCli(
        trainArgs({"--epochs", "200", "--nproc", "2", "--batch-size", "4"}), dir_.path());
    ASSERT_GT(waitForSteps(3), 0U) << test::readFile(dir_ / "stderr");
    const pid_t rank0 = test::workerOfRank(launcher, 0);
    const pid_t rank1 = test::workerOfRank(launcher, 1);
    ASSERT_GT(rank0, 0);
    ASSERT_GT(rank1, 0);
    ::kill(launcher, SIGKILL);
    EXPECT_EQ(test::finishCli(launcher, dir_.path()).code, 128 + SIGKILL);
    EXPECT_TRUE(waitUntilGone(rank0)) << "rank 0 outlived its launcher";
    EXPECT_TRUE(waitUntilGone(rank1)) << "rank 1 outlived its launcher";
    RunStore store(db_, RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled) << store.run(1)->error;
    EXPECT_LT(store.steps(1).size(), 200U * 8U);
}

}  // namespace
}  // namespace bert
