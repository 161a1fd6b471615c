#include <array>
#include <cmath>
#include <csignal>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "train/EventStream.h"

namespace bert {
namespace {

/// Keeps what it is told, in order.
struct Recorded final : TrainerObserver {
    std::vector<std::string> order;
    RunStart start;
    std::vector<StepMetrics> steps;
    std::vector<EvalMetrics> evaluations;
    std::vector<std::pair<std::size_t, std::size_t>> progress;
    std::vector<EpochSummary> epochs;
    std::vector<TrainerEvent> events;
    RunResult result;
    void onStarted(const RunStart& s) override {
        order.emplace_back("started");
        start = s;
    }
    void onStep(const StepMetrics& m) override {
        order.emplace_back("step");
        steps.push_back(m);
    }
    void onEvaluation(const EvalMetrics& m) override {
        order.emplace_back("evaluation");
        evaluations.push_back(m);
    }
    void onEvaluationProgress(std::size_t done, std::size_t batches) override {
        order.emplace_back("evaluation_progress");
        progress.emplace_back(done, batches);
    }
    void onEpochEnd(const EpochSummary& s) override {
        order.emplace_back("epoch_end");
        epochs.push_back(s);
    }
    void onEvent(const TrainerEvent& e) override {
        order.emplace_back("message");
        events.push_back(e);
    }
    void onFinished(const RunResult& r) override {
        order.emplace_back("finished");
        result = r;
    }
};

/// Everything written to a pipe's write end, once it is closed.
std::string drain(int fd) {
    std::string text;
    std::array<char, 4096> buffer{};
    for (ssize_t n = 0; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) {
        text.append(buffer.data(), static_cast<std::size_t>(n));
    }
    return text;
}

// The studio sees a data-parallel run through these lines only: every field of every callback
// must survive the trip through a pipe, a diverged loss (NaN) included, and in order.
TEST(EventStream, EveryCallbackCrossesAPipeWhole) {
    std::array<int, 2> fds{};
    ASSERT_EQ(::pipe(fds.data()), 0);
    JsonLinesObserver writer(fds[1]);
    writer.runCreated(42);
    RunStart start;
    start.device = "CPU";
    start.trainExamples = 90;
    start.validationExamples = 10;
    start.totalSteps = 12;
    start.labels = {"ham", "spam"};
    start.forecast.weights = 1000;
    start.forecast.activations = 300;
    start.trialPeakBytes = 1234;
    start.memoryCapBytes = 1 << 20;
    writer.onStarted(start);
    StepMetrics step;
    step.step = 3;
    step.epoch = 0.25;
    step.loss = std::nan("");
    step.learningRate = 2e-5;
    step.memory = {100, 200, 300};
    step.realTokens = 77;
    step.paddedTokens = 80;
    step.microBatch = 2;
    step.accumulation = 4;
    step.skipped = true;
    step.rankMemory = {{100, 200, 300}, {110, 210, 310}};
    writer.onStep(step);
    EvalMetrics evaluation;
    evaluation.step = 3;
    evaluation.accuracy = 0.75;
    evaluation.loss = 0.5;
    evaluation.confusion = {{3, 1}, {0, 4}};
    writer.onEvaluationProgress(2, 5);  // issue 27: evaluation shows its progress
    writer.onEvaluation(evaluation);
    writer.onEpochEnd({1, 70, 80, 1.5});
    writer.onEvent({EventKind::OomRecovered, 3, "out of memory at micro-batch 4", {{"to", 2}}});
    RunResult result;
    result.status = RunStatus::Cancelled;
    result.steps = 3;
    result.bestEval = evaluation;
    result.lastCheckpoint = "/runs/42/checkpoint-3";
    writer.onFinished(result);
    ::close(fds[1]);
    const std::string text = drain(fds[0]);
    ::close(fds[0]);

    Recorded seen;
    EventLineReader reader(seen);
    std::istringstream lines(text);
    int count = 0;
    for (std::string line; std::getline(lines, line); ++count) {
        EXPECT_TRUE(reader.feed(line)) << line;
    }
    EXPECT_EQ(count, 8);
    EXPECT_EQ(reader.runId(), 42);
    EXPECT_EQ(seen.order,
              (std::vector<std::string>{"started", "step", "evaluation_progress", "evaluation",
                                        "epoch_end", "message", "finished"}));
    EXPECT_EQ(seen.progress, (std::vector<std::pair<std::size_t, std::size_t>>{{2, 5}}));
    EXPECT_EQ(seen.start.labels, start.labels);
    EXPECT_EQ(seen.start.forecast.total(), start.forecast.total());
    EXPECT_EQ(seen.start.memoryCapBytes, start.memoryCapBytes);
    ASSERT_EQ(seen.steps.size(), 1U);
    EXPECT_TRUE(std::isnan(seen.steps[0].loss));
    EXPECT_EQ(seen.steps[0].memory.peak, 200);
    EXPECT_EQ(seen.steps[0].microBatch, 2U);
    EXPECT_EQ(seen.steps[0].accumulation, 4U);
    EXPECT_TRUE(seen.steps[0].skipped);
    ASSERT_EQ(seen.steps[0].rankMemory.size(), 2U);
    EXPECT_EQ(seen.steps[0].rankMemory[1].reserved, 310);
    EXPECT_EQ(seen.evaluations.at(0).confusion, evaluation.confusion);
    EXPECT_EQ(seen.epochs.at(0).paddedTokens, 80);
    EXPECT_EQ(seen.events.at(0).kind, EventKind::OomRecovered);
    EXPECT_EQ(seen.events.at(0).data["to"], 2);
    EXPECT_EQ(seen.result.status, RunStatus::Cancelled);
    EXPECT_EQ(seen.result.bestEval.accuracy, 0.75);
    EXPECT_EQ(seen.result.lastCheckpoint, "/runs/42/checkpoint-3");
    ASSERT_TRUE(reader.result().has_value());
}

// Label names come from the user's file: a byte that is not UTF-8 must not end the run (the
// JSON writer throws on it by default) but arrive replaced.
TEST(EventStream, ALabelThatIsNotUtf8StillCrosses) {
    std::array<int, 2> fds{};
    ASSERT_EQ(::pipe(fds.data()), 0);
    JsonLinesObserver writer(fds[1]);
    RunStart start;
    start.labels = {"ham",
                    "sp\xff"
                    "am"};
    EXPECT_NO_THROW(writer.onStarted(start));
    ::close(fds[1]);
    const std::string text = drain(fds[0]);
    ::close(fds[0]);
    Recorded seen;
    EventLineReader reader(seen);
    EXPECT_TRUE(reader.feed(text.substr(0, text.find('\n'))));
    ASSERT_EQ(seen.start.labels.size(), 2U);
    EXPECT_EQ(seen.start.labels[1],
              "sp\xEF\xBF\xBD"
              "am");
}

TEST(EventStream, LinesThatAreNotOursCallNothing) {
    Recorded seen;
    EventLineReader reader(seen);
    for (const char* line : {"", "not json", "[1,2]", "{\"no_event\":1}",
                             "{\"event\":\"step\",\"loss\":\"high\",\"step\":\"x\"}"}) {
        EXPECT_FALSE(reader.feed(line)) << line;
    }
    EXPECT_TRUE(reader.feed("{\"event\":\"from_a_newer_writer\"}"));
    EXPECT_TRUE(seen.order.empty());
}

// The studio may close its end (it quit) while a run goes on: writing must neither kill the
// process (SIGPIPE is ignored by the command line) nor throw.
TEST(EventStream, AReaderThatWentAwayDoesNotStopTheWriter) {
    const auto previous = std::signal(SIGPIPE, SIG_IGN);
    std::array<int, 2> fds{};
    ASSERT_EQ(::pipe(fds.data()), 0);
    ::close(fds[0]);
    JsonLinesObserver writer(fds[1]);
    StepMetrics step;
    for (int i = 0; i < 3; ++i) {
        EXPECT_NO_THROW(writer.onStep(step));
    }
    ::close(fds[1]);
    std::signal(SIGPIPE, previous);
}

}  // namespace
}  // namespace bert
