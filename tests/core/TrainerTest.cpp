// Tests that fail if a technique were fake: each compares the technique with its definition.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <thread>

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "Error.h"
#include "TinyModel.h"
#include "TrainerProbes.h"
#include "data/Sampler.h"
#include "hf/SafeTensors.h"
#include "support/TestSupport.h"
#include "train/MixedPrecision.h"
#include "train/Trainer.h"
#include "train/TrainingState.h"

namespace bert {
namespace {

using test::gradients;
using test::maxGradientDifference;
using test::Recorder;

using test::smallConfig;

TEST(Trainer, AccumulatedGradientsEqualFullBatchGradients) {
    // 7 examples: one batch of 7 against micro-batches 2+2+2+1 (a short last micro-batch).
    const auto data = test::makeTinyData(32, 8, 11);
    const std::vector<std::size_t> window = {0, 1, 2, 3, 4, 5, 6};
    Recorder recorder;
    auto full = test::makeModel(2, 32, 4, 0.0, 5);
    auto config = smallConfig();
    config.batchSize = 7;
    Trainer fullTrainer(full, data, config, recorder);
    fullTrainer.computeGradients(window);

    auto accumulated = test::makeModel(2, 32, 4, 0.0, 5);
    config.batchSize = 2;
    config.accumulationSteps = 4;
    Trainer accumulatedTrainer(accumulated, data, config, recorder);
    accumulatedTrainer.computeGradients(window);

    // Tolerance: fp32 sums of the same terms in a different order.
    const double difference = maxGradientDifference(gradients(full), gradients(accumulated));
    std::cout << "accumulated vs full-batch max |gradient difference| = " << difference << "\n";
    EXPECT_LT(difference, 1e-6);
}

TEST(Trainer, CheckpointedGradientsEqualPlainGradientsWithDropout) {
    const auto data = test::makeTinyData(32, 8, 12);
    const std::vector<std::size_t> window = {0, 1, 2, 3, 4, 5, 6, 7};
    Recorder recorder;
    auto plain = test::makeModel(3, 32, 4, 0.1, 6);
    auto checkpointed = test::makeModel(3, 32, 4, 0.1, 6);
    auto config = smallConfig();
    Trainer plainTrainer(plain, data, config, recorder);
    config.gradientCheckpointing = true;
    Trainer checkpointedTrainer(checkpointed, data, config, recorder);

    at::manual_seed(99);
    plainTrainer.computeGradients(window);
    at::manual_seed(99);
    checkpointedTrainer.computeGradients(window);
    const double difference = maxGradientDifference(gradients(plain), gradients(checkpointed));
    std::cout << "checkpointed vs plain max |gradient difference| (dropout 0.1) = " << difference
              << "\n";
    EXPECT_LT(difference, 1e-6);

    // Guard for the test itself: with another dropout draw, gradients do differ.
    checkpointedTrainer.clearGradients();
    at::manual_seed(100);
    checkpointedTrainer.computeGradients(window);
    EXPECT_GT(maxGradientDifference(gradients(plain), gradients(checkpointed)), 1e-4);
}

TEST(Trainer, FrozenPartsGetNoGradientAndNoOptimizerState) {
    const auto data = test::makeTinyData(32, 8, 13);
    Recorder recorder;
    auto bundle = test::makeModel(3, 32, 4, 0.1, 7);
    auto config = smallConfig();
    config.freezeEmbeddings = true;
    config.freezeLayers = 1;
    config.maxSteps = 2;
    const auto embeddingsBefore = test::bertOf(bundle).embeddings->word_embeddings->weight.clone();
    Trainer trainer(bundle, data, config, recorder);
    trainer.computeGradients({0, 1, 2, 3});
    for (const auto& parameter : test::bertOf(bundle).embeddings->parameters()) {
        EXPECT_FALSE(parameter.grad().defined());
    }
    for (const auto& parameter : test::bertOf(bundle).encoder->layer[0]->parameters()) {
        EXPECT_FALSE(parameter.grad().defined());
    }
    for (const auto& parameter : test::bertOf(bundle).encoder->layer[1]->parameters()) {
        EXPECT_TRUE(parameter.grad().defined());
    }
    trainer.clearGradients();
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    for (const auto& parameter : test::bertOf(bundle).embeddings->parameters()) {
        EXPECT_EQ(trainer.optimizer().state().count(parameter.unsafeGetTensorImpl()), 0U);
    }
    EXPECT_TRUE(
        at::equal(embeddingsBefore, test::bertOf(bundle).embeddings->word_embeddings->weight));
    EXPECT_EQ(trainer.optimizer().state().size(), trainer.trainableParameters().size());
}

TEST(Trainer, CheckpointingWithFrozenEmbeddingsStillTrainsTheEncoder) {
    // transformers #21381: the reentrant checkpoint with a frozen input trained nothing.
    const auto data = test::makeTinyData(32, 8, 14);
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 8);
    auto config = smallConfig();
    config.freezeEmbeddings = true;
    config.gradientCheckpointing = true;
    config.maxSteps = 1;
    const auto before = test::bertOf(bundle)
                            .encoder->layer[0]
                            ->as<BertLayer>()
                            ->attention->self->query->weight.clone();
    Trainer trainer(bundle, data, config, recorder);
    trainer.computeGradients({0, 1, 2, 3});
    const auto& grad = test::bertOf(bundle)
                           .encoder->layer[0]
                           ->as<BertLayer>()
                           ->attention->self->query->weight.grad();
    ASSERT_TRUE(grad.defined()) << "checkpointed layer 0 got no gradient";
    EXPECT_GT(grad.abs().sum().item<double>(), 0.0);
    trainer.clearGradients();
    const std::atomic<bool> cancel{false};
    ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    const auto after =
        test::bertOf(bundle).encoder->layer[0]->as<BertLayer>()->attention->self->query->weight;
    EXPECT_FALSE(at::equal(before, after)) << "the encoder's first layer did not change";
}

// Issue 14, point 7: with shuffling off every epoch is the file's order, so that a run can be
// fed exactly the batches another tool (transformers' Trainer with a sequential sampler) sees;
// neither the seed nor the epoch changes it.
TEST(Sampler, ShuffleOffKeepsTheFilesOrderEveryEpoch) {
    const std::vector<std::size_t> lengths(21, 10);
    for (std::size_t epoch = 0; epoch < 2; ++epoch) {
        const auto windows = planEpoch(lengths, 4, BatchOrder::Random, 42, epoch, false);
        ASSERT_EQ(windows.size(), 6U);
        std::size_t next = 0;
        for (const auto& window : windows) {
            for (const auto index : window) {
                EXPECT_EQ(index, next++) << "epoch " << epoch;
            }
        }
    }
    // Grouped without shuffling: megabatches of consecutive examples, sorted; the same each epoch.
    std::vector<std::size_t> uneven(64);
    for (std::size_t i = 0; i < uneven.size(); ++i) {
        uneven[i] = 1 + (i * 37) % 29;
    }
    const auto grouped = planEpoch(uneven, 4, BatchOrder::LengthGrouped, 42, 0, false);
    EXPECT_EQ(grouped, planEpoch(uneven, 4, BatchOrder::LengthGrouped, 7, 1, false));
    EXPECT_NE(grouped, planEpoch(uneven, 4, BatchOrder::LengthGrouped, 42, 0, true));
}

TEST(Sampler, LengthGroupingIsAPermutationWithTheLongestFirst) {
    const auto data = test::makeTinyData(203, 8, 15);
    for (std::size_t epoch = 0; epoch < 3; ++epoch) {
        const auto windows = planEpoch(data.train.lengths, 8, BatchOrder::LengthGrouped, 42, epoch);
        std::vector<std::size_t> seen;
        for (const auto& window : windows) {
            seen.insert(seen.end(), window.begin(), window.end());
        }
        std::vector<std::size_t> sorted = seen;
        std::sort(sorted.begin(), sorted.end());
        std::vector<std::size_t> all(data.train.size());
        std::iota(all.begin(), all.end(), std::size_t{0});
        EXPECT_EQ(sorted, all) << "epoch " << epoch << " is not a permutation";
        EXPECT_EQ(windows.back().size(), 203U % 8U);
        const auto longest =
            *std::max_element(data.train.lengths.begin(), data.train.lengths.end());
        EXPECT_EQ(data.train.lengths[windows.front().front()], longest);
        // Windows are length-sorted inside megabatches: far less spread than random batches.
        double groupedSpread = 0.0;
        double randomSpread = 0.0;
        const auto randomWindows = planEpoch(data.train.lengths, 8, BatchOrder::Random, 42, epoch);
        auto spread = [&](const std::vector<std::size_t>& w) {
            std::size_t lo = SIZE_MAX;
            std::size_t hi = 0;
            for (const auto i : w) {
                lo = std::min(lo, data.train.lengths[i]);
                hi = std::max(hi, data.train.lengths[i]);
            }
            return static_cast<double>(hi - lo);
        };
        for (std::size_t k = 1; k + 1 < windows.size(); ++k) {
            groupedSpread += spread(windows[k]);
            randomSpread += spread(randomWindows[k]);
        }
        EXPECT_LT(groupedSpread, randomSpread / 2);
    }
    // Different epochs, different orders; the same epoch, the same order.
    EXPECT_NE(planEpoch(data.train.lengths, 8, BatchOrder::Random, 42, 0),
              planEpoch(data.train.lengths, 8, BatchOrder::Random, 42, 1));
    EXPECT_EQ(planEpoch(data.train.lengths, 8, BatchOrder::Random, 42, 1),
              planEpoch(data.train.lengths, 8, BatchOrder::Random, 42, 1));
}

// Balanced sampling: with 1 / class-count weights, a class of 10 examples in 100 is drawn as
// often as the class of 90 (PyTorch's WeightedRandomSampler's law: each draw independent, with
// replacement); an epoch is still 100 draws, the same for the same seed and epoch, and length
// grouping still puts the longest drawn example first.
TEST(Sampler, BalancedSamplingDrawsEveryClassEquallyOften) {
    std::vector<std::int64_t> labels(100, 0);
    for (std::size_t i = 0; i < 10; ++i) {
        labels[i * 10] = 1;
    }
    const auto weights = balancedWeights(labels);
    EXPECT_DOUBLE_EQ(weights[0], 1.0 / 10.0);
    EXPECT_DOUBLE_EQ(weights[1], 1.0 / 90.0);
    std::vector<std::size_t> lengths(100);
    for (std::size_t i = 0; i < lengths.size(); ++i) {
        lengths[i] = 1 + (i * 37) % 61;
    }
    double rare = 0.0;
    double draws = 0.0;
    std::set<std::size_t> distinct;
    constexpr std::size_t kEpochs = 40;
    for (std::size_t epoch = 0; epoch < kEpochs; ++epoch) {
        const auto windows =
            planEpoch(lengths, 8, BatchOrder::LengthGrouped, 42, epoch, true, weights);
        EXPECT_EQ(windows,
                  planEpoch(lengths, 8, BatchOrder::LengthGrouped, 42, epoch, true, weights));
        std::size_t drawn = 0;
        std::size_t longest = 0;
        for (const auto& window : windows) {
            for (const auto index : window) {
                ASSERT_LT(index, labels.size());
                rare += labels[index] == 1 ? 1.0 : 0.0;
                draws += 1.0;
                distinct.insert(index);
                longest = std::max(longest, lengths[index]);
                ++drawn;
            }
        }
        EXPECT_EQ(drawn, 100U) << "an epoch is as many draws as examples";
        EXPECT_EQ(lengths[windows.front().front()], longest) << "the longest drawn first";
    }
    // 4,000 draws at p = 0.5: the share's standard deviation is 0.008.
    EXPECT_NEAR(rare / draws, 0.5, 0.04);
    EXPECT_EQ(distinct.size(), 100U) << "over 40 epochs every example is drawn";
    EXPECT_NE(planEpoch(lengths, 8, BatchOrder::Random, 42, 0, true, weights),
              planEpoch(lengths, 8, BatchOrder::Random, 42, 1, true, weights));
    EXPECT_NE(planEpoch(lengths, 8, BatchOrder::Random, 42, 0, true, weights),
              planEpoch(lengths, 8, BatchOrder::Random, 42, 0))
        << "drawn, not shuffled";
}

TEST(LossScaler, SkipsAStepWithInfAndBacksOffThenGrows) {
    DynamicLossScaler scaler(c10::kCPU, 1024.0, 2.0, 0.5, /*growthInterval=*/2);
    auto weight = at::ones({3}).requires_grad_(true);
    weight.mutable_grad() = at::tensor({1024.0F, 2048.0F, std::numeric_limits<float>::infinity()});
    EXPECT_EQ(scaler.unscale({weight}).item<float>(), 1.0F);  // found_inf, on the device
    scaler.update();
    EXPECT_EQ(scaler.scaleValue(), 512.0);
    weight.mutable_grad() = at::tensor({512.0F, 1024.0F, 0.0F});
    EXPECT_EQ(scaler.unscale({weight}).item<float>(), 0.0F);
    EXPECT_TRUE(at::allclose(weight.grad(), at::tensor({1.0F, 2.0F, 0.0F})));
    scaler.update();
    EXPECT_EQ(scaler.scaleValue(), 512.0);  // one clean step: not yet
    weight.mutable_grad() = at::tensor({1.0F, 1.0F, 1.0F});
    EXPECT_EQ(scaler.unscale({weight}).item<float>(), 0.0F);
    scaler.update();
    EXPECT_EQ(scaler.scaleValue(), 1024.0);  // two clean steps: grows
}

TEST(Trainer, Fp16StepWithInjectedInfIsSkippedAndTheScaleBacksOff) {
    const auto data = test::makeTinyData(16, 8, 16);
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.0, 9);
    auto config = smallConfig();
    config.precision = Precision::Fp16;
    config.maxSteps = 1;
    Trainer trainer(bundle, data, config, recorder);
    // An infinite weight in the classifier makes every gradient non-finite.
    {
        const torch::NoGradGuard noGrad;
        test::classifierOf(bundle).weight[0][0].fill_(std::numeric_limits<float>::infinity());
    }
    const auto queryBefore = test::bertOf(bundle)
                                 .encoder->layer[1]
                                 ->as<BertLayer>()
                                 ->attention->self->query->weight.clone();
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(recorder.steps.size(), 1U) << result.error;
    EXPECT_TRUE(recorder.steps[0].skipped);
    EXPECT_EQ(recorder.steps[0].lossScale,
              DynamicLossScaler::kInitialScale * DynamicLossScaler::kBackoffFactor);
    EXPECT_EQ(recorder.count(EventKind::StepSkipped), 1U);
    EXPECT_TRUE(at::equal(
        queryBefore,
        test::bertOf(bundle).encoder->layer[1]->as<BertLayer>()->attention->self->query->weight));
}

