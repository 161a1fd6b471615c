// The command line as a user drives it: train, runs, compare, export, predict, kill -9 and
// Ctrl-C in the middle of training, resume, and bad input with exit code 2.
#include <algorithm>
#include <fstream>
#include <set>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "../core/TinyModel.h"
#include "cli/CliSupport.h"
#include "data/Batch.h"
#include "export/OnnxExport.h"
#include "memory/MemoryMonitor.h"
#include "onnx/OnnxRuntime.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

using test::Outcome;

pid_t start(const std::vector<std::string>& args, const std::filesystem::path& dir,
            const std::filesystem::path& workingDirectory = {},
            const std::filesystem::path& input = {}) {
    test::StartOptions options;
    options.workingDirectory = workingDirectory;
    options.input = input;
    return test::startCli(args, dir, options);
}

Outcome finish(pid_t pid, const std::filesystem::path& dir) {
    return test::finishCli(pid, dir);
}

Outcome runCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const std::filesystem::path& workingDirectory = {},
               const std::filesystem::path& input = {}) {
    return finish(start(args, dir, workingDirectory, input), dir);
}

using Cli = test::CliFixture;

TEST_F(Cli, TrainListCompareExportAndPredict) {
    const auto first =
        runCli(trainArgs({"--epochs", "8", "--lr", "3e-3", "--name", "dynamic"}), dir_.path());
    ASSERT_EQ(first.code, 0) << first.err;
    EXPECT_NE(first.out.find("run 1 completed"), std::string::npos) << first.out;
    const auto second = runCli(trainArgs({"--epochs", "2", "--padding", "fixed", "--batch-size",
                                          "4", "--accumulation", "2", "--name", "fixed"}),
                               dir_.path());
    ASSERT_EQ(second.code, 0) << second.err;

    const auto list = runCli({"--db", db_, "runs", "list"}, dir_.path());
    ASSERT_EQ(list.code, 0);
    EXPECT_NE(list.out.find("dynamic"), std::string::npos);
    EXPECT_NE(list.out.find("fixed padding, accumulation x2"), std::string::npos) << list.out;

    const auto compare = runCli({"--db", db_, "runs", "compare", "1", "2"}, dir_.path());
    ASSERT_EQ(compare.code, 0) << compare.err;
    EXPECT_NE(compare.out.find("training.padding"), std::string::npos) << compare.out;
    EXPECT_NE(compare.out.find("training.accumulation_steps"), std::string::npos);
    EXPECT_EQ(compare.out.find("training.seed"), std::string::npos)
        << "equal settings are not differences";

    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    EXPECT_NE(show.out.find("padding share"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("checkpoint_saved"), std::string::npos);

    const auto exported = dir_ / "exported";
    const auto exportOutcome = runCli({"--db", db_, "export", "1", exported.string()}, dir_.path());
    ASSERT_EQ(exportOutcome.code, 0) << exportOutcome.err;
    for (const char* file :
         {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json",
          "special_tokens_map.json", "run_card.json", "README.md"}) {
        EXPECT_TRUE(std::filesystem::exists(exported / file)) << file;
    }
    EXPECT_FALSE(std::filesystem::exists(exported / "training_state.safetensors"));
    const auto card = nlohmann::json::parse(test::readFile(exported / "run_card.json"));
    EXPECT_EQ(card["labels"], nlohmann::json({"neg", "pos"}));

    {
        RunStore store(db_);
        EXPECT_GT(store.run(1)->bestAccuracy, 0.95)
            << "the task is learnable: the run did not learn it";
    }
    const auto predict =
        runCli({"--db", db_, "predict", "--run", "1", "--json", "i loved it, a great film !"},
               dir_.path());
    ASSERT_EQ(predict.code, 0) << predict.err;
    const auto answer = nlohmann::json::parse(predict.out);
    EXPECT_EQ(answer["label"], "pos") << predict.out;
    const auto fromFolder =
        runCli({"predict", "-m", exported.string(), "the film was very bad , awful"}, dir_.path());
    EXPECT_EQ(fromFolder.out.rfind("neg", 0), 0U) << fromFolder.out;
}

// Issue 15: a trained model leaves as ONNX that ONNX Runtime runs with the run's own logits.
TEST_F(Cli, ExportAsOnnxGivesWhatOnnxRuntimeRunsWithTheRunsLogits) {
    if (!onnxExportAvailable()) {
        GTEST_SKIP() << "this build has no ONNX export (libonnx-dev was not found)";
    }
    const auto trained = runCli(trainArgs({"--epochs", "2"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto wrong = runCli(
        {"--db", db_, "export", "1", (dir_ / "x").string(), "--format", "tflite"}, dir_.path());
    EXPECT_EQ(wrong.code, 2);
    EXPECT_NE(wrong.err.find("tflite"), std::string::npos) << wrong.err;
    EXPECT_FALSE(std::filesystem::exists(dir_ / "x"));

    const auto exported = dir_ / "onnx";
    const auto outcome =
        runCli({"--db", db_, "export", "1", exported.string(), "--format", "onnx"}, dir_.path());
    ASSERT_EQ(outcome.code, 0) << outcome.err;
    for (const char* file : {"model.onnx", "config.json", "vocab.txt", "tokenizer_config.json",
                             "special_tokens_map.json", "run_card.json", "README.md"}) {
        EXPECT_TRUE(std::filesystem::exists(exported / file)) << file;
    }
    EXPECT_FALSE(std::filesystem::exists(exported / "model.safetensors"))
        << "an ONNX export carries its weights in model.onnx";
    EXPECT_EQ(nlohmann::json::parse(test::readFile(exported / "run_card.json"))["format"], "onnx");
    // The README's example feeds the inputs the graph takes: a BERT graph takes token types.
    const auto readme = test::readFile(exported / "README.md");
    EXPECT_NE(readme.find("onnxruntime"), std::string::npos);
    EXPECT_NE(readme.find(R"(("input_ids", "attention_mask", "token_type_ids"))"),
              std::string::npos)
        << readme;
    // The label map: config.json's id2label, as transformers writes it.
    EXPECT_EQ(nlohmann::json::parse(test::readFile(exported / "config.json"))["id2label"]["1"],
              "pos");

    if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
        GTEST_SKIP() << reason;
    }
    std::filesystem::path checkpoint;
    {
        RunStore store(db_, RunStore::Access::ReadOnly);
        checkpoint = modelCheckpointOfRun(store, 1);
    }
    auto bundle = loadModelFolder(checkpoint);
    const auto first = bundle.tokenizer->encode("i loved it , a great film !", 32);
    const auto second = bundle.tokenizer->encode("bad", 32);
    const auto inputs = collate({&first, &second}, bundle.tokenizer->padId(), {}, c10::kCPU);
    const auto theirs = test::onnxRuntimeLogits(exported / "model.onnx", inputs, dir_.path());
    ASSERT_TRUE(theirs.defined());
    bundle.model->eval();
    const torch::NoGradGuard noGrad;
    EXPECT_LE((theirs - bundle.model->forward(inputs)).abs().max().item<float>(), 1e-4F);
}

// Issue 10: a run database on a read-only mount (an archive, a read-only share) could not even
// be listed: SQLite cannot create the -shm file it reads a WAL database through. Needs a private
// mount namespace (root, or CAP_SYS_ADMIN) to mount a folder read-only; skips without one.
TEST_F(Cli, ARunDatabaseOnAReadOnlyMountIsListedUsedAndExportedButNotChanged) {
    ASSERT_EQ(runCli(trainArgs({"--epochs", "1"}), dir_.path()).code, 0);
    const auto mounted = dir_ / "mounted";
    const auto results = dir_ / "results";
    std::filesystem::create_directories(mounted);
    std::filesystem::create_directories(results);
    const auto bytesBefore = test::readFile(db_);
    // Each command's exit code and output land in results/, outside the read-only mount.
    std::string script = "set -u; mount --bind '" + dir_.path().string() + "' '" +
                         mounted.string() + "' && mount -o remount,ro,bind '" + mounted.string() +
                         "' || exit 97\n";
    const std::string cli = BERT_STUDIO_CLI;
    const std::string db = (mounted / "runs.sqlite").string();
    const std::vector<std::pair<std::string, std::string>> commands = {
        {"list", "runs list"},
        {"show", "runs show 1"},
        {"compare", "runs compare 1 1"},
        {"predict", "predict --run 1 'i loved it , a great film !'"},
        {"export", "export 1 '" + (results / "exported").string() + "'"},
        {"delete", "runs delete 1 --yes"},
    };
    for (const auto& [name, command] : commands) {
        const auto out = (results / name).string();
        script += "'" + cli + "' --db '" + db + "' " + command + " >'" + out + ".out' 2>'" + out +
                  ".err'; echo $? >'" + out + ".code'\n";
    }
    test::writeFile(dir_ / "readonly.sh", script);
    const int status = std::system(
        ("unshare -m sh '" + (dir_ / "readonly.sh").string() + "' 2>/dev/null").c_str());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        GTEST_SKIP() << "cannot mount a folder read-only here (needs a private mount namespace: "
                        "root or CAP_SYS_ADMIN)";
    }
    auto outcome = [&](const std::string& name) {
        return std::make_pair(
            std::stoi(test::readFile(results / (name + ".code"))),
            test::readFile(results / (name + ".out")) + test::readFile(results / (name + ".err")));
    };
    for (const char* name : {"list", "show", "compare", "predict", "export"}) {
        const auto [code, output] = outcome(name);
        EXPECT_EQ(code, 0) << name << ": " << output;
    }
    EXPECT_NE(outcome("list").second.find("completed"), std::string::npos);
    EXPECT_EQ(outcome("predict").second.rfind("pos", 0), 0U) << outcome("predict").second;
    EXPECT_TRUE(std::filesystem::exists(results / "exported" / "model.safetensors"));
    const auto [deleteCode, deleteOutput] = outcome("delete");
    EXPECT_EQ(deleteCode, 4);
    EXPECT_NE(deleteOutput.find("read-only file system"), std::string::npos) << deleteOutput;
    EXPECT_EQ(test::readFile(db_), bytesBefore) << "the database changed";
    EXPECT_FALSE(std::filesystem::exists(db_ + "-wal"));
}

TEST_F(Cli, MetricsSurviveKillDashNineAndTheRunResumes) {
    const pid_t pid = start(trainArgs({"--epochs", "60"}), dir_.path());
    const auto seen = waitForSteps(20);
    ASSERT_GT(seen, 0U) << "training never reached 20 recorded steps";
    kill(pid, SIGKILL);
    const auto killed = finish(pid, dir_.path());
    EXPECT_EQ(killed.code, 128 + SIGKILL);
    {
        RunStore store(db_);
        const auto run = store.run(1);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->status, RunStatus::Interrupted);
        EXPECT_GE(store.steps(1).size(), seen) << "steps written before the kill were lost";
        EXPECT_EQ(store.events(1).back().kind, EventKind::Interrupted);
    }
    const auto resumed = runCli({"--db", db_, "resume", "1"}, dir_.path());
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    RunStore store(db_);
    EXPECT_EQ(store.run(1)->status, RunStatus::Completed);
    const auto steps = store.steps(1);
    // 64 training examples: 8 steps an epoch; no step is missing around the kill.
    EXPECT_EQ(steps.size(), 60U * 8U);
    EXPECT_EQ(steps.back().step, 60U * 8U);
}

TEST_F(Cli, CtrlCCancelsWithACheckpointAndResumeCompletes) {
    const pid_t pid = start(trainArgs({"--epochs", "40"}), dir_.path());
    ASSERT_GT(waitForSteps(10), 0U);
    kill(pid, SIGINT);
    const auto cancelled = finish(pid, dir_.path());
    EXPECT_EQ(cancelled.code, 130) << cancelled.err;
    EXPECT_NE(cancelled.err.find("resume 1"), std::string::npos) << cancelled.err;
    {
        RunStore store(db_);
        EXPECT_EQ(store.run(1)->status, RunStatus::Cancelled);
        bool cancelCheckpoint = false;
        for (const auto& checkpoint : store.checkpoints(1)) {
            cancelCheckpoint = cancelCheckpoint || checkpoint.kind == CheckpointKind::Cancel;
        }
        EXPECT_TRUE(cancelCheckpoint);
    }
    const auto resumed = runCli({"--db", db_, "resume", "1"}, dir_.path());
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    RunStore store(db_);
    EXPECT_EQ(store.steps(1).back().step, 40U * 8U);
}

TEST_F(Cli, BadInputExitsWithCodeTwoAndNamesTheFile) {
    const auto missing =
        runCli({"--db", db_, "train", "--model", (dir_ / "model").string(), "--train",
                (dir_ / "reviews.csv").string(), "--text-column", "body"},
               dir_.path());
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find(
                  "reviews.csv: has no text column \"body\"; the columns found are \"review\", "
                  "\"sentiment\""),
              std::string::npos)
        << missing.err;

    test::writeFile(dir_ / "broken.csv", "text,label\n\"never closed,pos\nmore,neg\n");
    const auto broken = runCli(trainArgs({"--train", (dir_ / "broken.csv").string(),
                                          "--text-column", "text", "--label-column", "label"}),
                               dir_.path());
    EXPECT_EQ(broken.code, 2);
    EXPECT_NE(broken.err.find("broken.csv: line 2: a quoted field starts here and is never closed"),
              std::string::npos)
        << broken.err;

    test::writeFile(dir_ / "one.csv", "review,sentiment\ngood,pos\ngreat,pos\n");
    const auto single = runCli(trainArgs({"--train", (dir_ / "one.csv").string()}), dir_.path());
    EXPECT_EQ(single.code, 2);
    EXPECT_NE(single.err.find("single class"), std::string::npos) << single.err;

    const auto notModel = runCli({"inspect", dir_.path().string()}, dir_.path());
    EXPECT_EQ(notModel.code, 2);
    EXPECT_NE(notModel.err.find("config.json: is missing"), std::string::npos) << notModel.err;
    // Nothing was stored for runs that never started.
    RunStore store(db_);
    EXPECT_TRUE(store.runs().empty());
}

