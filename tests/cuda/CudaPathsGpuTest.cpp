// Issue 24: the CUDA paths, corrected from a line-by-line read against PyTorch. What needs a GPU
// is here (tests/core/CudaPathsTest.cpp and CudaFootprintTest.cpp hold what does not). Every
// test skips, saying why, where LibTorch sees no CUDA device.
//  - point 1: a training run as the first CUDA work of a fresh process (the command line in a
//    child process), with a cap: the allocator was used before CUDA was set up;
//  - point 2 and 9: "cuda" without an index is the current device;
//  - point 3: under PyTorch's sync debug mode "error", a run makes no read outside HostReads;
//  - point 5 and 9: an out-of-memory inside the recompute leaves the CUDA generator as it was,
//    and checkpointing under a cap recovers from one with the effective batch kept;
//  - point 7: Gloo on CUDA tensors stages send/recv through the host; with NCCL and two GPUs, a
//    dead peer ends the survivor with exit 3;
//  - point 8: --tf32 is on while a CUDA run trains, and restored after;
//  - point 9: the frozen-prefix cache on CUDA trains as without it.
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <ATen/ATen.h>
#include <ATen/Context.h>
#include <gtest/gtest.h>
#include <torch/nn/modules/linear.h>

#include "../core/TinyModel.h"
#include "../core/TrainerProbes.h"
#include "CudaSupport.h"
#include "data/HostReads.h"
#include "hf/ModelFolder.h"
#include "memory/MemoryMonitor.h"
#include "runs/RunStore.h"
#include "support/TestSupport.h"
#include "train/MixedPrecision.h"
#include "train/RandomState.h"
#include "train/Recompute.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::Recorder;

const c10::Device kGpu(c10::kCUDA, 0);

class CudaPaths : public ::testing::Test {
protected:
    void SetUp() override {
        if (cudaDeviceCount() == 0) {
            GTEST_SKIP() << "no CUDA device visible to LibTorch: the CUDA tests run on a GPU "
                            "machine (benchmarks/gpu/run.sh)";
        }
    }
};

struct Outcome {
    int code = -1;
    std::string err;
};

/// The command line in a child process with extra environment; waits for it.
Outcome runCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const std::vector<std::pair<std::string, std::string>>& environment = {}) {
    const pid_t pid = fork();
    if (pid == 0) {
        std::FILE* err = std::fopen((dir / "stderr").c_str(), "w");
        dup2(fileno(err), STDERR_FILENO);
        for (const auto& [name, value] : environment) {
            ::setenv(name.c_str(), value.c_str(), 1);
        }
        std::vector<std::string> copy = args;
        std::vector<char*> argv;
        std::string program = BERT_STUDIO_CLI;
        argv.push_back(program.data());
        for (auto& arg : copy) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            test::readFile(dir / "stderr")};
}