TEST(Trainer, LearnsTheTinyTaskAndReportsEveryStep) {
    const auto data = test::makeTinyData(256, 64, 17);
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.1, 10);
    auto config = smallConfig();
    config.epochs = 3;
    config.learningRate = 2e-3;
    config.groupByLength = true;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_EQ(recorder.steps.size(), 3U * 32U);
    EXPECT_EQ(recorder.epochs.size(), 3U);
    // Four evaluations per epoch by default (issue 12), the epoch end the last of them.
    ASSERT_EQ(recorder.evaluations.size(), 3U * 4U);
    EXPECT_EQ(recorder.evaluations[3].step, 32U);
    EXPECT_EQ(recorder.evaluations[0].step, 8U);
    EXPECT_GT(result.finalEval.accuracy, 0.9) << "final loss " << result.finalEval.loss;
    EXPECT_LT(recorder.steps.back().loss, recorder.steps.front().loss);
    for (const auto& step : recorder.steps) {
        EXPECT_GT(step.memory.peak, 0);
        EXPECT_GE(step.paddingShare, 0.0);
        EXPECT_EQ(step.microBatch * step.accumulation, 8U);
    }
    EXPECT_GT(recorder.start.trialPeakBytes, 0);
    EXPECT_GT(result.peakMemoryBytes, 0);
    EXPECT_GT(result.measured.optimizerState, 0);
}