TEST_F(Cli, EstimateSaysWhatWouldMakeItFit) {
    const auto fits = runCli(trainArgs({}), dir_.path());
    (void)fits;
    std::vector<std::string> args = trainArgs({"--memory-cap", "2MiB", "--padding", "fixed"});
    args[2] = "estimate";
    const auto tight = runCli(args, dir_.path());
    ASSERT_EQ(tight.code, 0) << tight.err;
    EXPECT_NE(tight.out.find("activations"), std::string::npos);
    EXPECT_NE(tight.out.find("will not fit"), std::string::npos) << tight.out;
    // Issue 27, point 5: evaluation's peak counts too.
    EXPECT_NE(tight.out.find("evaluation peak"), std::string::npos) << tight.out;
    args = trainArgs({"--memory-cap", "1GiB", "--trial"});
    args[2] = "estimate";
    const auto roomy = runCli(args, dir_.path());
    EXPECT_NE(roomy.out.find("fits ("), std::string::npos) << roomy.out;
    EXPECT_NE(roomy.out.find("trial step peak"), std::string::npos) << roomy.out;
}

// Issue 12, point 4: `runs show` judges the run by its own best metric: the confusion matrix
// and per-class report of the best evaluation, and the early stop in the events.
TEST_F(Cli, RunsShowJudgesTheRunByItsBestMetric) {
    const auto trained =
        runCli(trainArgs({"--epochs", "2", "--best-metric", "loss", "--class-weighting", "balanced",
                          "--early-stopping", "50"}),
               dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto show = runCli({"--db", db_, "runs", "show", "1"}, dir_.path());
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("Best by loss: step "), std::string::npos) << show.out;
    // Issue 12, point 9: auto names tell runs apart (model, dataset, techniques, number).
    const auto again = runCli(trainArgs({"--max-steps", "2", "--padding", "fixed"}), dir_.path());
    ASSERT_EQ(again.code, 0) << again.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    const auto first = store.run(1)->name;
    const auto second = store.run(2)->name;
    EXPECT_NE(first, second);
    EXPECT_NE(first.find(" on reviews.csv, "), std::string::npos) << first;
    EXPECT_NE(first.find("#1"), std::string::npos) << first;
    EXPECT_NE(second.find("fixed padding"), std::string::npos) << second;
    EXPECT_NE(second.find("#2"), std::string::npos) << second;
    EXPECT_NE(show.out.find("precision"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("support"), std::string::npos) << show.out;
}

// Issue 12, point 1: "largest batch that fits" finds the biggest micro-batch a cap allows,
// confirmed by a trial step, and keeps the effective batch the user chose.
TEST_F(Cli, EstimateFindsTheLargestBatchThatFitsAndKeepsTheEffectiveBatch) {
    std::vector<std::size_t> found;
    for (const char* cap : {"1GiB", "12MiB", "9MiB", "7MiB"}) {
        auto args = trainArgs(
            {"--accumulation", "4", "--padding", "fixed", "--memory-cap", cap, "--largest-batch"});
        args[2] = "estimate";
        const auto outcome = runCli(args, dir_.path());
        ASSERT_EQ(outcome.code, 0) << outcome.err;
        std::size_t micro = 0;
        std::size_t accumulation = 0;
        const auto at = outcome.out.find("largest micro-batch that fits: ");
        if (at == std::string::npos) {
            EXPECT_NE(outcome.out.find("not even a micro-batch of 1 fits"), std::string::npos)
                << outcome.out;
            continue;
        }
        ASSERT_EQ(std::sscanf(outcome.out.c_str() + at,
                              "largest micro-batch that fits: %zu x accumulation %zu", &micro,
                              &accumulation),
                  2)
            << outcome.out;
        EXPECT_EQ(micro * accumulation, 32u) << cap << ": " << outcome.out;
        EXPECT_NE(outcome.out.find("trial step"), std::string::npos) << outcome.out;
        if (!found.empty()) {
            EXPECT_LE(micro, found.back()) << "a smaller cap allowed a larger micro-batch";
        }
        found.push_back(micro);
    }
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front(), 32u) << "1 GiB holds the whole effective batch";
    EXPECT_LT(found.back(), 32u) << "the caps must make it shrink";
}