/// A model folder and a CSV for the command line.
std::vector<std::string> trainArgs(const test::TempDir& dir, std::vector<std::string> extra) {
    if (!std::filesystem::exists(dir / "model")) {
        auto bundle = test::makeModel(2, 32, 4, 0.1, 3);
        exportModelFolder(dir / "model", *bundle.model, *bundle.tokenizer);
        test::writeReviewsCsv(dir / "reviews.csv", 80);
    }
    std::vector<std::string> args = {"--db",
                                     (dir / "runs.sqlite").string(),
                                     "train",
                                     "--model",
                                     (dir / "model").string(),
                                     "--train",
                                     (dir / "reviews.csv").string(),
                                     "--text-column",
                                     "review",
                                     "--label-column",
                                     "sentiment",
                                     "--batch-size",
                                     "8",
                                     "--max-length",
                                     "32"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST_F(CudaPaths, ATrainingRunIsTheFirstCudaWorkOfAFreshProcess) {
    // Issue 24, point 1: the monitor and the cap called the caching allocator before the first
    // CUDA tensor ("Allocator not initialized for device 0: did you call init?"). Tests in one
    // process missed it (an earlier test had allocated). "cuda" without an index: point 2.
    test::TempDir dir;
    const auto outcome =
        runCli(trainArgs(dir, {"--device", "cuda", "--memory-cap", "2GiB", "--max-steps", "2"}),
               dir.path());
    EXPECT_EQ(outcome.code, 0) << outcome.err;
    RunStore store(dir / "runs.sqlite", RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Completed);
    EXPECT_EQ(store.steps(1).size(), 2U);
}

TEST_F(CudaPaths, ADeviceWithoutIndexIsTheCurrentDevice) {
    const c10::Device bare(c10::kCUDA);
    // No device was set in this process: the current one is cuda:0.
    EXPECT_EQ(resolveDevice(bare), kGpu);
    MemoryMonitor monitor(bare);
    monitor.resetPeak();
    EXPECT_GE(monitor.sample().peak, 0);
    EXPECT_NO_THROW(ScopedMemoryCap(bare, std::int64_t{1} << 30));
    const auto data = test::makeTinyData(32, 8, 70);
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 70);
    auto config = test::smallConfig();
    config.device = "cuda";
    config.maxSteps = 2;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_EQ(recorder.steps.size(), 2U);
}

TEST_F(CudaPaths, ARunMakesNoHostReadOutsideTheCountedHelper) {
    // Point 3: losses, norms, found_inf and the scale stay on the device; PyTorch's sync debug
    // mode (torch.cuda.set_sync_debug_mode("error")) turns any other synchronising call into an
    // error. fp16, clipping, accumulation and class weights: every figure that was once read.
    const auto data = test::makeTinyData(64, 16, 71, 20, 40, 64);
    Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.1, 71);
    auto config = test::smallConfig();
    config.device = "cuda:0";
    config.padding = PaddingMode::Fixed;
    config.precision = Precision::Fp16;
    config.maxGradNorm = 1.0;
    config.classWeighting = ClassWeighting::Balanced;
    config.batchSize = 4;
    config.accumulationSteps = 4;
    config.trialStep = false;
    config.maxSteps = 3;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto readsBefore = hostReadCount();
    RunResult result;
    {
        const ForbidOtherHostSyncs forbid;
        result = trainer.run(cancel);
    }
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    ASSERT_EQ(recorder.steps.size(), 3U);
    // One read per logged step, one per evaluation (the run's end evaluates once).
    EXPECT_EQ(hostReadCount() - readsBefore, 3U + recorder.evaluations.size());
}

TEST_F(CudaPaths, EveryFamilyUnpaddedMakesNoHostReadOutsideTheCountedHelper) {
    // ModernBERT's mean pooling once copied the host's dropout keys to the GPU every forward (a
    // wait for the GPU); every family's packed path is held to the same rule as BERT's.
    const auto data = test::makeTinyData(32, 16, 73, 20, 40, 64);
    for (const auto& modelType : test::familyModelTypes()) {
        SCOPED_TRACE(modelType);
        Recorder recorder;
        auto bundle = test::makeFamilyModel(modelType, 3, 64, 4, 0.1, 73);
        auto config = test::smallConfig();
        config.device = "cuda:0";
        config.padding = PaddingMode::Unpadded;
        config.precision = Precision::Bf16;
        config.batchSize = 8;
        config.trialStep = false;
        config.maxSteps = 2;
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto readsBefore = hostReadCount();
        RunResult result;
        {
            const ForbidOtherHostSyncs forbid;
            result = trainer.run(cancel);
        }
        ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
        EXPECT_EQ(hostReadCount() - readsBefore, 2U + recorder.evaluations.size());
    }
}

/// A layer that draws random numbers on its device and runs out of memory the second time it
/// runs: the recompute of gradient checkpointing.
struct FailsWhenRecomputed : EncoderLayer {
    FailsWhenRecomputed() { linear = register_module("linear", torch::nn::Linear(4, 4)); }
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout&) override {
        const auto noise = at::rand_like(hidden);
        if (++calls == 2) {
            TORCH_CHECK_WITH(OutOfMemoryError, false, "injected out of memory in the recompute");
        }
        return linear->forward(hidden * noise);
    }
    torch::nn::Linear linear{nullptr};
    int calls = 0;
};