TEST(Trainer, OutOfMemoryUnderACpuCapKeepsTheEffectiveBatch) {
    const auto data = test::makeTinyData(64, 16, 18, 30, 60, 64);
    auto config = smallConfig();
    config.batchSize = 16;
    config.padding = PaddingMode::Fixed;
    config.maxSteps = 3;
    // Measure what micro-batches of 16 and 8 need, then cap between the two.
    auto peakAt = [&](std::size_t batch) {
        return test::trialPeakAtBatch([] { return test::makeModel(2, 64, 4, 0.0, 11); }, data,
                                      config, batch);
    };
    const auto peak16 = peakAt(16);
    const auto peak8 = peakAt(8);
    ASSERT_GT(peak16, peak8);
    Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.0, 11);
    // The cap counts everything allocated: the model is already resident.
    config.memoryCapBytes = (peak16 + peak8) / 2;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    std::cout << "cap " << (*config.memoryCapBytes >> 10)
              << " KiB between trial peaks of micro-batch 16 (" << (peak16 >> 10) << " KiB) and 8 ("
              << (peak8 >> 10) << " KiB)\n";
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_GE(recorder.count(EventKind::OomRecovered), 1U);
    ASSERT_EQ(recorder.steps.size(), 3U);
    for (const auto& step : recorder.steps) {
        EXPECT_EQ(step.microBatch, 8U);
        EXPECT_EQ(step.accumulation, 2U);
    }
    EXPECT_LE(result.peakMemoryBytes, *config.memoryCapBytes);
}