// Benchmarks and users' scripts read `train --report`: one entry per step with its end time and
// size, and the process's resident memory from the moment training began.
TEST_F(Cli, TrainReportHasEveryStepAndTheProcessMemory) {
    const auto report = dir_ / "report.json";
    const auto outcome =
        runCli(trainArgs({"--max-steps", "5", "--batch-size", "4", "--report", report.string()}),
               dir_.path());
    ASSERT_EQ(outcome.code, 0) << outcome.err;
    std::ifstream in(report);
    ASSERT_TRUE(in) << "no report written";
    const auto json = nlohmann::json::parse(in);
    EXPECT_EQ(json["status"], "completed");
    ASSERT_EQ(json["steps"].size(), 5U);
    double previous = 0.0;
    for (const auto& step : json["steps"]) {
        EXPECT_EQ(step["examples"], 4);
        EXPECT_GT(step["end_seconds"].get<double>(), previous);
        previous = step["end_seconds"].get<double>();
        EXPECT_GE(step["padded_tokens"].get<std::int64_t>(),
                  step["real_tokens"].get<std::int64_t>());
    }
    EXPECT_EQ(json["steps"].back()["step"], 5);
    // After a step its gradients are freed and the weights and AdamW moments stay: the tensor
    // memory counted then is at least both (it once left out the weights, which were loaded
    // before the CPU accounting was installed, so every peak was short by the model's size).
    const auto resident = json["measured"]["weights"].get<std::int64_t>() +
                          json["measured"]["optimizer_state"].get<std::int64_t>();
    EXPECT_GE(json["steps"].back()["current_tensor_bytes"].get<std::int64_t>(), resident);
    EXPECT_GE(json["peak_tensor_bytes"].get<std::int64_t>(), resident);
    // The reserved peak is the allocator's own (max_memory_reserved), not what it held at the
    // moments steps were logged, which missed each step's highest point (on the CPU the
    // allocator returns memory at once, so its reserved peak is the tensor peak).
    std::int64_t stepPeaks = 0;
    for (const auto& step : json["steps"]) {
        stepPeaks = std::max(stepPeaks, step["peak_tensor_bytes"].get<std::int64_t>());
    }
    EXPECT_GE(json["peak_reserved_bytes"].get<std::int64_t>(), stepPeaks);
    EXPECT_GT(json["forecast_bytes"].get<std::int64_t>(), 0);
    // Four evaluations per epoch: the ones inside the epoch up to max-steps, then the final one
    // at step 5, never twice.
    ASSERT_GE(json["evaluations"].size(), 1U);
    std::set<std::int64_t> evaluatedSteps;
    for (const auto& eval : json["evaluations"]) {
        EXPECT_TRUE(evaluatedSteps.insert(eval["step"].get<std::int64_t>()).second)
            << json["evaluations"].dump();
    }
    EXPECT_EQ(json["evaluations"].back()["step"], 5) << json["evaluations"].dump();
    const auto start = json["resident_at_start_bytes"].get<std::int64_t>();
    const auto peak = json["peak_resident_training_bytes"].get<std::int64_t>();
    EXPECT_GT(start, 0);
    EXPECT_GE(peak, start);
    EXPECT_GE(json["peak_resident_process_bytes"].get<std::int64_t>(), peak);
    // Issue 14, point 8: the time to the first step, from the command's start, in its parts:
    // preparation (model, data, tokens, the run's record), the trial step, the step itself.
    const auto first = json["first_step_seconds"].get<double>();
    const auto preparation = json["preparation_seconds"].get<double>();
    const auto trial = json["trial_seconds"].get<double>();
    EXPECT_GT(preparation, 0.0);
    EXPECT_GT(trial, 0.0);
    EXPECT_GT(json["trial_peak_bytes"].get<std::int64_t>(), 0);
    EXPECT_NEAR(first, preparation + trial + json["steps"][0]["end_seconds"].get<double>(), 0.05);
    std::printf("time to the first step: %.2f s (preparation %.2f, trial step %.2f)\n", first,
                preparation, trial);

    // Without the trial step, training starts at once: no trial, no trial peak.
    const auto quick = dir_ / "quick.json";
    ASSERT_EQ(runCli(trainArgs({"--max-steps", "1", "--batch-size", "4", "--no-trial-step",
                                "--report", quick.string()}),
                     dir_.path())
                  .code,
              0);
    std::ifstream quickIn(quick);
    const auto quickJson = nlohmann::json::parse(quickIn);
    EXPECT_EQ(quickJson["trial_seconds"].get<double>(), 0.0);
    EXPECT_EQ(quickJson["trial_peak_bytes"].get<std::int64_t>(), 0);
}

