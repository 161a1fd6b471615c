// Issue 24: the CUDA paths, corrected from a read against PyTorch. What of each fix does not
// depend on the device is tested here, on the CPU; tests/cuda/CudaTest.cpp holds the rest.
//  - point 3: the host reads tensor values (each a wait for the GPU) once per logged step and
//    once per evaluation, never per micro-batch; losses, norms, found_inf and the loss scale stay
//    on the device, and found_inf skips FusedAdamW's step there;
//  - point 2: a rank's device is its local rank modulo the visible devices;
//  - point 4: an out-of-memory trial step is "does not fit", whatever figure it reached;
//  - point 5: a recompute that throws leaves the generator as it was;
//  - point 7: NCCL's watchdog is told to clean up, not to end the process, unless the user chose;
//  - point 8: --tf32 sets and restores the TF32 flags.
#include <atomic>
#include <cmath>
#include <cstdlib>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/modules/linear.h>

#include "Error.h"
#include "TinyModel.h"
#include "TrainerProbes.h"
#include "data/HostReads.h"
#include "distributed/Collective.h"
#include "memory/MemoryMonitor.h"
#include "train/FusedAdamW.h"
#include "train/MixedPrecision.h"
#include "train/RandomState.h"
#include "train/Recompute.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::smallConfig;

/// Keeps, for every report, how many host reads the process had made by then.
struct ReadCounter : test::Recorder {
    std::vector<std::uint64_t> atStep;
    std::vector<std::uint64_t> atEvaluation;
    std::uint64_t atStart = 0;
    void onStarted(const RunStart& s) override {
        Recorder::onStarted(s);
        atStart = hostReadCount();
    }
    void onStep(const StepMetrics& m) override {
        Recorder::onStep(m);
        atStep.push_back(hostReadCount());
    }
    void onEvaluation(const EvalMetrics& m) override {
        Recorder::onEvaluation(m);
        atEvaluation.push_back(hostReadCount());
    }
};

// fp16 with loss scaling, clipping, class weights and 4 micro-batches a step: every figure the
// step makes (loss per micro-batch, found_inf, the norm, the scale) once needed a read.
TrainingConfig countedConfig() {
    auto config = smallConfig();
    config.batchSize = 4;
    config.accumulationSteps = 4;
    config.precision = Precision::Fp16;
    config.maxGradNorm = 1.0;
    config.classWeighting = ClassWeighting::Balanced;
    config.trialStep = false;
    config.evalsPerEpoch = 1;
    config.maxSteps = 6;  // inside the first epoch (100 examples: 7 steps of 16)
    return config;
}

TEST(HostReads, OnePerLoggedStepNonePerMicroBatchAndOnePerEvaluation) {
    // Before issue 24 this configuration read 4 losses, found_inf, the norm and the scale: 7
    // reads a step, each a wait for the GPU.
    const auto data = test::makeTinyData(100, 24, 61);
    ReadCounter counter;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 61);
    Trainer trainer(bundle, data, countedConfig(), counter);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    ASSERT_EQ(counter.atStep.size(), 6U);
    EXPECT_EQ(counter.atStep[0] - counter.atStart, 1U) << "reads in the first step";
    for (std::size_t i = 1; i < counter.atStep.size(); ++i) {
        EXPECT_EQ(counter.atStep[i] - counter.atStep[i - 1], 1U) << "reads in step " << i + 1;
    }
    ASSERT_EQ(counter.atEvaluation.size(), 1U);
    EXPECT_EQ(counter.atEvaluation[0] - counter.atStep.back(), 1U) << "reads in the evaluation";
    for (const auto& step : counter.steps) {
        EXPECT_EQ(step.microBatch * step.accumulation, 16U);
        EXPECT_TRUE(std::isfinite(step.loss));
        EXPECT_GT(step.gradNorm, 0.0);
        EXPECT_GT(step.lossScale, 0.0);
    }
}