TEST(Trainer, OutOfMemoryAtMicroBatchOneFailsWithAClearMessage) {
    const auto data = test::makeTinyData(16, 8, 19);
    Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.0, 12);
    auto config = smallConfig();
    config.maxSteps = 1;
    // Room for bookkeeping, not for a forward pass of even one example.
    config.memoryCapBytes = MemoryMonitor(c10::kCPU).sample().current + 16 * 1024;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    EXPECT_EQ(result.status, RunStatus::Failed);
    EXPECT_NE(result.error.find("cannot shrink further"), std::string::npos) << result.error;
    EXPECT_EQ(recorder.count(EventKind::Error), 1U);
    EXPECT_EQ(recorder.count(EventKind::OomRecovered), 3U);  // 8 -> 4 -> 2 -> 1, then give up
}

// Issue 14, point 4: the trial step ran two micro-batches (and was reported taking 18 min for
// BERT-base at 512 tokens on this machine's CPU); it now runs one, with the gradients earlier
// micro-batches leave made as zeros, and must find the same peak the two reach.
TEST(Trainer, TheTrialStepRunsOneMicroBatchAndFindsTheAccumulatingPeak) {
    const auto data = test::makeTinyData(64, 48, 31);
    auto config = smallConfig();
    config.batchSize = 4;
    config.accumulationSteps = 8;
    config.padding = PaddingMode::Fixed;
    Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.0, 15);
    Trainer trainer(bundle, data, config, recorder);
    const auto optimizerState = 2 * trainer.residentMemory().gradients;  // AdamW's two moments

    // The reference: the two longest micro-batches, measured as a step measures them.
    std::vector<std::size_t> longest(data.train.size());
    std::iota(longest.begin(), longest.end(), 0);
    std::stable_sort(longest.begin(), longest.end(), [&](std::size_t a, std::size_t b) {
        return data.train.lengths[a] > data.train.lengths[b];
    });
    longest.resize(2 * config.batchSize);
    MemoryMonitor cpu(c10::kCPU);
    cpu.resetPeak();
    trainer.computeGradients(longest);
    const auto twoMicroBatches = cpu.sample().peak;
    for (auto& parameter : bundle.model->parameters()) {
        parameter.mutable_grad() = at::Tensor();
    }

    const auto trial = trainer.trialStepPeak() - optimizerState;
    std::cout << "trial step: " << trainer.lastTrialExamples() << " examples, peak " << trial
              << " B; two micro-batches " << twoMicroBatches << " B\n";
    EXPECT_EQ(trainer.lastTrialExamples(), config.batchSize) << "one micro-batch, not more";
    EXPECT_NEAR(static_cast<double>(trial), static_cast<double>(twoMicroBatches),
                0.01 * static_cast<double>(twoMicroBatches));
    for (const auto& parameter : bundle.model->parameters()) {
        EXPECT_FALSE(parameter.grad().defined()) << "the trial left gradients behind";
    }
}

