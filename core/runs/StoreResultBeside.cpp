#include <cmath>
#include <filesystem>

#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "runs/StoreSql.h"
#include "train/Metrics.h"

// A finished run's result kept beside its checkpoints when the database refuses it (part of
// StoreSql.h).

namespace bert::store {

namespace {
constexpr const char* kResultBeside = "result.json";

EvalMetrics evalFromJson(const nlohmann::json& json) {
    EvalMetrics m;
    m.step = jsonField<std::size_t>(json, "step", 0, {});
    m.epoch = jsonField(json, "epoch", 0.0, {});
    m.loss = json.contains("loss") && json["loss"].is_number() ? json["loss"].get<double>()
                                                               : std::nan("");
    m.accuracy = jsonField(json, "accuracy", 0.0, {});
    m.macroF1 = jsonField(json, "macro_f1", 0.0, {});
    m.confusion = confusionFromJson(json.value("confusion", nlohmann::json::array()));
    m.task = json.value("task", nlohmann::json());
    m.calibration = json.value("calibration", nlohmann::json());
    return m;
}
}  // namespace

void saveResultBeside(const std::filesystem::path& runFolder, const RunResult& result) {
    const nlohmann::json json = {{"status", toString(result.status)},
                                 {"error", result.error},
                                 {"steps", result.steps},
                                 {"seconds", result.seconds},
                                 {"peak_memory_bytes", result.peakMemoryBytes},
                                 {"final", toJson(result.finalEval)},
                                 {"best", toJson(result.bestEval)},
                                 {"last_checkpoint", result.lastCheckpoint.string()},
                                 {"best_checkpoint", result.bestCheckpoint.string()}};
    try {
        std::filesystem::create_directories(runFolder);
        writeFileAtomically(runFolder / kResultBeside, json.dump(1) + "\n");
    } catch (const std::exception&) {
        // the disk refuses this too: the error the recorder reports is all that is left
    }
}

std::optional<RunResult> takeResultBeside(const std::filesystem::path& runFolder) {
    const auto file = runFolder / kResultBeside;
    if (!std::filesystem::is_regular_file(file)) {
        return std::nullopt;
    }
    try {
        std::string problem;
        const auto json = parseJson(readInputFile(file, input_limits::kSmallJson), problem);
        if (!problem.empty() || !json.is_object()) {
            return std::nullopt;
        }
        RunResult result;
        result.status = runStatusFromString(json.value("status", std::string("failed")));
        result.error = json.value("error", std::string());
        result.steps = jsonField<std::size_t>(json, "steps", 0, file);
        result.seconds = jsonField(json, "seconds", 0.0, file);
        result.peakMemoryBytes = jsonField<std::int64_t>(json, "peak_memory_bytes", 0, file);
        result.finalEval = evalFromJson(json.value("final", nlohmann::json::object()));
        result.bestEval = evalFromJson(json.value("best", nlohmann::json::object()));
        result.lastCheckpoint = json.value("last_checkpoint", std::string());
        result.bestCheckpoint = json.value("best_checkpoint", std::string());
        return result;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

void consumeResultBeside(const std::filesystem::path& runFolder) {
    std::error_code ignored;
    std::filesystem::remove(runFolder / kResultBeside, ignored);
}

}  // namespace bert::store