TEST(HostReads, LoggingEveryThirdStepReadsOnceForThreeAndTrainsTheSameWeights) {
    const auto data = test::makeTinyData(100, 24, 62);
    ReadCounter everyStep;
    ReadCounter everyThird;
    auto bundleA = test::makeModel(2, 32, 4, 0.1, 62);
    auto bundleB = test::makeModel(2, 32, 4, 0.1, 62);
    {
        auto config = countedConfig();
        Trainer trainer(bundleA, data, config, everyStep);
        const std::atomic<bool> cancel{false};
        ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    }
    {
        auto config = countedConfig();
        config.logEverySteps = 3;
        Trainer trainer(bundleB, data, config, everyThird);
        const std::atomic<bool> cancel{false};
        ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    }
    ASSERT_EQ(everyThird.steps.size(), 2U);
    EXPECT_EQ(everyThird.steps[0].step, 3U);
    EXPECT_EQ(everyThird.steps[1].step, 6U);
    EXPECT_EQ(everyThird.atStep[0] - everyThird.atStart, 1U);
    EXPECT_EQ(everyThird.atStep[1] - everyThird.atStep[0], 1U);
    // A logged step reports the mean loss of its steps (equal example counts: their mean).
    for (std::size_t k = 0; k < 2; ++k) {
        double mean = 0.0;
        for (std::size_t i = 3 * k; i < 3 * k + 3; ++i) {
            mean += everyStep.steps[i].loss / 3.0;
        }
        EXPECT_NEAR(everyThird.steps[k].loss, mean, 1e-12);
        EXPECT_EQ(everyThird.steps[k].examples, 48U);
        EXPECT_EQ(everyThird.steps[k].gradNorm, everyStep.steps[3 * k + 2].gradNorm);
    }
    // Logging reads figures; it changes nothing that trains.
    const auto a = bundleA.model->parameters();
    const auto b = bundleB.model->parameters();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_TRUE(at::equal(a[i], b[i])) << "parameter " << i;
    }
}

TEST(HostReads, FoundInfSkipsTheFusedStepOnTheDeviceAndTheCountSettlesLater) {
    // torch/amp/grad_scaler.py hands found_inf to a fused optimizer; torch/optim/adam.py takes
    // the step count back after the kernel. Same here: nothing changes, the count comes back.
    auto weight = at::ones({4}).requires_grad_(true);
    FusedAdamW optimizer({weight}, torch::optim::AdamWOptions(0.1));
    weight.mutable_grad() = at::full({4}, 0.5);
    optimizer.step();
    const auto afterOne = weight.detach().clone();
    const auto& state = static_cast<const torch::optim::AdamWParamState&>(
        *optimizer.state().at(weight.unsafeGetTensorImpl()));
    const auto moment = state.exp_avg().clone();
    const auto readsBefore = hostReadCount();
    optimizer.skipNextStepIf(at::ones({}));
    optimizer.step();
    EXPECT_EQ(hostReadCount(), readsBefore) << "the skip was decided on the host";
    EXPECT_TRUE(at::equal(weight.detach(), afterOne));
    EXPECT_TRUE(at::equal(state.exp_avg(), moment));
    optimizer.settleStepCounts();
    EXPECT_EQ(state.step(), 1) << "the skipped step was counted";
    EXPECT_EQ(hostReadCount(), readsBefore + 1);
    optimizer.skipNextStepIf(at::zeros({}));
    optimizer.step();
    optimizer.settleStepCounts();
    EXPECT_EQ(state.step(), 2);
    EXPECT_FALSE(at::equal(weight.detach(), afterOne));
}

TEST(DataParallelDevices, EachRankTakesItsLocalRankModuloTheVisibleDevices) {
    WorldInfo world;
    world.localRank = 3;
    EXPECT_EQ(world.deviceForRank("cpu", 4), "cpu");
    EXPECT_EQ(world.deviceForRank("cuda", 4), "cuda:3");
    EXPECT_EQ(world.deviceForRank("cuda:0", 8), "cuda:3");
    // Slurm with one GPU per task: each rank sees its own as cuda:0 (it named cuda:3 before).
    EXPECT_EQ(world.deviceForRank("cuda", 1), "cuda:0");
    world.localRank = 5;
    EXPECT_EQ(world.deviceForRank("cuda", 4), "cuda:1");
    EXPECT_EQ(resolveDevice(c10::Device(c10::kCPU)), c10::Device(c10::kCPU));
}

