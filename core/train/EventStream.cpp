#include "train/EventStream.h"

#include <cerrno>
#include <limits>
#include <unistd.h>

#include "train/Metrics.h"

namespace bert {

namespace {

using Json = nlohmann::json;

constexpr int kCompact = -1;  // one line per event
// Label names and messages come from users' files: a byte that is not UTF-8 must not fail the run.
constexpr auto kReplaceInvalidUtf8 = Json::error_handler_t::replace;

Json memoryJson(const MemorySample& sample) {
    return {{"current", sample.current},
            {"peak", sample.peak},
            {"reserved", sample.reserved},
            {"reserved_peak", sample.reservedPeak}};
}

MemorySample memoryOf(const Json& json) {
    MemorySample sample;
    sample.current = json.value("current", std::int64_t{0});
    sample.peak = json.value("peak", std::int64_t{0});
    sample.reserved = json.value("reserved", std::int64_t{0});
    sample.reservedPeak = json.value("reserved_peak", std::int64_t{0});
    return sample;
}

Json breakdownJson(const MemoryBreakdown& breakdown) {
    auto json = breakdown.toJson();
    json["peak_gradients"] = breakdown.peakGradients;  // -1 (none) must survive the trip
    return json;
}

MemoryBreakdown breakdownOf(const Json& json) {
    MemoryBreakdown breakdown;
    breakdown.weights = json.value("weights", std::int64_t{0});
    breakdown.gradients = json.value("gradients", std::int64_t{0});
    breakdown.optimizerState = json.value("optimizer_state", std::int64_t{0});
    breakdown.activations = json.value("activations", std::int64_t{0});
    breakdown.peakGradients = json.value("peak_gradients", std::int64_t{-1});
    breakdown.allocatorOverhead = json.value("allocator_overhead", std::int64_t{0});
    breakdown.outsideAllocator = json.value("outside_allocator", std::int64_t{0});
    return breakdown;
}

// JSON has no NaN or infinity: nlohmann writes them as null, and a diverged run's loss is one.
double numberOf(const Json& json, const char* key) {
    const auto it = json.find(key);
    return it != json.end() && it->is_number() ? it->get<double>()
                                               : std::numeric_limits<double>::quiet_NaN();
}

EvalMetrics evaluationOf(const Json& json) {
    EvalMetrics metrics;
    metrics.step = json.value("step", std::size_t{0});
    metrics.epoch = json.value("epoch", 0.0);
    metrics.loss = numberOf(json, "loss");
    metrics.accuracy = json.value("accuracy", 0.0);
    metrics.macroF1 = json.value("macro_f1", 0.0);
    metrics.confusion = confusionFromJson(json.value("confusion", nlohmann::json::array()));
    metrics.task = json.value("task", nlohmann::json());
    metrics.calibration = json.value("calibration", nlohmann::json());
    return metrics;
}

}  // namespace

void JsonLinesObserver::write(const std::string& line) {
    if (readerGone_) {
        return;
    }
    std::string text = line + "\n";
    std::size_t written = 0;
    while (written < text.size()) {
        const auto n = ::write(fd_, text.data() + written, text.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            readerGone_ = true;  // EPIPE or a closed descriptor: nobody listens any more
            return;
        }
        written += static_cast<std::size_t>(n);
    }
}

void JsonLinesObserver::runCreated(std::int64_t runId) {
    write(Json{{"event", "run_created"}, {"run_id", runId}}.dump(kCompact));
}

void JsonLinesObserver::onStarted(const RunStart& start) {
    write(Json{{"event", "started"},
               {"device", start.device},
               {"train_examples", start.trainExamples},
               {"validation_examples", start.validationExamples},
               {"total_steps", start.totalSteps},
               {"labels", start.labels},
               {"forecast", breakdownJson(start.forecast)},
               {"trial_peak_bytes", start.trialPeakBytes},
               {"trial_seconds", start.trialSeconds},
               {"resumed_from_step", start.resumedFromStep},
               {"memory_cap_bytes", start.memoryCapBytes}}
              .dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

void JsonLinesObserver::onStep(const StepMetrics& m) {
    Json ranks = Json::array();
    for (const auto& sample : m.rankMemory) {
        ranks.push_back(memoryJson(sample));
    }
    write(Json{{"event", "step"},
               {"step", m.step},
               {"epoch", m.epoch},
               {"loss", m.loss},
               {"learning_rate", m.learningRate},
               {"memory", memoryJson(m.memory)},
               {"examples", m.examples},
               {"samples_per_second", m.samplesPerSecond},
               {"tokens_per_second", m.tokensPerSecond},
               {"padding_share", m.paddingShare},
               {"real_tokens", m.realTokens},
               {"padded_tokens", m.paddedTokens},
               {"loss_scale", m.lossScale},
               {"grad_norm", m.gradNorm},
               {"micro_batch", m.microBatch},
               {"accumulation", m.accumulation},
               {"skipped", m.skipped},
               {"rank_memory", ranks}}
              .dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

void JsonLinesObserver::onEvaluation(const EvalMetrics& metrics) {
    auto json = toJson(metrics);
    json["event"] = "evaluation";
    write(json.dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

void JsonLinesObserver::onEvaluationProgress(std::size_t done, std::size_t batches) {
    write(Json{{"event", "evaluation_progress"}, {"done", done}, {"batches", batches}}.dump(
        kCompact));
}

void JsonLinesObserver::onEpochEnd(const EpochSummary& summary) {
    write(Json{{"event", "epoch_end"},
               {"epoch", summary.epoch},
               {"real_tokens", summary.realTokens},
               {"padded_tokens", summary.paddedTokens},
               {"seconds", summary.seconds}}
              .dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

void JsonLinesObserver::onEvent(const TrainerEvent& event) {
    write(Json{{"event", "message"},
               {"kind", toString(event.kind)},
               {"step", event.step},
               {"message", event.message},
               {"data", event.data}}
              .dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

void JsonLinesObserver::onFinished(const RunResult& result) {
    write(Json{{"event", "finished"},
               {"status", toString(result.status)},
               {"error", result.error},
               {"store_failure", result.storeFailure},
               {"steps", result.steps},
               {"final_eval", toJson(result.finalEval)},
               {"best_eval", toJson(result.bestEval)},
               {"peak_memory_bytes", result.peakMemoryBytes},
               {"measured", breakdownJson(result.measured)},
               {"last_checkpoint", result.lastCheckpoint.string()},
               {"best_checkpoint", result.bestCheckpoint.string()},
               {"seconds", result.seconds}}
              .dump(kCompact, ' ', false, kReplaceInvalidUtf8));
}

bool EventLineReader::feed(std::string_view line) {
    const auto json = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!json.is_object() || !json.contains("event") || !json["event"].is_string()) {
        return false;
    }
    try {
        const auto event = json["event"].get<std::string>();
        if (event == "run_created") {
            runId_ = json.at("run_id").get<std::int64_t>();
        } else if (event == "started") {
            RunStart start;
            start.device = json.value("device", std::string());
            start.trainExamples = json.value("train_examples", std::size_t{0});
            start.validationExamples = json.value("validation_examples", std::size_t{0});
            start.totalSteps = json.value("total_steps", std::size_t{0});
            start.labels = json.value("labels", std::vector<std::string>{});
            start.forecast = breakdownOf(json.value("forecast", Json::object()));
            start.trialPeakBytes = json.value("trial_peak_bytes", std::int64_t{0});
            start.trialSeconds = json.value("trial_seconds", 0.0);
            start.resumedFromStep = json.value("resumed_from_step", std::size_t{0});
            start.memoryCapBytes = json.value("memory_cap_bytes", std::int64_t{0});
            observer_.onStarted(start);
        } else if (event == "step") {
            StepMetrics m;
            m.step = json.value("step", std::size_t{0});
            m.epoch = json.value("epoch", 0.0);
            m.loss = numberOf(json, "loss");
            m.learningRate = json.value("learning_rate", 0.0);
            m.memory = memoryOf(json.value("memory", Json::object()));
            m.examples = json.value("examples", std::size_t{0});
            m.samplesPerSecond = json.value("samples_per_second", 0.0);
            m.tokensPerSecond = json.value("tokens_per_second", 0.0);
            m.paddingShare = json.value("padding_share", 0.0);
            m.realTokens = json.value("real_tokens", std::int64_t{0});
            m.paddedTokens = json.value("padded_tokens", std::int64_t{0});
            m.lossScale = json.value("loss_scale", 0.0);
            m.gradNorm = numberOf(json, "grad_norm");
            m.microBatch = json.value("micro_batch", std::size_t{0});
            m.accumulation = json.value("accumulation", std::size_t{0});
            m.skipped = json.value("skipped", false);
            for (const auto& sample : json.value("rank_memory", Json::array())) {
                m.rankMemory.push_back(memoryOf(sample));
            }
            observer_.onStep(m);
        } else if (event == "evaluation") {
            observer_.onEvaluation(evaluationOf(json));
        } else if (event == "evaluation_progress") {
            observer_.onEvaluationProgress(json.value("done", std::size_t{0}),
                                           json.value("batches", std::size_t{0}));
        } else if (event == "epoch_end") {
            EpochSummary summary;
            summary.epoch = json.value("epoch", std::size_t{0});
            summary.realTokens = json.value("real_tokens", std::int64_t{0});
            summary.paddedTokens = json.value("padded_tokens", std::int64_t{0});
            summary.seconds = json.value("seconds", 0.0);
            observer_.onEpochEnd(summary);
        } else if (event == "message") {
            TrainerEvent message;
            message.kind = eventKindFromString(json.value("kind", std::string("info")));
            message.step = json.value("step", std::size_t{0});
            message.message = json.value("message", std::string());
            message.data = json.value("data", Json::object());
            observer_.onEvent(message);
        } else if (event == "finished") {
            RunResult result;
            result.status = runStatusFromString(json.value("status", std::string("failed")));
            result.error = json.value("error", std::string());
            result.storeFailure = json.value("store_failure", false);
            result.steps = json.value("steps", std::size_t{0});
            result.finalEval = evaluationOf(json.value("final_eval", Json::object()));
            result.bestEval = evaluationOf(json.value("best_eval", Json::object()));
            result.peakMemoryBytes = json.value("peak_memory_bytes", std::int64_t{0});
            result.measured = breakdownOf(json.value("measured", Json::object()));
            result.lastCheckpoint = json.value("last_checkpoint", std::string());
            result.bestCheckpoint = json.value("best_checkpoint", std::string());
            result.seconds = json.value("seconds", 0.0);
            result_ = result;
            observer_.onFinished(result);
        }
        // Other events: a newer writer's; skipped.
    } catch (const nlohmann::json::exception&) {
        return false;  // a field of the wrong type: not a line this reader understands
    }
    return true;
}

}  // namespace bert
