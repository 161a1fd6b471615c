// The frozen-prefix cache (issue 14, point 3): with the embeddings and the lowest layers frozen,
// their output per example is computed once and reused. It must change nothing but time: with
// dropout off, the cached run's losses and weights equal the uncached run's after two epochs,
// whether the cache sits in memory or in its file; it is refused, with the reason, where it
// would not be exact; and the frozen part runs without dropout from the first time on.
#include <filesystem>

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "Error.h"
#include "TinyModel.h"
#include "TrainerProbes.h"
#include "support/TestSupport.h"
#include "train/PrefixCache.h"
#include "train/Trainer.h"

namespace bert {
namespace {

using test::gradients;
using test::maxGradientDifference;
using test::Recorder;
using test::smallConfig;

TEST(PrefixCache, KeepsEntriesInMemoryUpToItsBudgetThenInAFileItRemoves) {
    test::TempDir dir;
    const auto file = dir.path() / "prefix-cache-train.bin";
    const auto a = at::randn({5, 32});  // 640 bytes
    const auto b = at::randn({7, 32});  // 896 bytes
    const auto c = at::randn({3, 32}).to(at::kBFloat16);
    {
        PrefixCache cache(4, /*memoryBudget=*/1000, file);
        EXPECT_FALSE(cache.contains(0));
        cache.store(0, a);
        EXPECT_FALSE(std::filesystem::exists(file)) << "the first entry fits in memory";
        cache.store(2, b);  // past the budget: to the file
        EXPECT_TRUE(std::filesystem::exists(file));
        cache.store(3, c);  // small enough for what memory is left
        EXPECT_EQ(cache.memoryBytes(), 640 + 3 * 32 * 2);
        EXPECT_EQ(cache.fileBytes(), 896);
        EXPECT_EQ(cache.stored(), 3U);
        EXPECT_TRUE(at::equal(cache.load(0), a));
        EXPECT_TRUE(at::equal(cache.load(2), b));
        EXPECT_TRUE(at::equal(cache.load(3), c));
        EXPECT_EQ(cache.load(3).scalar_type(), at::kBFloat16);
        EXPECT_FALSE(cache.contains(1));
        // An entry is a copy: changing what was stored does not change it.
        auto d = at::ones({2, 32});
        cache.store(1, d);
        d.zero_();
        EXPECT_TRUE(cache.load(1).eq(1).all().item<bool>());
    }
    EXPECT_FALSE(std::filesystem::exists(file)) << "the cache's file outlived it";
}

TEST(PrefixCache, AFileThatCannotBeCreatedIsNamedInTheError) {
    test::TempDir dir;
    const auto file = dir.path() / "no-such-folder" / "prefix-cache-train.bin";
    PrefixCache cache(1, 0, file);
    try {
        cache.store(0, at::ones({2, 4}));
        FAIL() << "stored into a folder that does not exist";
    } catch (const StoreError& error) {
        EXPECT_EQ(error.file(), file);
        EXPECT_NE(std::string(error.what()).find("cannot be created"), std::string::npos)
            << error.what();
    }
}

TEST(PrefixCache, IsRefusedWithTheReasonWhereItWouldNotBeExact) {
    const auto data = test::makeTinyData(16, 8, 61);
    auto bundle = test::makeModel(2, 32, 4, 0.0, 62);
    auto config = smallConfig();
    config.cacheFrozenPrefix = true;
    config.freezeLayers = 1;  // but the embeddings train: the layers' input changes every step
    Recorder recorder;
    try {
        Trainer trainer(bundle, data, config, recorder);
        FAIL() << "a cache over trainable embeddings was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("needs frozen embeddings"), std::string::npos)
            << error.what();
    }
    config.freezeEmbeddings = true;
    EXPECT_NO_THROW(Trainer(bundle, data, config, recorder));
}

struct TwoEpochs {
    std::vector<StepMetrics> steps;
    std::vector<EvalMetrics> evaluations;
    ModelBundle bundle;
    nlohmann::json cacheFigures;
};

TwoEpochs trainTwoEpochs(const TrainingData& data, bool cache, std::size_t memoryMiB,
                         PaddingMode padding) {
    auto bundle = test::makeModel(3, 32, 4, /*dropout=*/0.0, 63);
    auto config = smallConfig();
    config.epochs = 2;
    config.evalsPerEpoch = 2;
    config.freezeEmbeddings = true;
    config.freezeLayers = 1;
    config.padding = padding;
    config.cacheFrozenPrefix = cache;
    config.prefixCacheMemoryMiB = memoryMiB;
    Recorder recorder;
    Trainer trainer(bundle, data, config, recorder);
    const std::atomic<bool> cancel{false};
    const auto result = trainer.run(cancel);
    EXPECT_EQ(result.status, RunStatus::Completed) << result.error;
    TwoEpochs run{recorder.steps, recorder.evaluations, bundle, {}};
    for (const auto& event : recorder.events) {
        if (event.data.contains("prefix_computed")) {
            run.cacheFigures = event.data;
        }
    }
    return run;
}

double largestWeightDifference(const ModelBundle& a, const ModelBundle& b) {
    double worst = 0.0;
    const auto theirs = b.model->named_parameters();
    for (const auto& item : a.model->named_parameters()) {
        worst = std::max(worst, (item.value() - theirs[item.key()]).abs().max().item<double>());
    }
    return worst;
}

TEST(PrefixCache, TwoEpochsTrainAsWithoutItInMemoryAndInItsFile) {
    const auto data = test::makeTinyData(40, 12, 64, 1, 50, 64);
    for (const auto padding : {PaddingMode::Unpadded, PaddingMode::Dynamic}) {
        const auto plain = trainTwoEpochs(data, false, 0, padding);
        EXPECT_TRUE(plain.cacheFigures.is_null());
        for (const std::size_t memoryMiB : {std::size_t{64}, std::size_t{0}}) {
            const auto cached = trainTwoEpochs(data, true, memoryMiB, padding);
            ASSERT_EQ(cached.steps.size(), plain.steps.size());
            for (std::size_t i = 0; i < plain.steps.size(); ++i) {
                EXPECT_NEAR(cached.steps[i].loss, plain.steps[i].loss, 1e-5) << "step " << i;
            }
            ASSERT_EQ(cached.evaluations.size(), plain.evaluations.size());
            EXPECT_NEAR(cached.evaluations.back().loss, plain.evaluations.back().loss, 1e-5);
            const double weights = largestWeightDifference(cached.bundle, plain.bundle);
            std::cout << toString(padding) << ", cache " << memoryMiB
                      << " MiB in memory: largest weight difference after 2 epochs " << weights
                      << "; " << cached.cacheFigures.dump() << "\n";
            EXPECT_LT(weights, 1e-5);
            // Each example's prefix ran once; epoch 2 and every evaluation but the first reused
            // it; in memory, or with no memory all in the file.
            const auto& figures = cached.cacheFigures;
            ASSERT_FALSE(figures.is_null()) << "the cache said nothing at the end";
            EXPECT_EQ(figures["prefix_computed"].get<std::size_t>(),
                      data.train.size() + data.validation.size());
            EXPECT_GE(figures["prefix_reused"].get<std::size_t>(),
                      data.train.size() + 2 * data.validation.size());
            EXPECT_EQ(figures["memory_bytes"].get<std::int64_t>() == 0, memoryMiB == 0);
            EXPECT_EQ(figures["file_bytes"].get<std::int64_t>() > 0, memoryMiB == 0);
        }
    }
    // Nothing of the caches is left in the temporary folder.
    for (const auto& entry :
         std::filesystem::directory_iterator(std::filesystem::temp_directory_path())) {
        EXPECT_EQ(entry.path().filename().string().rfind(
                      "bert-studio-prefix-cache-" + std::to_string(::getpid()), 0),
                  std::string::npos)
            << entry.path() << " was left behind";
    }
}

TEST(PrefixCache, TheFrozenPartRunsWithoutDropoutFromTheFirstTime) {
    // With dropout on in the model, the first pass over a window computes the prefix and the
    // second reads it from the cache. Had the prefix drawn dropout masks the first time, the
    // two passes would draw different masks above it and their gradients would differ.
    const auto data = test::makeTinyData(16, 8, 65);
    auto bundle = test::makeModel(3, 32, 4, /*dropout=*/0.3, 66);
    auto config = smallConfig();
    config.freezeEmbeddings = true;
    config.freezeLayers = 1;
    config.cacheFrozenPrefix = true;
    Recorder recorder;
    Trainer trainer(bundle, data, config, recorder);
    const std::vector<std::size_t> window = {0, 1, 2, 3, 4, 5, 6, 7};
    at::manual_seed(5);
    trainer.computeGradients(window);
    const auto first = gradients(bundle);
    trainer.clearGradients();
    at::manual_seed(5);
    trainer.computeGradients(window);
    EXPECT_EQ(maxGradientDifference(first, gradients(bundle)), 0.0);
    // Guard: the trainable layers do drop, so another seed gives other gradients.
    trainer.clearGradients();
    at::manual_seed(6);
    trainer.computeGradients(window);
    EXPECT_GT(maxGradientDifference(first, gradients(bundle)), 1e-6);
}

}  // namespace
}  // namespace bert