TEST(DataParallelDevices, MoreRanksThanGpusUnderNcclAreRefusedBeforeAnyStarts) {
#ifdef BERT_STUDIO_WITH_NCCL
    constexpr const char* kVariable = "BERT_STUDIO_DISTRIBUTED_BACKEND";
    ASSERT_EQ(std::getenv(kVariable), nullptr);
    try {
        refuseMoreRanksThanGpus(4, 2);
        ADD_FAILURE() << "4 ranks on 2 GPUs under NCCL were let through";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("--nproc 2 or fewer"), std::string::npos) << message;
        EXPECT_NE(message.find("BERT_STUDIO_DISTRIBUTED_BACKEND=gloo"), std::string::npos);
    }
    EXPECT_NO_THROW(refuseMoreRanksThanGpus(2, 2));
    EXPECT_NO_THROW(refuseMoreRanksThanGpus(2, 0)) << "no GPU: the run says so itself";
    ::setenv(kVariable, "gloo", 1);
    EXPECT_NO_THROW(refuseMoreRanksThanGpus(4, 1)) << "Gloo rehearses ranks on one GPU";
    ::unsetenv(kVariable);
#else
    GTEST_SKIP() << "this build has no NCCL";
#endif
}

TEST(NcclErrorHandling, CleanUpOnlyUnlessTheUserChoseOtherwise) {
    // torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp: TORCH_NCCL_ASYNC_ERROR_HANDLING's
    // default, 3 (SkipCleanUp), tears the process down from the watchdog thread: no message
    // of ours and no exit 3 after a peer died. 2 (CleanUpOnly) aborts the communicators only.
    constexpr const char* kVariable = "TORCH_NCCL_ASYNC_ERROR_HANDLING";
    const char* user = std::getenv(kVariable);
    const std::string saved = user != nullptr ? user : "";
    ::unsetenv(kVariable);
    EXPECT_EQ(prepareNcclErrorHandling(), "2");
    EXPECT_STREQ(std::getenv(kVariable), "2");
    ::setenv(kVariable, "1", 1);
    EXPECT_EQ(prepareNcclErrorHandling(), "1") << "the user's setting was overwritten";
    if (user != nullptr) {
        ::setenv(kVariable, saved.c_str(), 1);
    } else {
        ::unsetenv(kVariable);
    }
}

TEST(NcclErrorHandling, TheGpusWaitForADeadPeerEndsBeforeTheHostsWould) {
    // A survivor whose GPU waits in a dead peer's all-reduce waits NCCL's timeout; the host's
    // Gloo agreement waits the collective timeout. NCCL's is the shorter, from the default to
    // the shortest setting.
    for (const auto collective : {collectiveTimeout(), std::chrono::milliseconds(300'000),
                                  std::chrono::milliseconds(4000)}) {
        EXPECT_LT(ncclTimeout(collective), collective) << collective.count() << " ms";
        EXPECT_GE(ncclTimeout(collective), std::chrono::milliseconds(1000));
    }
}

/// A layer that draws random numbers and runs out of memory the second time it runs: the
/// recompute of gradient checkpointing.
struct FailsWhenRecomputed : EncoderLayer {
    FailsWhenRecomputed() { linear = register_module("linear", torch::nn::Linear(4, 4)); }
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout&) override {
        const auto noise = at::rand_like(hidden);  // advances the generator
        if (++calls == 2) {
            TORCH_CHECK_WITH(OutOfMemoryError, false, "injected out of memory in the recompute");
        }
        return linear->forward(hidden * noise);
    }
    torch::nn::Linear linear{nullptr};
    int calls = 0;
};