// Issue 11: the Trainer's checks ran after the run was created, so `train --device cuda:0` on a
// machine without CUDA left a row "running" that later showed as "killed or crashed".
TEST_F(Cli, ARunThatCannotStartLeavesNoRunAndUsageErrorsExitWithTwo) {
    auto expectRefused = [&](const std::vector<std::string>& extra, const std::string& fragment) {
        const auto outcome = runCli(trainArgs(extra), dir_.path());
        EXPECT_EQ(outcome.code, 2) << outcome.err;
        EXPECT_NE(outcome.err.find(fragment), std::string::npos) << outcome.err;
    };
    if (cudaDeviceCount() == 0) {
        expectRefused({"--device", "cuda:0"}, "device cuda:0 is not available");
    } else {
        std::printf("this machine has CUDA: the unavailable-device case is checked with cuda:%d\n",
                    cudaDeviceCount());
        expectRefused({"--device", "cuda:" + std::to_string(cudaDeviceCount())},
                      "is not available");
    }
    expectRefused({"--freeze-layers", "9"}, "cannot freeze 9 layers of a model with 2");
    expectRefused({"--batch-size", "-1"}, "--batch-size: \"-1\" is not a whole number");
    expectRefused({"--precision", "fp8"}, "one of fp32, bf16, fp16");
    expectRefused({"--no-such-flag"}, "no-such-flag");
    EXPECT_TRUE(!std::filesystem::exists(db_) ||
                RunStore(db_, RunStore::Access::ReadOnly).runs().empty())
        << "a run was recorded for a run that could not start";
    test::writeFile(dir_ / "job.json", R"({"data": {"train_file": 7}, "training": {}})");
    const auto job =
        runCli({"--db", db_, "train", "--config", (dir_ / "job.json").string()}, dir_.path());
    EXPECT_EQ(job.code, 2) << job.err;
    EXPECT_NE(job.err.find("job.json"), std::string::npos) << job.err;
    const auto folder =
        runCli({"--db", db_, "train", "--config", dir_.path().string()}, dir_.path());
    EXPECT_EQ(folder.code, 2) << folder.err;
    EXPECT_NE(folder.err.find("is a directory, not a regular file"), std::string::npos)
        << folder.err;
}