TEST_F(CudaPaths, AnOutOfMemoryInTheRecomputeLeavesTheCudaGeneratorAsItWas) {
    // Point 5 on CUDA: the recompute replays the CUDA generator's state of the forward pass; a
    // throw inside it left the stream rewound (torch.random.fork_rng restores in a finally).
    auto layer = std::make_shared<FailsWhenRecomputed>();
    layer->to(kGpu);
    layer->train();
    at::manual_seed(5);
    const auto hidden = at::randn({2, 4}, at::TensorOptions().device(kGpu));
    const auto output = recomputingLayerRunner()(*layer, hidden, TokenLayout{});
    const auto before = getRngState(kGpu);
    EXPECT_THROW(output.sum().backward(), c10::Error);  // the injected out-of-memory
    EXPECT_EQ(layer->calls, 2);
    EXPECT_TRUE(at::equal(getRngState(kGpu), before));
}

TEST_F(CudaPaths, CheckpointingUnderACapRecoversFromAnOutOfMemoryWithTheEffectiveBatch) {
    const auto data = test::makeTinyData(128, 16, 72, 100, 120, 128);
    auto config = test::smallConfig();
    config.device = "cuda:0";
    config.batchSize = 32;
    config.maxLength = 128;
    config.padding = PaddingMode::Fixed;
    config.gradientCheckpointing = true;
    config.maxSteps = 3;
    auto peakAt = [&](std::size_t batch) {
        return test::cudaTrialPeak(data, config, batch,
                                   [] { return test::makeModel(4, 256, 4, 0.1, 72); });
    };
    const auto peak32 = peakAt(32);
    const auto peak8 = peakAt(8);
    ASSERT_GT(peak32, peak8);
    Recorder recorder;
    auto bundle = test::makeModel(4, 256, 4, 0.1, 72);
    config.memoryCapBytes = (peak32 + peak8) / 2;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_GE(recorder.count(EventKind::OomRecovered), 1U);
    for (const auto& step : recorder.steps) {
        EXPECT_EQ(step.microBatch * step.accumulation, 32U) << "the effective batch changed";
        EXPECT_TRUE(std::isfinite(step.loss));
    }
}

/// Whether TF32 was on at each step.
struct Tf32Probe : Recorder {
    std::vector<bool> atStep;
    void onStep(const StepMetrics& m) override {
        Recorder::onStep(m);
        atStep.push_back(Tf32Scope::matmulUsesTf32());
    }
};

TEST_F(CudaPaths, Tf32IsOnWhileARunTrainsAndRestoredAfter) {
    at::globalContext().setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL,
                                            at::Float32Precision::IEEE);
    const auto data = test::makeTinyData(32, 8, 73);
    Tf32Probe probe;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 73);
    auto config = test::smallConfig();
    config.device = "cuda:0";
    config.tf32 = true;
    config.maxSteps = 2;
    {
        Trainer trainer(bundle, data, config, probe);
        const std::atomic<bool> cancel{false};
        ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    }
    EXPECT_EQ(probe.atStep, (std::vector<bool>{true, true}));
    EXPECT_FALSE(Tf32Scope::matmulUsesTf32());
}

TEST_F(CudaPaths, ThePrefixCacheOnCudaTrainsAsWithoutIt) {
    const auto data = test::makeTinyData(40, 12, 74, 1, 50, 64);
    auto train = [&](bool cache) {
        Recorder recorder;
        auto bundle = test::makeModel(3, 32, 4, 0.0, 74);
        auto config = test::smallConfig();
        config.device = "cuda:0";
        config.epochs = 2;
        config.freezeEmbeddings = true;
        config.freezeLayers = 1;
        config.cacheFrozenPrefix = cache;
        Trainer trainer(bundle, data, config, recorder);
        const std::atomic<bool> cancel{false};
        const auto result = trainer.run(cancel);
        EXPECT_EQ(result.status, RunStatus::Completed) << result.error;
        return recorder.steps;
    };
    const auto plain = train(false);
    const auto cached = train(true);
    ASSERT_EQ(cached.size(), plain.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
        EXPECT_NEAR(cached[i].loss, plain[i].loss, 1e-4) << "step " << i;
    }
}