TEST(Recompute, AnOutOfMemoryInTheRecomputeLeavesTheGeneratorAsItWas) {
    auto layer = std::make_shared<FailsWhenRecomputed>();
    layer->train();
    at::manual_seed(5);
    const auto hidden = at::randn({2, 4});
    const auto output = recomputingLayerRunner()(*layer, hidden, TokenLayout{});
    const auto before = getRngState(c10::Device(c10::kCPU));
    try {
        output.sum().backward();
        FAIL() << "the injected out-of-memory did not reach backward's caller";
    } catch (const c10::Error& error) {
        EXPECT_NE(std::string(error.what()).find("injected"), std::string::npos) << error.what();
    }
    EXPECT_EQ(layer->calls, 2);
    // Restored by hand, the state stayed rewound to the forward pass's (plus the failed draw).
    EXPECT_TRUE(at::equal(getRngState(c10::Device(c10::kCPU)), before));
}

TEST(TrialStep, AnOutOfMemoryTrialDoesNotFitWhateverFigureItReached) {
    const auto data = test::makeTinyData(32, 8, 63, 30, 60, 64);
    auto config = smallConfig();
    config.batchSize = 16;
    config.padding = PaddingMode::Fixed;
    test::Recorder probe;
    auto probeBundle = test::makeModel(2, 64, 4, 0.0, 63);
    Trainer probeTrainer(probeBundle, data, config, probe);
    const auto need = probeTrainer.trialStepPeak();
    EXPECT_FALSE(probeTrainer.lastTrialRanOutOfMemory());

    test::Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.0, 63);
    const auto weights = need / 4;  // far below the trial's need, above the weights
    config.memoryCapBytes = weights + (need - weights) / 3;
    Trainer trainer(bundle, data, config, recorder);
    const auto reached = trainer.trialStepPeak();
    EXPECT_TRUE(trainer.lastTrialRanOutOfMemory());
    // The figure is below the device's memory: compared alone, as the largest-batch search did
    // without a cap, it read as a fit (TrainingJob.cpp now asks lastTrialRanOutOfMemory).
    EXPECT_LT(reached, deviceMemoryBytes(c10::Device(c10::kCPU)));
}

TEST(Tf32, TheScopeSetsBothFlagsAndRestoresThem) {
    const bool matmul = Tf32Scope::matmulUsesTf32();
    const bool convolution = Tf32Scope::convolutionUsesTf32();
    {
        const Tf32Scope on(true);
        EXPECT_TRUE(Tf32Scope::matmulUsesTf32());
        EXPECT_TRUE(Tf32Scope::convolutionUsesTf32());
        {
            const Tf32Scope off(false);
            EXPECT_FALSE(Tf32Scope::matmulUsesTf32());
            EXPECT_FALSE(Tf32Scope::convolutionUsesTf32());
        }
        EXPECT_TRUE(Tf32Scope::matmulUsesTf32());
    }
    EXPECT_EQ(Tf32Scope::matmulUsesTf32(), matmul);
    EXPECT_EQ(Tf32Scope::convolutionUsesTf32(), convolution);
}

// The bug: the scope read the previous state with the legacy getter, which throws once code in
// the process used the fp32_precision API (as transformers' --tf32 does on torch >= 2.9) to set
// TF32 while the legacy flag was off; a run with --tf32 then failed at its start.
TEST(Tf32, TheScopeWorksAfterTheNewApiWasUsedAndRestoresItsSetting) {
    auto& context = at::globalContext();
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL,
                                at::Float32Precision::TF32);
    EXPECT_THROW(static_cast<void>(context.allowTF32CuBLAS()), c10::Error)
        << "the legacy getter no longer throws in a mixed state: this test checks nothing";
    {
        const Tf32Scope off(false);
        EXPECT_FALSE(Tf32Scope::matmulUsesTf32());
    }
    EXPECT_TRUE(Tf32Scope::matmulUsesTf32());
    context.setFloat32Precision(at::Float32Backend::CUDA, at::Float32Op::MATMUL,
                                at::Float32Precision::IEEE);
    EXPECT_FALSE(Tf32Scope::matmulUsesTf32());
}

}  // namespace
}  // namespace bert
