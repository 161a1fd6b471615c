// What the command line advises and assumes: the memory advice searches the same candidates as
// the largest-batch search (frozen layers, smaller micro-batches) and never says nothing fits
// when one does; regression targets are standardised by default, as in the studio, with a hint
// when they are not and their scale makes training hopeless.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../core/TinyModel.h"
#include "CliSupport.h"
#include "memory/DeviceTraits.h"
#include "runs/RunStore.h"

namespace bert::test {
namespace {

using CliAdvice = CliFixture;

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string word; in >> word;) {
        out.push_back(word);
    }
    return out;
}

/// A model whose encoder layers hold most of its training memory, written to dir/wide, and the
/// `estimate` of it on dir/reviews.csv at a cap where nothing but freezing some of them fits.
std::vector<std::string> wideModelEstimate(const std::filesystem::path& dir) {
    auto bundle = makeModel(4, 256, 4, 0.1, 3);
    exportModelFolder(dir / "wide", *bundle.model, *bundle.tokenizer);
    return {"estimate",
            "--model",
            (dir / "wide").string(),
            "--train",
            (dir / "reviews.csv").string(),
            "--text-column",
            "review",
            "--label-column",
            "sentiment",
            "--batch-size",
            "8",
            "--max-length",
            "64",
            "--memory-cap",
            "40MiB"};
}

// A model whose encoder layers hold most of its training memory: at this cap nothing but
// freezing some of them fits (all techniques together, without freezing layers, do not).
TEST_F(CliAdvice, TheAdviceFreezesLayersWhenNothingElseFitsAndItsFlagsFit) {
    const auto estimate = wideModelEstimate(dir_.path());
    const auto advised = runCli(estimate, dir_.path());
    ASSERT_EQ(advised.code, 0) << advised.err;
    EXPECT_NE(advised.out.find("will not fit; to fit:"), std::string::npos) << advised.out;
    EXPECT_EQ(advised.out.find("nothing makes it fit"), std::string::npos) << advised.out;
    EXPECT_NE(advised.out.find("layers"), std::string::npos) << advised.out;
    const auto at = advised.out.find("flags: ");
    ASSERT_NE(at, std::string::npos) << advised.out;
    const auto flags = words(advised.out.substr(at + 7, advised.out.find('\n', at) - at - 7));
    EXPECT_NE(std::find(flags.begin(), flags.end(), "--freeze-layers"), flags.end()) << advised.out;
    // Applied as printed, the forecast says it fits.
    auto applied = estimate;
    applied.insert(applied.end(), flags.begin(), flags.end());
    const auto fits = runCli(applied, dir_.path());
    ASSERT_EQ(fits.code, 0) << fits.err;
    EXPECT_NE(fits.out.find("fits ("), std::string::npos) << fits.out;
}

// The largest-batch search gives the same answer: where no micro-batch fits, it says what does
// (it said "not even a micro-batch of 1 fits" while the form's advice said nothing fits).
TEST_F(CliAdvice, TheLargestBatchSearchAndTheAdviceGiveOneAnswer) {
    const auto estimate = wideModelEstimate(dir_.path());
    auto largest = estimate;
    largest.push_back("--largest-batch");
    const auto found = runCli(largest, dir_.path());
    ASSERT_EQ(found.code, 0) << found.err;
    const auto advised = runCli(estimate, dir_.path());
    ASSERT_EQ(advised.code, 0) << advised.err;
    auto flagsOf = [](const std::string& out) {
        const auto at = out.find("flags: ");
        return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
    };
    EXPECT_NE(found.out.find("to fit: "), std::string::npos) << found.out;
    EXPECT_FALSE(flagsOf(advised.out).empty()) << advised.out;
    EXPECT_EQ(flagsOf(found.out), flagsOf(advised.out)) << found.out << advised.out;
}