TEST(Trainer, EvaluationOutOfMemoryShrinksOnlyTheEvaluationBatch) {
    const auto data = test::makeTinyData(16, 64, 20, 30, 60, 64);
    auto config = smallConfig();
    config.batchSize = 2;
    config.evalBatchSize = 64;
    config.maxSteps = 1;
    config.padding = PaddingMode::Dynamic;
    Recorder probe;
    auto probeBundle = test::makeModel(2, 64, 4, 0.0, 13);
    Trainer probeTrainer(probeBundle, data, config, probe);
    const auto trainingPeak = probeTrainer.trialStepPeak();
    Recorder recorder;
    auto bundle = test::makeModel(2, 64, 4, 0.0, 13);
    config.memoryCapBytes = trainingPeak + (trainingPeak >> 3);
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    EXPECT_GE(recorder.count(EventKind::EvalOomRecovered), 1U);
    EXPECT_EQ(recorder.count(EventKind::OomRecovered), 0U);
    EXPECT_EQ(recorder.steps.front().microBatch, 2U);
}

TEST(Trainer, ResumedRunEndsWithTheSameWeightsAsAnUninterruptedOne) {
    const auto data = test::makeTinyData(96, 16, 21);
    auto config = smallConfig();
    config.epochs = 2;
    config.saveCheckpoints = true;
    test::TempDir dir;
    const std::atomic<bool> go{false};

    Recorder straightRecorder;
    auto straight = test::makeModel(2, 32, 4, 0.1, 14);
    at::manual_seed(7);
    Trainer straightTrainer(straight, data, config, straightRecorder, dir / "straight");
    ASSERT_EQ(straightTrainer.run(go).status, RunStatus::Completed);

    // Cancel after 5 steps (mid-epoch), then resume in a new trainer and model.
    struct CancelAfter : Recorder {
        std::atomic<bool>* flag = nullptr;
        void onStep(const StepMetrics& m) override {
            Recorder::onStep(m);
            if (m.step == 5) {
                flag->store(true);
            }
        }
    } first;
    std::atomic<bool> stop{false};
    first.flag = &stop;
    auto interrupted = test::makeModel(2, 32, 4, 0.1, 14);
    at::manual_seed(7);
    Trainer firstTrainer(interrupted, data, config, first, dir / "resumed");
    const auto partial = firstTrainer.run(stop);
    ASSERT_EQ(partial.status, RunStatus::Cancelled);
    ASSERT_FALSE(partial.lastCheckpoint.empty());

    Recorder second;
    auto fresh =
        test::makeModel(2, 32, 4, 0.1, 1234);  // other weights: all must come from the checkpoint
    at::manual_seed(12345);                    // other global RNG: the checkpoint's must win
    Trainer secondTrainer(fresh, data, config, second, dir / "resumed");
    secondTrainer.resumeFrom(partial.lastCheckpoint);
    ASSERT_EQ(secondTrainer.run(go).status, RunStatus::Completed);
    EXPECT_EQ(second.steps.front().step, 6U);
    EXPECT_EQ(first.steps.size() + second.steps.size(), straightRecorder.steps.size());

    const auto a = straight.model->named_parameters();
    const auto b = fresh.model->named_parameters();
    double worst = 0.0;
    for (const auto& item : a) {
        worst = std::max(worst, (item.value() - b[item.key()]).abs().max().item<double>());
    }
    std::cout << "resumed vs uninterrupted max |weight difference| = " << worst << "\n";
    EXPECT_EQ(worst, 0.0);
}

