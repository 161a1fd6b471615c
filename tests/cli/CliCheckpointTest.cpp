// Issue 26, point 3: checkpoints are replaced atomically. A kill -9 between best/'s
// model.safetensors and its trainer_state.json once left step-30 weights beside step-25 state,
// and resume preferred it: the resumed run ended 0.03 away from the uninterrupted one. Here the
// process kills itself at every file boundary of a checkpoint write (io/CrashPoints.h), and each
// time the resumed run must end with the uninterrupted run's weights exactly.
#include <signal.h>

#include <gtest/gtest.h>

#include "cli/CliSupport.h"
#include "hf/SafeTensors.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "train/TrainingState.h"

namespace bert {
namespace {

class CliCheckpoints : public test::CliFixture {
protected:
    // 64 training examples in steps of 8: epochs end at steps 8 and 16 (a checkpoint each, the
    // second replacing the first), evaluations every 2 steps keep replacing best/.
    std::vector<std::string> jobArgs(const std::string& database) const {
        auto args = trainArgs({"--max-steps", "20", "--epochs", "3", "--eval-every", "2",
                               "--best-metric", "loss", "--threads", "1"});
        args[1] = database;
        return args;
    }

    static SafeTensorsFile finalWeights(const std::string& database) {
        RunStore store(database, RunStore::Access::ReadOnly);
        return readSafeTensors(modelCheckpointOfRun(store, 1, /*preferBest=*/false) /
                               "model.safetensors");
    }

    static float largestDifference(const SafeTensorsFile& a, const SafeTensorsFile& b) {
        float largest = 0.0F;
        for (const auto& [name, tensor] : a.tensors) {
            const auto other = b.find(name);
            if (!other.defined()) {
                return 1e9F;
            }
            largest = std::max(largest, (tensor - other).abs().max().item<float>());
        }
        return largest;
    }

    /// Kills the run at every file boundary of the nth checkpoint write of kind, one run per
    /// boundary, resumes each, and compares the end with the uninterrupted run.
    void killAtEveryBoundaryOf(const std::string& kind, int nth) {
        const auto whole = (dir_ / "whole.sqlite").string();
        const auto reference = test::runCli(jobArgs(whole), dir_.path());
        ASSERT_EQ(reference.code, 0) << reference.err;
        int writes = 0;
        for (const auto& event : RunStore(whole, RunStore::Access::ReadOnly).events(1)) {
            writes += event.kind == EventKind::CheckpointSaved &&
                      event.data.value("kind", std::string()) == kind;
        }
        ASSERT_GE(writes, nth) << "the job writes fewer " << kind
                               << " checkpoints than the test needs";
        const auto expected = finalWeights(whole);

        int boundaries = 0;
        for (int point = 1; point < 64; ++point) {
            SCOPED_TRACE(kind + " checkpoint " + std::to_string(nth) + ", boundary " +
                         std::to_string(point));
            const auto database =
                (dir_ / (kind + "-" + std::to_string(point) + ".sqlite")).string();
            test::StartOptions crash;
            crash.environment = {{"BERT_STUDIO_TEST_CRASH_AT",
                                  kind + ":" + std::to_string(nth) + ":" + std::to_string(point)}};
            const auto killed = test::runCli(jobArgs(database), dir_.path(), crash);
            if (killed.code == 0) {
                break;  // past the write's last boundary: nothing killed it
            }
            ASSERT_EQ(killed.code, 128 + SIGKILL) << killed.err;
            ++boundaries;
            const auto runFolder = RunStore(database, RunStore::Access::ReadOnly).runFolder(1);
            ASSERT_FALSE(latestCheckpoint(runFolder).empty());
            const auto resumed = test::runCli({"--db", database, "resume", "1"}, dir_.path());
            ASSERT_EQ(resumed.code, 0) << resumed.err;
            EXPECT_NE(resumed.out.find("completed after 20 steps"), std::string::npos)
                << resumed.out;
            EXPECT_EQ(largestDifference(expected, finalWeights(database)), 0.0F)
                << "the resumed run ended with other weights than the uninterrupted one";
            for (const auto& entry : std::filesystem::directory_iterator(runFolder)) {
                const auto name = entry.path().filename().string();
                EXPECT_EQ(name.find(".tmp-"), std::string::npos) << "left behind: " << name;
                EXPECT_EQ(name.find(".previous"), std::string::npos) << "left behind: " << name;
            }
        }
        std::cout << kind << " checkpoint " << nth << ": killed at " << boundaries
                  << " file boundaries, each resumed to the uninterrupted run's weights\n";
        // The staging folder, seven files, the switch, and the old checkpoint's removal.
        EXPECT_GE(boundaries, 9);
    }
};

TEST_F(CliCheckpoints, AKillAtEveryFileBoundaryOfReplacingBestResumesToTheSameWeights) {
    killAtEveryBoundaryOf("best", 2);
}

TEST_F(CliCheckpoints, AKillAtEveryFileBoundaryOfAnEpochCheckpointResumesToTheSameWeights) {
    killAtEveryBoundaryOf("epoch", 2);
}

}  // namespace
}  // namespace bert