std::vector<std::string> regressionArgs(const std::string& db, const std::filesystem::path& dir,
                                        const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--db",
                                     db,
                                     "train",
                                     "--model",
                                     (dir / "model").string(),
                                     "--train",
                                     (dir / "targets.csv").string(),
                                     "--label-column",
                                     "words",
                                     "--task",
                                     "regression",
                                     "--batch-size",
                                     "8",
                                     "--max-length",
                                     "32",
                                     "--epochs",
                                     "1",
                                     "--evals-per-epoch",
                                     "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

void writeTargets(const std::filesystem::path& file) {
    std::ofstream out(file);
    out << "text,words\n";
    const char* const texts[] = {"the cat", "the cat sat", "the cat sat on the mat",
                                 "i was very good", "it was a film"};
    for (int i = 0; i < 60; ++i) {
        // Around 1000: far from the unit scale a fresh head starts at.
        out << '"' << texts[i % 5] << "\"," << 1000 + 10 * (i % 5) << "\n";
    }
}

TEST_F(CliAdvice, RegressionTargetsAreStandardisedByDefault) {
    writeTargets(dir_ / "targets.csv");
    const auto trained = runCli(regressionArgs(db_, dir_.path(), {}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    EXPECT_EQ((trained.out + trained.err).find("is not standardised"), std::string::npos)
        << trained.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    const auto run = store.run(1);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->config["job"]["data"]["standardize_targets"], true);
    const auto evaluations = store.evaluations(1);
    ASSERT_FALSE(evaluations.empty());
    const auto& scaling = evaluations.back().task["scaling"];
    EXPECT_NEAR(scaling["mean"].get<double>(), 1020.0, 20.0) << scaling;
    EXPECT_GT(scaling["scale"].get<double>(), 1.0) << scaling;
}

TEST_F(CliAdvice, UnstandardisedTargetsFarFromUnitScaleAreHinted) {
    writeTargets(dir_ / "targets.csv");
    for (const auto& off :
         {std::string("--no-standardize-targets"), std::string("--standardize-targets=false")}) {
        const auto db = (dir_ / (off.substr(2, 5) + ".sqlite")).string();
        const auto trained = runCli(regressionArgs(db, dir_.path(), {off}), dir_.path());
        ASSERT_EQ(trained.code, 0) << off << ": " << trained.err;
        const auto said = trained.out + trained.err;
        EXPECT_NE(said.find("warning: the target \"words\" has mean 10"), std::string::npos)
            << off << ": " << said;
        EXPECT_NE(said.find("is not standardised"), std::string::npos) << said;
        RunStore store(db, RunStore::Access::ReadOnly);
        EXPECT_EQ(store.run(1)->config["job"]["data"]["standardize_targets"], false) << off;
    }
}

// DeBERTa's attention scores overflow fp16 and its training diverges (microsoft/DeBERTa issue
// 77): a DeBERTa run asked for fp16 is warned before it trains, and the warning is kept with the
// run; a BERT run in fp16 is not.
TEST_F(CliAdvice, Fp16ForDebertaIsWarnedAndTheWarningKept) {
    auto bundle = makeFamilyModel("deberta-v2", 2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "deberta", *bundle.model, *bundle.tokenizer);
    const std::string caution = "fp16 is known to make DeBERTa-v2 training diverge";
    for (const bool deberta : {false, true}) {
        const auto db = (dir_ / (deberta ? "deberta.sqlite" : "bert.sqlite")).string();
        auto args = trainArgs({"--precision", "fp16", "--max-steps", "1", "--no-checkpoints"});
        args[1] = db;
        args[4] = (dir_ / (deberta ? "deberta" : "model")).string();
        const auto trained = runCli(args, dir_.path());
        const auto said = trained.out + trained.err;
        EXPECT_EQ(said.find(caution) != std::string::npos, deberta) << said;
        if (deberta) {
            EXPECT_NE(said.find("choose bf16, or fp32"), std::string::npos) << said;
            RunStore store(db, RunStore::Access::ReadOnly);
            ASSERT_TRUE(store.run(1)) << said;
            bool kept = false;
            for (const auto& event : store.events(1)) {
                kept = kept || event.message.find(caution) != std::string::npos;
            }
            EXPECT_TRUE(kept) << "the warning is kept with the run";
        }
    }
}

// DeBERTa's default precision is bf16 where bf16 is native (this machine's CPU may or may not
// have AVX512-BF16 or AMX: the expectation follows what it has): a run that names no precision
// takes it and says so; --precision, or a --config file's precision, keeps the user's choice; a
// BERT run stays in fp32.
TEST_F(CliAdvice, ADebertaRunThatNamesNoPrecisionTakesBf16WhereBf16IsNative) {
    auto bundle = makeFamilyModel("deberta-v2", 2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "deberta", *bundle.model, *bundle.tokenizer);
    const bool native = deviceTraits("cpu").nativeBf16;
    const auto config = dir_ / "fp32.json";
    writeFile(config, R"({"precision": "fp32"})");
    struct Case {
        std::string model;
        std::vector<std::string> flags;
        std::string precision;
    };
    const std::vector<Case> cases{
        {"deberta", {}, native ? "bf16" : "fp32"},
        {"deberta", {"--precision", "fp32"}, "fp32"},
        {"deberta", {"--config", config.string()}, "fp32"},
        {"model", {}, "fp32"},
    };
    int run = 0;
    for (const auto& c : cases) {
        auto flags = c.flags;
        for (const auto* word : {"--max-steps", "1", "--no-checkpoints"}) {
            flags.emplace_back(word);
        }
        auto args = trainArgs(flags);
        args[4] = (dir_ / c.model).string();
        const auto trained = runCli(args, dir_.path());
        ASSERT_EQ(trained.code, 0) << trained.err;
        RunStore store(db_, RunStore::Access::ReadOnly);
        const auto stored = store.run(++run);
        ASSERT_TRUE(stored) << trained.err;
        const auto what = c.model + (c.flags.empty() ? "" : " " + c.flags.front());
        EXPECT_EQ(stored->config["job"]["training"]["precision"], c.precision) << what;
        const bool said = trained.err.find(
                              "precision: bf16 (bf16 is DeBERTa-v2's default on a "
                              "device with native bf16") != std::string::npos;
        EXPECT_EQ(said, c.precision == "bf16") << what << ": " << trained.err;
    }
}

}  // namespace
}  // namespace bert::test