// Issue 11: Trainer::run() promised never to throw, yet the Error emission and onFinished sat
// outside its try: an observer failing there took the exception to the caller.
TEST(Trainer, RunNeverThrowsEvenWhenTheObserverDoes) {
    const auto data = test::makeTinyData(16, 8, 31);
    auto bundle = test::makeModel(2, 32, 4, 0.0, 31);
    auto config = smallConfig();
    config.maxSteps = 2;
    struct Failing : Recorder {
        void onStep(const StepMetrics&) override {
            throw std::runtime_error("step observer broke");
        }
        void onEvent(const TrainerEvent& e) override {
            if (e.kind == EventKind::Error) {
                throw std::runtime_error("the log is gone");
            }
        }
        void onFinished(const RunResult&) override { throw std::runtime_error("the disk is gone"); }
    } observer;
    Trainer trainer(bundle, data, config, observer);
    const std::atomic<bool> cancel{false};
    RunResult result;
    ASSERT_NO_THROW(result = trainer.run(cancel));
    EXPECT_EQ(result.status, RunStatus::Failed);
    EXPECT_NE(result.error.find("step observer broke"), std::string::npos) << result.error;
    EXPECT_NE(result.error.find("the log is gone"), std::string::npos) << result.error;
    EXPECT_NE(result.error.find("the disk is gone"), std::string::npos) << result.error;
    EXPECT_EQ(result.steps, 1U);
}

