// The option table is the one declaration of every training option: JSON, command-line text and
// (in the UI tests) the form all go through it.
#include <cmath>
#include <numbers>
#include <set>

#include <gtest/gtest.h>

#include "Error.h"
#include "train/TrainingOptions.h"

namespace bert {
namespace {

// A configuration where every option differs from its default.
TrainingConfig everyOptionChanged() {
    TrainingConfig c;
    c.maxLength = 96;
    c.padding = PaddingMode::Fixed;
    c.padToMultipleOf = 8;
    c.groupByLength = true;
    c.validationFraction = 0.25;
    c.batchSize = 12;
    c.accumulationSteps = 3;
    c.evalBatchSize = 32;
    c.epochs = 4;
    c.maxSteps = 77;
    c.learningRate = 3e-4;
    c.weightDecay = 0.05;
    c.warmupRatio = 0.1;
    c.maxGradNorm = 0.5;
    c.seed = 18446744073709551557ULL;
    c.evalEverySteps = 9;
    c.evalsPerEpoch = 2;
    c.classWeighting = ClassWeighting::Balanced;
    c.focalGamma = 2.5;
    c.balancedSampling = true;
    c.temperatureScaling = true;
    c.rareLabelShare = 2.5;
    c.lrSchedule = LrSchedule::Cosine;
    c.bestMetric = BestMetric::MacroF1;
    c.earlyStoppingPatience = 3;
    c.maxNonFiniteSteps = 2;
    c.freezeEmbeddings = true;
    c.cacheFrozenPrefix = true;
    c.trialStep = false;
    c.prefixCacheMemoryMiB = 300;
    c.freezeLayers = 2;
    c.precision = Precision::Fp16;
    c.gradientCheckpointing = true;
    c.shardOptimizer = true;
    c.cacheRelease = CacheRelease::EveryNSteps;
    c.cacheReleaseSteps = 5;
    c.memoryCapBytes = 3LL << 30;
    c.recoverFromOom = false;
    c.device = "cuda:1";
    c.saveCheckpoints = false;
    c.threads = 3;
    c.processes = 4;
    c.shuffle = false;
    c.tf32 = true;
    c.logEverySteps = 10;
    c.longText = LongTextMode::Windows;
    c.headTokens = 64;
    c.windowStride = 16;
    c.windowPooling = WindowPooling::Max;
    return c;
}

TEST(TrainingOptions, EveryMemberIsInTheTableAndSurvivesJson) {
    const auto changed = everyOptionChanged();
    const auto json = changed.toJson();
    // One table entry per JSON key, and every one of them differs from the default: a member
    // without an entry would come back from JSON as its default.
    EXPECT_EQ(json.size(), trainingOptions().size());
    const auto defaults = TrainingConfig{}.toJson();
    for (const auto& option : trainingOptions()) {
        EXPECT_NE(json[option.key], defaults[option.key])
            << option.key << " is not changed by the test";
    }
    EXPECT_EQ(TrainingConfig::fromJson(json).toJson(), json);
}

TEST(TrainingOptions, KeysAndFlagsAreUnique) {
    std::set<std::string> keys;
    std::set<std::string> flags;
    for (const auto& option : trainingOptions()) {
        EXPECT_TRUE(keys.insert(option.key).second) << option.key;
        EXPECT_TRUE(flags.insert(option.flag).second) << option.flag;
        if (*option.alias) {
            EXPECT_TRUE(flags.insert(option.alias).second) << option.alias;
        }
        EXPECT_GT(std::string(option.help).size(), 10U) << option.key << " has no help";
    }
}

TEST(TrainingOptions, CommandLineTextRoundTripsThroughEveryOption) {
    const auto changed = everyOptionChanged();
    TrainingConfig parsed;
    for (const auto& option : trainingOptions()) {
        if (option.kind == OptionKind::Flag) {
            option.set(parsed,
                       option.get(changed));  // flags have no text: the command line sets them
        } else {
            option.setFromText(parsed, option.text(changed));
        }
    }
    EXPECT_EQ(parsed.toJson(), changed.toJson());
}

TEST(TrainingOptions, BadTextNamesTheFlagAndNeverWraps) {
    TrainingConfig config;
    const auto* maxLength = findTrainingOption("max_length");
    ASSERT_NE(maxLength, nullptr);
    // "-1" once passed as 18446744073709551615 (and then the max-positions check).
    try {
        maxLength->setFromText(config, "-1");
        FAIL() << "-1 accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("--max-length"), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("from 8 to"), std::string::npos) << error.what();
    }
    EXPECT_THROW(maxLength->setFromText(config, "4"), InputError);
    EXPECT_THROW(maxLength->setFromText(config, "12abc"), InputError);
    EXPECT_THROW(findTrainingOption("learning_rate")->setFromText(config, "nan"), InputError);
    EXPECT_THROW(findTrainingOption("precision")->setFromText(config, "fp8"), InputError);
    EXPECT_THROW(findTrainingOption("device")->setFromText(config, "gpu"), InputError);
    EXPECT_THROW(findTrainingOption("seed")->setFromText(config, "-5"), InputError);
    findTrainingOption("memory_cap_bytes")->setFromText(config, "800MiB");
    EXPECT_EQ(config.memoryCapBytes, 800LL << 20);
    findTrainingOption("memory_cap_bytes")->setFromText(config, "none");
    EXPECT_FALSE(config.memoryCapBytes);
    EXPECT_EQ(config.maxLength, TrainingConfig{}.maxLength)
        << "a refused value changed the setting";
}

TEST(TrainingOptions, JsonWithWrongTypesOrUnknownKeysIsRefusedByName) {
    auto expectRefused = [](const nlohmann::json& json, const std::string& fragment) {
        try {
            TrainingConfig::fromJson(json);
            FAIL() << json.dump() << " accepted";
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
        }
    };
    expectRefused({{"batch_size", "16"}}, "\"batch_size\"");
    expectRefused({{"batch_size", -16}}, "\"batch_size\"");
    expectRefused({{"batch_size", 2.5}}, "\"batch_size\"");
    expectRefused({{"padding", 1}}, "one of unpadded, dynamic, fixed");
    expectRefused({{"batchsize", 16}}, "\"batchsize\" is unknown");
    expectRefused({{"epochs", 0}, {"max_steps", 0}}, "at least one epoch or one step");
    expectRefused(nlohmann::json::array(), "JSON object");
    // null keeps a default, and unsets the cap.
    EXPECT_EQ(TrainingConfig::fromJson({{"batch_size", nullptr}}).batchSize,
              TrainingConfig{}.batchSize);
    EXPECT_FALSE(TrainingConfig::fromJson({{"memory_cap_bytes", nullptr}}).memoryCapBytes);
    EXPECT_EQ(TrainingConfig::fromJson({{"memory_cap_bytes", "2GiB"}}).memoryCapBytes, 2LL << 30);
}

TEST(TrainingOptions, TheTechniquesSummaryComesFromTheTable) {
    TrainingConfig config;
    EXPECT_EQ(config.techniquesSummary(), "unpadded");
    config.padding = PaddingMode::Dynamic;
    EXPECT_EQ(config.techniquesSummary(), "dynamic padding");
    config.padding = PaddingMode::Fixed;
    config.accumulationSteps = 2;
    config.gradientCheckpointing = true;
    config.precision = Precision::Bf16;
    config.memoryCapBytes = 300LL << 20;
    EXPECT_EQ(config.techniquesSummary(),
              "fixed padding, accumulation x2, bf16, checkpointing, cap 300 MiB");
    EXPECT_EQ(toString(Precision::Bf16), "bf16");
    EXPECT_EQ(toString(CacheRelease::AfterEval), "after-eval");
}

}  // namespace
}  // namespace bert

