// Issue 12, point 1: the advice that makes a run fit knows the device. Under a 300 MiB cap on a
// CPU without native bf16 it once turned on bf16 (3.8x slower a step, 4 MiB saved), checkpointing,
// a halved micro-batch and frozen embeddings at once.

#include <set>

#include <gtest/gtest.h>

#include "memory/DeviceTraits.h"
#include "model/FamilyTraits.h"
#include "train/EvaluationForecast.h"
#include "train/MemoryForecast.h"

namespace bert {
namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

// all-MiniLM-L6-v2, the default base model.
EncoderConfig miniLm() {
    EncoderConfig model;
    model.hiddenSize = 384;
    model.numHiddenLayers = 6;
    model.numAttentionHeads = 12;
    model.intermediateSize = 1536;
    return model;
}

DeviceTraits plainCpu() {
    return {.cuda = false, .nativeBf16 = false, .fastFp16 = false, .name = "CPU"};
}
DeviceTraits bf16Cpu() {
    return {.cuda = false, .nativeBf16 = true, .fastFp16 = false, .name = "CPU"};
}
DeviceTraits ampere() {
    return {.cuda = true, .nativeBf16 = true, .fastFp16 = true, .name = "A100"};
}
DeviceTraits turing() {
    return {.cuda = true, .nativeBf16 = false, .fastFp16 = true, .name = "T4"};
}

TrainingConfig userSettings(const char* device) {
    TrainingConfig training;
    training.device = device;
    training.maxLength = 256;
    training.batchSize = 16;
    training.accumulationSteps = 1;
    training.padding = PaddingMode::Dynamic;
    return training;
}

// The figure the advice compares with a budget: the run's peak, a training step's or an
// evaluation's, whichever is higher (issue 27: a run that fitted its steps ran out of memory
// evaluating); the tensors' peak on the CPU, on CUDA the process's total, or the reserved peak
// under a cap (issue 24, point 6).
std::int64_t peakOf(const TrainingConfig& c, std::size_t longest = 256) {
    return forecastRunPeak(miniLm(), c, longest);
}

TEST(FitAdvice, OnAPlainCpuItNeverTradesBf16SlownessForAFewMiB) {
    const auto training = userSettings("cpu");
    const std::int64_t budget = 300 * kMiB;
    ASSERT_GT(peakOf(training), budget) << "the scenario must not fit to begin with";
    const auto advice = suggestFit(miniLm(), training, 256, budget, plainCpu());
    ASSERT_TRUE(advice.fits);
    std::printf("plain CPU, 300 MiB: %s\n", advice.description.c_str());
    EXPECT_EQ(advice.config.precision, Precision::Fp32) << advice.description;
    EXPECT_LE(advice.forecastBytes, budget);
    EXPECT_LT(advice.timeFactor, 2.0) << advice.description;
    EXPECT_EQ(advice.config.maxLength, training.maxLength)
        << "cutting the text is the last resort: " << advice.description;
    EXPECT_NE(advice.description.find("slower"), std::string::npos)
        << "the cost must be said: " << advice.description;
    EXPECT_EQ(advice.config.stepExamples(), training.stepExamples()) << "effective batch kept";
}

TEST(FitAdvice, OnAGpuWithBf16TensorCoresBf16ComesFirstBecauseItIsFaster) {
    const auto training = userSettings("cuda");
    const std::int64_t need = peakOf(training);
    TrainingConfig bf16 = training;
    bf16.precision = Precision::Bf16;
    ASSERT_LT(peakOf(bf16), need);
    const auto advice = suggestFit(miniLm(), training, 256, peakOf(bf16), ampere());
    ASSERT_TRUE(advice.fits);
    EXPECT_EQ(advice.config.precision, Precision::Bf16) << advice.description;
    EXPECT_FALSE(advice.config.gradientCheckpointing) << advice.description;
    EXPECT_LT(advice.timeFactor, 1.0);
    EXPECT_NE(advice.description.find("faster"), std::string::npos) << advice.description;
}

TEST(FitAdvice, Fp16OnlyWhereItIsFastAndNeverOnACpu) {
    for (const auto budgetMiB : {120, 160, 200, 250, 300, 400}) {
        for (const auto& traits : {plainCpu(), bf16Cpu()}) {
            const auto advice =
                suggestFit(miniLm(), userSettings("cpu"), 256, budgetMiB * kMiB, traits);
            EXPECT_NE(advice.config.precision, Precision::Fp16) << budgetMiB << " MiB";
        }
    }
    // A T4 has fp16 tensor cores but no bf16 ones.
    const auto training = userSettings("cuda");
    TrainingConfig fp16 = training;
    fp16.precision = Precision::Fp16;
    const auto advice = suggestFit(miniLm(), training, 256, peakOf(fp16), turing());
    ASSERT_TRUE(advice.fits);
    EXPECT_EQ(advice.config.precision, Precision::Fp16) << advice.description;
}

// DeBERTa's attention scores overflow fp16 and its training diverges (microsoft/DeBERTa issue
// 77): on a T4, where fp16 is the fast half precision, the advice finds another way.
TEST(FitAdvice, Fp16IsNeverProposedForAFamilyItMakesDiverge) {
    auto deberta = familyOf("deberta-v2").defaults();
    deberta.modelType = "deberta-v2";
    deberta.hiddenSize = 384;
    deberta.numHiddenLayers = 6;
    deberta.numAttentionHeads = 12;
    deberta.intermediateSize = 1536;
    const auto training = userSettings("cuda");
    TrainingConfig fp16 = training;
    fp16.precision = Precision::Fp16;
    const auto budget = forecastRunPeak(deberta, fp16, 256);
    ASSERT_LT(budget, forecastRunPeak(deberta, training, 256));
    const auto advice = suggestFit(deberta, training, 256, budget, turing());
    ASSERT_TRUE(advice.fits) << advice.description;
    EXPECT_NE(advice.config.precision, Precision::Fp16) << advice.description;
    EXPECT_EQ(advice.description.find("fp16"), std::string::npos) << advice.description;
    EXPECT_FALSE(fp16Caution(deberta).empty());
    EXPECT_TRUE(fp16Caution(miniLm()).empty());
}

// Nothing that costs time without saving memory: undoing any one change of the advice must
// raise the forecast (or break the budget).
TEST(FitAdvice, EveryProposedChangeSavesMemory) {
    int checked = 0;
    for (const auto& traits : {plainCpu(), bf16Cpu(), ampere(), turing()}) {
        for (const auto padding : {PaddingMode::Dynamic, PaddingMode::Fixed}) {
            for (const auto budgetMiB : {140, 180, 220, 260, 300, 400, 600}) {
                auto training = userSettings(traits.cuda ? "cuda" : "cpu");
                training.padding = padding;
                training.batchSize = 32;
                const std::int64_t budget = budgetMiB * kMiB;
                const std::size_t longest = 200;
                if (peakOf(training, longest) <= budget) {
                    continue;
                }
                const auto advice = suggestFit(miniLm(), training, longest, budget, traits);
                if (!advice.fits) {
                    continue;
                }
                ++checked;
                const auto& a = advice.config;
                const std::int64_t peak = peakOf(a, longest);
                EXPECT_EQ(peak, advice.forecastBytes);
                EXPECT_LE(peak, budget);
                auto undone = [&](auto revert) {
                    TrainingConfig c = a;
                    revert(c);
                    return peakOf(c, longest);
                };
                const std::string where = advice.description;
                if (a.padding != training.padding) {
                    EXPECT_GT(undone([&](TrainingConfig& c) { c.padding = training.padding; }),
                              peak)
                        << where;
                }
                if (a.gradientCheckpointing != training.gradientCheckpointing) {
                    EXPECT_GT(undone([](TrainingConfig& c) { c.gradientCheckpointing = false; }),
                              peak)
                        << where;
                }
                if (a.precision != training.precision) {
                    EXPECT_GT(undone([](TrainingConfig& c) { c.precision = Precision::Fp32; }),
                              peak)
                        << where;
                }
                if (a.freezeEmbeddings != training.freezeEmbeddings) {
                    EXPECT_GT(undone([](TrainingConfig& c) { c.freezeEmbeddings = false; }), peak)
                        << where;
                }
                if (a.maxLength != training.maxLength) {
                    EXPECT_GT(undone([&](TrainingConfig& c) { c.maxLength = training.maxLength; }),
                              peak)
                        << where;
                }
                if (a.batchSize != training.batchSize) {
                    EXPECT_GT(undone([&](TrainingConfig& c) {
                                  c.batchSize = training.batchSize;
                                  c.accumulationSteps = training.accumulationSteps;
                              }),
                              peak)
                        << where;
                    EXPECT_EQ(a.stepExamples(), training.stepExamples()) << where;
                }
                if (a.evalBatchSize != training.evalBatchSize) {
                    EXPECT_GT(undone([&](TrainingConfig& c) {
                                  c.evalBatchSize = training.evalBatchSize;
                              }),
                              budget)
                        << where;
                }
            }
        }
    }
    EXPECT_GT(checked, 10) << "the sweep must exercise the advice";
}

// mmBERT-base's shape: ModernBERT's layers over Gemma's 256,000 pieces, whose embedding (197M
// parameters) is two thirds of the model and most of AdamW's state.
EncoderConfig mmBertBase() {
    auto model = familyOf("modernbert").defaults();
    model.modelType = "modernbert";
    model.vocabSize = 256000;
    model.hiddenSize = 768;
    model.numHiddenLayers = 22;
    model.numAttentionHeads = 12;
    model.intermediateSize = 1152;
    return model;
}

TEST(FitAdvice, ALargeVocabularysEmbeddingsAreFrozenFirstAndTheAdviceSaysWhatThatSaves) {
    const auto model = mmBertBase();
    const auto training = userSettings("cpu");
    TrainingConfig frozen = training;
    frozen.freezeEmbeddings = true;
    const auto peak = forecastRunPeak(model, training, 256);
    const auto frozenPeak = forecastRunPeak(model, frozen, 256);
    // AdamW's 8 bytes of 197M parameters (without accumulation their gradients are not alive
    // at the peak).
    ASSERT_GT(peak - frozenPeak, std::int64_t{1450} * kMiB);
    // A budget only freezing (or costlier changes) meets: the advice freezes, saying the saving.
    const auto advice = suggestFit(model, training, 256, frozenPeak + kMiB, plainCpu());
    ASSERT_TRUE(advice.fits);
    EXPECT_TRUE(advice.config.freezeEmbeddings) << advice.description;
    const auto saves = "saves " + std::to_string((peak - frozenPeak) >> 20) + " MiB";
    EXPECT_NE(advice.description.find("freeze the embeddings (about as fast; " + saves),
              std::string::npos)
        << advice.description;

    // The note, before any budget is met: what freezing frees, from the forecast's own terms.
    const auto now = forecastMemory(model, training, 256);
    const auto then = forecastMemory(model, frozen, 256);
    EXPECT_EQ(largeEmbeddingNote(model, training),
              "the embeddings hold 197M of the model's " +
                  std::to_string((countParameters(model).total(22) + 500'000) / 1'000'000) +
                  "M parameters (64%): freezing them (--freeze-embeddings) frees their AdamW "
                  "state (" +
                  std::to_string((now.optimizerState - then.optimizerState) >> 20) +
                  " MiB) and gradients (" + std::to_string((now.gradients - then.gradients) >> 20) +
                  " MiB); may cost a little accuracy");
    EXPECT_EQ(largeEmbeddingNote(model, frozen), "") << "already frozen";
    EXPECT_EQ(largeEmbeddingNote(miniLm(), training), "") << "half of MiniLM, but 90 MiB of state";
    auto bertBase = miniLm();
    bertBase.hiddenSize = 768;
    bertBase.numHiddenLayers = 12;
    bertBase.intermediateSize = 3072;
    EXPECT_EQ(largeEmbeddingNote(bertBase, training), "") << "a fifth of BERT-base";
}

TEST(FitAdvice, NothingFitsSaysSo) {
    const auto advice = suggestFit(miniLm(), userSettings("cpu"), 256, 10 * kMiB, plainCpu());
    EXPECT_FALSE(advice.fits);
    EXPECT_TRUE(advice.description.empty());
}

TEST(LargestBatch, TheLargestDivisorOfTheEffectiveBatchThatFits) {
    auto training = userSettings("cpu");
    training.batchSize = 4;
    training.accumulationSteps = 8;  // effective 32
    EXPECT_EQ(microBatchesKeeping(training), (std::vector<std::size_t>{32, 16, 8, 4, 2, 1}));
    std::set<std::size_t> sizes;
    for (const auto budgetMiB : {450, 500, 800, 1500, 4000}) {
        const std::int64_t budget = budgetMiB * kMiB;
        const auto fit = largestFittingBatch(miniLm(), training, 256, budget);
        ASSERT_TRUE(fit.has_value()) << budgetMiB << " MiB";
        EXPECT_EQ(fit->stepExamples(), 32u);
        EXPECT_LE(peakOf(*fit), budget);
        sizes.insert(fit->batchSize);
        if (fit->batchSize < 32) {
            TrainingConfig larger = *fit;
            larger.batchSize *= 2;
            larger.accumulationSteps /= 2;
            EXPECT_GT(peakOf(larger), budget) << "a larger micro-batch fits at " << budgetMiB;
        }
    }
    EXPECT_GE(sizes.size(), 3u) << "the budgets must give different answers";
    EXPECT_FALSE(largestFittingBatch(miniLm(), training, 256, 400 * kMiB).has_value());
}

TEST(DeviceTraits, ReadsNativeBf16FromTheCpuFlagsLineOnly) {
    EXPECT_TRUE(
        cpuInfoHasNativeBf16("processor\t: 0\nflags\t\t: fpu sse avx512f avx512_bf16 amx_tile\n"));
    EXPECT_TRUE(cpuInfoHasNativeBf16("flags\t\t: fpu amx_bf16 amx_int8\n"));
    EXPECT_FALSE(cpuInfoHasNativeBf16("flags\t\t: fpu sse avx2 avx512f\n"));
    // Issue 14, point 5: `estimate` and the run's log say when a choice is only emulated.
    DeviceTraits emulating;
    emulating.name = "CPU";
    EXPECT_NE(emulatedPrecisionWarning(emulating, "bf16").find("emulated"), std::string::npos);
    EXPECT_NE(emulatedPrecisionWarning(emulating, "fp16").find("emulated"), std::string::npos);
    EXPECT_TRUE(emulatedPrecisionWarning(emulating, "fp32").empty());
    DeviceTraits native = emulating;
    native.nativeBf16 = true;
    EXPECT_TRUE(emulatedPrecisionWarning(native, "bf16").empty());
    DeviceTraits volta;
    volta.cuda = true;
    volta.fastFp16 = true;
    volta.name = "Tesla V100 (cuda:0)";
    EXPECT_NE(emulatedPrecisionWarning(volta, "bf16").find("Tesla V100"), std::string::npos);
    EXPECT_TRUE(emulatedPrecisionWarning(volta, "fp16").empty());
    EXPECT_FALSE(cpuInfoHasNativeBf16("model name\t: avx512_bf16 marketing\nflags\t\t: fpu sse\n"));
    EXPECT_FALSE(cpuInfoHasNativeBf16("flags\t\t: fpu avx512_bf16x\n"));
    EXPECT_FALSE(deviceTraits("cpu").cuda);
}

}  // namespace
}  // namespace bert

namespace bert {
namespace {

// Issue 13: the forecast is per process under data parallel and knows what sharding saves.
TEST(DataParallelForecast, ShardedOptimizerStateIsAShareOfTheRanksAndNothingElseChanges) {
    TrainingConfig training;
    training.batchSize = 8;
    const auto single = forecastMemory(miniLm(), training, 128);
    const auto unsharded = forecastMemory(miniLm(), training, 128, /*ranks=*/4);
    EXPECT_EQ(unsharded.total(), single.total()) << "without sharding every rank holds it all";
    training.shardOptimizer = true;
    const auto sharded = forecastMemory(miniLm(), training, 128, /*ranks=*/4);
    EXPECT_EQ(sharded.optimizerState, (single.optimizerState + 3) / 4);
    EXPECT_EQ(sharded.weights, single.weights);
    EXPECT_EQ(sharded.activations, single.activations);
    EXPECT_EQ(forecastMemory(miniLm(), training, 128, 1).total(), single.total())
        << "sharding alone, in one process, changes nothing";
    // The form and `estimate --nproc 4` have no collective: the processes setting counts.
    training.processes = 4;
    EXPECT_EQ(forecastMemory(miniLm(), training, 128).optimizerState, sharded.optimizerState);
}

}  // namespace
}  // namespace bert