// Issue 10 (item 4): a training state whose optimizer moments did not match their parameters'
// shapes corrupted the heap on resume. Every tensor is checked before anything changes.
TEST(TrainingState, ACheckpointThatDoesNotFitTheModelIsRefusedAndChangesNothing) {
    const auto data = test::makeTinyData(32, 8, 32);
    auto config = smallConfig();
    config.maxSteps = 2;
    config.saveCheckpoints = true;
    test::TempDir dir;
    Recorder recorder;
    auto trained = test::makeModel(2, 32, 4, 0.0, 32);
    Trainer first(trained, data, config, recorder, dir / "run");
    const std::atomic<bool> cancel{false};
    const auto result = first.run(cancel);
    ASSERT_EQ(result.status, RunStatus::Completed) << result.error;
    ASSERT_FALSE(result.lastCheckpoint.empty());
    ASSERT_EQ(recorder.count(EventKind::CheckpointSaved), 2U);  // best/ and the final one

    // One moment replaced by a tensor of another shape.
    const auto tensorsFile = result.lastCheckpoint / checkpoint_files::kTrainingTensors;
    auto tensors = readSafeTensors(tensorsFile).tensors;
    std::string tampered;
    for (auto& [name, tensor] : tensors) {
        if (name.find(".exp_avg_sq") != std::string::npos && tampered.empty()) {
            tampered = name;
            tensor = at::zeros({tensor.numel() + 3});
        }
    }
    ASSERT_FALSE(tampered.empty());
    writeSafeTensors(tensorsFile, tensors);

    auto fresh = test::makeModel(2, 32, 4, 0.0, 99);
    const auto before = test::classifierOf(fresh).weight.clone();
    Trainer second(fresh, data, config, recorder);
    try {
        second.resumeFrom(result.lastCheckpoint);
        FAIL() << "a moment of the wrong shape was accepted";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), tensorsFile);
        EXPECT_NE(std::string(error.what()).find(tampered), std::string::npos) << error.what();
    }
    EXPECT_TRUE(at::equal(before, test::classifierOf(fresh).weight))
        << "weights changed before the refusal";
    EXPECT_TRUE(second.optimizer().state().empty());

    EXPECT_EQ(latestCheckpoint(dir / "run"), result.lastCheckpoint);
}