namespace bert {
namespace {

// Issue 12, point 10: the schedules equal transformers' get_*_schedule_with_warmup
// (values computed with transformers 5.23 for lr 1e-3, 100 steps, warmup 0.1).
TEST(LearningRate, SchedulesEqualTransformers) {
    TrainingConfig c;
    c.learningRate = 1e-3;
    c.warmupRatio = 0.1;
    for (const auto schedule : {LrSchedule::Linear, LrSchedule::Cosine, LrSchedule::Constant}) {
        c.lrSchedule = schedule;
        EXPECT_DOUBLE_EQ(scheduledLearningRate(c, 0, 100), 0.0);
        EXPECT_DOUBLE_EQ(scheduledLearningRate(c, 5, 100), 5e-4);
        EXPECT_DOUBLE_EQ(scheduledLearningRate(c, 10, 100), 1e-3);
    }
    c.lrSchedule = LrSchedule::Linear;
    EXPECT_NEAR(scheduledLearningRate(c, 55, 100), 1e-3 * 45.0 / 90.0, 1e-15);
    EXPECT_NEAR(scheduledLearningRate(c, 99, 100), 1e-3 / 90.0, 1e-15);
    c.lrSchedule = LrSchedule::Cosine;
    EXPECT_NEAR(scheduledLearningRate(c, 55, 100), 5e-4, 1e-15);  // half-way: cos(pi/2)
    EXPECT_NEAR(scheduledLearningRate(c, 99, 100),
                1e-3 * 0.5 * (1.0 + std::cos(std::numbers::pi * 89.0 / 90.0)), 1e-15);
    c.lrSchedule = LrSchedule::Constant;
    EXPECT_DOUBLE_EQ(scheduledLearningRate(c, 99, 100), 1e-3);
}

}  // namespace
}  // namespace bert