TEST_F(CudaPaths, GlooOnCudaTensorsStagesSendAndReceiveThroughTheHost) {
    // Point 7: ProcessGroupGloo's send/recv take host memory; the sharded optimizer's state
    // gathering on a checkpoint sends CUDA tensors. Both ranks on this GPU (local rank modulo
    // the visible devices, point 2 when there is one), Gloo asked for where NCCL is built in.
    test::TempDir dir;
    const auto outcome = runCli(
        trainArgs(dir, {"--device", "cuda", "--nproc", "2", "--shard-optimizer", "--epochs", "1"}),
        dir.path(), {{"BERT_STUDIO_DISTRIBUTED_BACKEND", "gloo"}});
    EXPECT_EQ(outcome.code, 0) << outcome.err;
    RunStore store(dir / "runs.sqlite", RunStore::Access::ReadOnly);
    EXPECT_EQ(store.run(1)->status, RunStatus::Completed);
    EXPECT_FALSE(store.checkpoints(1).empty()) << "no checkpoint gathered the optimizer state";
}

/// The process under launcher whose environment has RANK=rank; 0 when none.
pid_t workerOfRank(pid_t launcher, int rank) {
    const std::string wanted = "RANK=" + std::to_string(rank);
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream stat(entry.path() / "stat");
        std::string pid, command, state;
        pid_t parent = 0;
        stat >> pid >> command >> state >> parent;
        if (parent != launcher) {
            continue;
        }
        std::ifstream environ(entry.path() / "environ");
        std::string variable;
        while (std::getline(environ, variable, '\0')) {
            if (variable == wanted) {
                return std::stoi(name);
            }
        }
    }
    return 0;
}

TEST_F(CudaPaths, ANcclPeerThatDiesEndsTheSurvivorWithExitThree) {
    // Point 7: with TORCH_NCCL_ASYNC_ERROR_HANDLING=3 (PyTorch's default) the watchdog killed the
    // survivor; CleanUpOnly (2) lets the host agreement of each step report it, as under Gloo.
    if (cudaDeviceCount() < 2) {
        GTEST_SKIP() << "NCCL needs a GPU per rank: " << cudaDeviceCount() << " visible";
    }
    test::TempDir dir;
    const pid_t launcher = fork();
    if (launcher == 0) {
        std::FILE* err = std::fopen((dir / "stderr").c_str(), "w");
        dup2(fileno(err), STDERR_FILENO);
        auto args = trainArgs(dir, {"--device", "cuda", "--nproc", "2", "--epochs", "500"});
        std::vector<char*> argv;
        std::string program = BERT_STUDIO_CLI;
        argv.push_back(program.data());
        for (auto& arg : args) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    std::size_t steps = 0;
    for (int attempt = 0; attempt < 1200 && steps < 3; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        try {
            steps = RunStore(dir / "runs.sqlite", RunStore::Access::ReadOnly).steps(1).size();
        } catch (const std::exception&) {
            // not created yet
        }
    }
    ASSERT_GE(steps, 3U) << test::readFile(dir / "stderr");
    const pid_t rank1 = workerOfRank(launcher, 1);
    ASSERT_GT(rank1, 0);
    ::kill(rank1, SIGKILL);
    int status = 0;
    waitpid(launcher, &status, 0);
    const auto err = test::readFile(dir / "stderr");
    EXPECT_TRUE(WIFEXITED(status)) << err;
    EXPECT_EQ(WEXITSTATUS(status), 3) << err;
    EXPECT_NE(err.find("rank 1 was killed by signal 9"), std::string::npos) << err;
}

}  // namespace
}  // namespace bert