// `runs list --db FILE` failed with "The following arguments were not expected": --db was taken
// before the subcommand only. And a long name was cut without a sign that it was.
TEST_F(Cli, TheDatabaseCanBeNamedAfterTheSubcommandAndLongNamesEndInAnEllipsis) {
    const auto trained = runCli(trainArgs({"--max-steps", "1"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    // One step is "1 step" (it said "1 steps").
    EXPECT_NE(trained.out.find("completed after 1 step in"), std::string::npos) << trained.out;
    const std::string name = "MiniLM on reviews.csv with dynamic padding and bf16";
    const auto renamed = runCli({"runs", "rename", "1", name, "--db", db_}, dir_.path());
    ASSERT_EQ(renamed.code, 0) << renamed.err;
    const auto after = runCli({"runs", "list", "--db", db_}, dir_.path());
    ASSERT_EQ(after.code, 0) << after.err;
    const auto before = runCli({"--db", db_, "runs", "list"}, dir_.path());
    ASSERT_EQ(before.code, 0) << before.err;
    EXPECT_EQ(after.out, before.out);
    EXPECT_NE(after.out.find("MiniLM on reviews.csv with…"), std::string::npos) << after.out;
    EXPECT_EQ(after.out.find(name), std::string::npos) << after.out;
}

// Issue 11: errors of the run store are their own kind, with their own exit code.
TEST_F(Cli, AStoreThatCannotBeWrittenExitsWithFourAndNamesTheDatabase) {
    const auto trained = runCli(trainArgs({"--max-steps", "1"}), dir_.path());
    ASSERT_EQ(trained.code, 0) << trained.err;
    setenv("BERT_STUDIO_DB_BUSY_MS", "100", 1);
    {
        SQLite::Database locker(db_, SQLite::OPEN_READWRITE);
        locker.exec("BEGIN EXCLUSIVE");
        const auto renamed = runCli({"--db", db_, "runs", "rename", "1", "new name"}, dir_.path());
        EXPECT_EQ(renamed.code, 4) << renamed.err;
        EXPECT_NE(renamed.err.find(db_), std::string::npos) << renamed.err;
        EXPECT_NE(renamed.err.find("locked"), std::string::npos) << renamed.err;
        // Reading does not need the lock.
        const auto listed = runCli({"--db", db_, "runs", "list"}, dir_.path());
        EXPECT_EQ(listed.code, 0) << listed.err;
        locker.exec("ROLLBACK");
    }
    unsetenv("BERT_STUDIO_DB_BUSY_MS");
}

// Issue 10: identical commands with --seed 42 --threads 1 gave different losses from step 1 on:
// the dropout generator was not seeded from the run's seed.
TEST_F(Cli, TwoFreshRunsOfOneCommandAreTheSameRun) {
    auto lossesOf = [&](const std::string& database, const std::string& seed) {
        auto args = trainArgs({"--max-steps", "6", "--threads", "1", "--seed", seed});
        args[1] = database;
        const auto outcome = runCli(args, dir_.path());
        EXPECT_EQ(outcome.code, 0) << outcome.err;
        std::vector<double> losses;
        for (const auto& step : RunStore(database, RunStore::Access::ReadOnly).steps(1)) {
            losses.push_back(step.loss);
        }
        return losses;
    };
    const auto first = lossesOf((dir_ / "a.sqlite").string(), "42");
    const auto second = lossesOf((dir_ / "b.sqlite").string(), "42");
    ASSERT_EQ(first.size(), 6U);
    EXPECT_EQ(first, second) << "the model has dropout 0.1: the masks differed";
    EXPECT_NE(first, lossesOf((dir_ / "c.sqlite").string(), "43")) << "the seed changes nothing";
}

// Issue 10: user files that crash or hang: deeply nested JSON, a FIFO as data; and runs that do
// not exist or still train.
TEST_F(Cli, HostileFilesAndRunIdsExitWithTwoAndAMessage) {
    test::writeFile(dir_ / "deep.json",
                    "{\"training\": " + std::string(100000, '[') + std::string(100000, ']') + "}");
    const auto deep =
        runCli({"--db", db_, "train", "--config", (dir_ / "deep.json").string()}, dir_.path());
    EXPECT_EQ(deep.code, 2) << deep.err;
    EXPECT_NE(deep.err.find("deep.json: nests arrays and objects deeper than"), std::string::npos)
        << deep.err;
    ASSERT_EQ(::mkfifo((dir_ / "pipe.csv").c_str(), 0600), 0);
    const auto fifo = runCli(trainArgs({"--train", (dir_ / "pipe.csv").string()}), dir_.path());
    EXPECT_EQ(fifo.code, 2) << fifo.err;
    EXPECT_NE(fifo.err.find("pipe.csv: is a FIFO (named pipe), not a regular file"),
              std::string::npos)
        << fifo.err;
    ASSERT_EQ(runCli(trainArgs({"--max-steps", "1"}), dir_.path()).code, 0);
    const auto ghost = runCli({"--db", db_, "runs", "delete", "9", "--yes"}, dir_.path());
    EXPECT_EQ(ghost.code, 2) << ghost.err;
    EXPECT_NE(ghost.err.find("has no run 9"), std::string::npos) << ghost.err;
    EXPECT_EQ(runCli({"--db", db_, "runs", "rename", "9", "x"}, dir_.path()).code, 2);
}

// Issue 10: export into a non-empty folder overwrote files and left foreign ones (a stale
// tokenizer.json made transformers load the wrong vocabulary); export to "." overwrote the working
// directory's README, and aimed at the base model's folder, its weights.
TEST_F(Cli, ExportNeverDestroysWhatIsThere) {
    ASSERT_EQ(runCli(trainArgs({"--max-steps", "2"}), dir_.path()).code, 0);
    const auto target = dir_ / "exported";
    std::filesystem::create_directories(target);
    test::writeFile(target / "tokenizer.json", "stale");
    test::writeFile(target / "README.md", "mine");
    auto exportTo = [&](const std::vector<std::string>& extra,
                        const std::filesystem::path& cwd = {}) {
        std::vector<std::string> args = {"--db", db_, "export", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runCli(args, dir_.path(), cwd);
    };
    const auto refused = exportTo({target.string()});
    EXPECT_EQ(refused.code, 2) << refused.err;
    EXPECT_NE(refused.err.find("is not empty"), std::string::npos) << refused.err;
    EXPECT_EQ(test::readFile(target / "README.md"), "mine");
    const auto here = exportTo({"."}, target);
    EXPECT_EQ(here.code, 2) << here.err;
    EXPECT_EQ(test::readFile(target / "README.md"), "mine")
        << "export to . overwrote the working directory";
    const auto base = exportTo({(dir_ / "model").string(), "--force"});
    EXPECT_EQ(base.code, 2) << base.err;
    EXPECT_NE(base.err.find("base model"), std::string::npos) << base.err;
    EXPECT_TRUE(std::filesystem::exists(dir_ / "model" / "model.safetensors"));
    const auto own = exportTo({(dir_ / "runs" / "1").string(), "--force"});
    EXPECT_EQ(own.code, 2) << own.err;
    EXPECT_NE(own.err.find("own checkpoints"), std::string::npos) << own.err;

    // Issue 26: --force replaces only a folder an earlier export wrote, and never deletes other
    // files: here the stale tokenizer.json and the README are the user's.
    const auto foreign = exportTo({target.string(), "--force"});
    EXPECT_EQ(foreign.code, 2) << foreign.err;
    EXPECT_NE(foreign.err.find("no export wrote it"), std::string::npos) << foreign.err;
    EXPECT_EQ(test::readFile(target / "README.md"), "mine");
    EXPECT_EQ(test::readFile(target / "tokenizer.json"), "stale");
    const auto fresh = dir_ / "fresh";
    ASSERT_EQ(exportTo({fresh.string()}).code, 0);
    test::writeFile(fresh / "README.md", "edited by hand");  // the export's own file: replaced
    const auto forced = exportTo({fresh.string(), "--force"});
    ASSERT_EQ(forced.code, 0) << forced.err;
    EXPECT_NE(test::readFile(fresh / "README.md"), "edited by hand");
    EXPECT_TRUE(std::filesystem::exists(fresh / "model.safetensors"));
    for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
        EXPECT_EQ(entry.path().filename().string().find("exported."), std::string::npos)
            << "left behind: " << entry.path();
        EXPECT_EQ(entry.path().filename().string().find("fresh."), std::string::npos)
            << "left behind: " << entry.path();
    }
}

// Issue 10: a relative --db stored checkpoint paths relative to that day's working directory:
// `predict --run` and `export` from another directory said "no saved model".
TEST_F(Cli, ARelativeDatabaseWorksFromAnyDirectoryAndMovesWithItsRuns) {
    std::filesystem::create_directories(dir_ / "work" / "elsewhere");
    auto args = trainArgs({"--max-steps", "2"});
    args[1] = "runs.sqlite";
    const auto trained = runCli(args, dir_.path(), dir_ / "work");
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto database = (dir_ / "work" / "runs.sqlite").string();
    const auto predicted = runCli({"--db", database, "predict", "--run", "1", "a great film"},
                                  dir_.path(), dir_ / "work" / "elsewhere");
    EXPECT_EQ(predicted.code, 0) << predicted.err;
    // The database and its runs folder, moved together.
    std::filesystem::rename(dir_ / "work", dir_ / "moved");
    const auto exported = runCli(
        {"--db", (dir_ / "moved" / "runs.sqlite").string(), "export", "1", (dir_ / "out").string()},
        dir_.path());
    EXPECT_EQ(exported.code, 0) << exported.err;
    EXPECT_TRUE(std::filesystem::exists(dir_ / "out" / "model.safetensors"));
}

// Issue 12: predict used 512 tokens for a run trained at 128 (41/50 right instead of 45/50);
// it scores files and standard input too.
TEST_F(Cli, PredictUsesTheRunsLengthAndScoresFilesAndStandardInput) {
    ASSERT_EQ(
        runCli(trainArgs({"--epochs", "6", "--lr", "3e-3", "--max-length", "24"}), dir_.path())
            .code,
        0);
    const auto one =
        runCli({"--db", db_, "predict", "--run", "1", "--json", "a great film"}, dir_.path());
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(nlohmann::json::parse(one.out)["max_length"], 24) << one.out;

    const auto predictions = dir_ / "predictions.csv";
    const auto scored =
        runCli({"--db", db_, "predict", "--run", "1", "--file", (dir_ / "reviews.csv").string(),
                "--text-column", "review", "--label-column", "sentiment", "--output",
                predictions.string(), "--batch-size", "7", "--threads", "1"},
               dir_.path());
    ASSERT_EQ(scored.code, 0) << scored.err;
    EXPECT_NE(scored.out.find("scored 80 rows"), std::string::npos) << scored.out;
    const auto accuracyAt = scored.out.find("accuracy ");
    ASSERT_NE(accuracyAt, std::string::npos) << scored.out;
    EXPECT_GT(std::stod(scored.out.substr(accuracyAt + 9)), 0.9) << scored.out;
    const auto csv = test::readFile(predictions);
    EXPECT_EQ(csv.rfind("text,label,predicted,p_neg,p_pos\n", 0), 0U) << csv.substr(0, 80);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 81);

    test::writeFile(dir_ / "stdin.txt",
                    "i loved it, a great film !\nthe film was very bad , awful\n");
    const auto piped =
        runCli({"--db", db_, "predict", "--run", "1", "-"}, dir_.path(), {}, dir_ / "stdin.txt");
    ASSERT_EQ(piped.code, 0) << piped.err;
    EXPECT_EQ(piped.out.rfind("pos\t", 0), 0U) << piped.out;
    EXPECT_NE(piped.out.find("\nneg\t"), std::string::npos) << piped.out;
    EXPECT_EQ(runCli({"--db", db_, "predict", "--run", "1"}, dir_.path()).code, 2)
        << "nothing to classify";
}

// Issue 28, point 5: a model of the local Hugging Face cache is named by its repo id, in every
// command that takes a model, and the run records the snapshot folder (so resume finds it).
TEST_F(Cli, AModelOfTheHuggingFaceCacheIsNamedByItsRepoId) {
    const auto snapshot = dir_ / "hub" / "models--someone--tiny-roberta" / "snapshots" / "c0ffee";
    auto bundle = test::makeFamilyModel("roberta", 2, 32, 4, 0.0, 9);
    exportModelFolder(snapshot, *bundle.model, *bundle.tokenizer);
    std::filesystem::create_directories(dir_ / "hub" / "models--someone--tiny-roberta" / "refs");
    test::writeFile(dir_ / "hub" / "models--someone--tiny-roberta" / "refs" / "main", "c0ffee");
    ::setenv("HF_HUB_CACHE", (dir_ / "hub").c_str(), 1);
    const auto inspected = runCli({"inspect", "someone/tiny-roberta"}, dir_.path());
    auto args = trainArgs({"--max-steps", "2"});
    args[4] = "tiny-roberta";  // --model
    const auto trained = runCli(args, dir_.path());
    const auto unknown = runCli({"inspect", "someone/not-cached"}, dir_.path());
    ::unsetenv("HF_HUB_CACHE");
    ASSERT_EQ(inspected.code, 0) << inspected.err;
    EXPECT_NE(inspected.out.find("Family            RoBERTa (roberta)"), std::string::npos)
        << inspected.out;
    ASSERT_EQ(trained.code, 0) << trained.err;
    RunStore store(db_, RunStore::Access::ReadOnly);
    EXPECT_EQ(std::filesystem::path(store.run(1)->baseModel), snapshot);
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("cached: someone/tiny-roberta"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace bert