// Issue 11: the CPU cap was set and reset by whichever Trainer ran, and work of other threads
// (the studio's Try it, an export) counted against it.
TEST(MemoryCap, ScopesNestAndUncountedWorkIsNeitherCountedNorRefused) {
    const MemoryMonitor cpu(c10::kCPU);
    constexpr std::int64_t kMiB = 1 << 20;
    {
        const ScopedMemoryCap outer(c10::kCPU, cpu.sample().current + 64 * kMiB);
        {
            const ScopedMemoryCap inner(c10::kCPU, cpu.sample().current + kMiB);
            EXPECT_THROW(at::empty({4 * kMiB}, at::kByte), c10::OutOfMemoryError);
            bool allocated = false;
            std::int64_t counted = -1;
            const auto before = cpu.sample().current;
            std::thread other([&] {
                const UncountedAllocations notARun;
                const auto tensor = at::empty({4 * kMiB}, at::kByte);
                allocated = tensor.defined();
                counted = cpu.sample().current - before;
            });
            other.join();
            EXPECT_TRUE(allocated) << "uncounted work was refused by the cap";
            EXPECT_LT(counted, kMiB) << "uncounted work was counted";
            // A Trainer's cap lives and dies with the Trainer, and gives the outer cap back.
            const auto data = test::makeTinyData(16, 8, 33);
            auto bundle = test::makeModel(2, 32, 4, 0.0, 33);
            auto config = smallConfig();
            config.memoryCapBytes = cpu.sample().current + 512 * kMiB;
            {
                Recorder recorder;
                Trainer trainer(bundle, data, config, recorder);
                EXPECT_NO_THROW(at::empty({4 * kMiB}, at::kByte));
            }
            EXPECT_THROW(at::empty({4 * kMiB}, at::kByte), c10::OutOfMemoryError)
                << "the inner cap was not restored";
        }
        EXPECT_NO_THROW(at::empty({4 * kMiB}, at::kByte));
        EXPECT_THROW(at::empty({128 * kMiB}, at::kByte), c10::OutOfMemoryError);
    }
    EXPECT_NO_THROW(at::empty({128 * kMiB}, at::kByte));
}

// Issue 12: when eval-every divided the last step, the final evaluation ran twice (50 s wasted
// each time on a real run; the run card said "Evaluations: 3").
TEST(Trainer, TheLastEvaluationRunsOnce) {
    const auto data = test::makeTinyData(96, 8, 34);
    Recorder recorder;
    auto bundle = test::makeModel(2, 32, 4, 0.0, 34);
    auto config = smallConfig();
    config.epochs = 5;
    config.maxSteps = 6;  // inside the first epoch (12 steps)
    config.evalEverySteps = 3;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    ASSERT_EQ(trainer.run(cancel).status, RunStatus::Completed);
    ASSERT_EQ(recorder.evaluations.size(), 2U);
    EXPECT_EQ(recorder.evaluations[0].step, 3U);
    EXPECT_EQ(recorder.evaluations[1].step, 6U);
}

}  // namespace
}  // namespace bert
