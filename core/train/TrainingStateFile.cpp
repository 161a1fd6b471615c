#include "train/TrainingStateFile.h"

#include <cmath>

#include "Error.h"
#include "io/Json.h"

namespace bert {

nlohmann::json trainingStateToJson(const TrainingState& state) {
    return {{"kind", toString(state.kind)},
            {"epoch", state.position.epoch},
            {"window", state.position.window},
            {"step", state.position.step},
            {"micro_batch", state.microBatch},
            {"eval_batch", state.evalBatch},
            {"best_score",
             state.bestScore ? nlohmann::json(*state.bestScore) : nlohmann::json(nullptr)},
            {"best_loss", std::isfinite(state.bestLoss) ? nlohmann::json(state.bestLoss)
                                                        : nlohmann::json(nullptr)},
            {"best_step", state.bestStep},
            {"evaluations_without_improvement", state.evaluationsWithoutImprovement},
            {"adam_steps", state.adamSteps},
            {"loss_scale", state.lossScale},
            {"growth_tracker", state.growthTracker},
            {"config", state.config},
            {"metric", state.metric}};
}

TrainingState parseTrainingState(std::string_view text, const std::filesystem::path& file) {
    std::string problem;
    const auto json = parseJson(text, problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    if (!json.is_object()) {
        throw InputError(file, "is not a JSON object");
    }
    TrainingState state;
    state.kind = checkpointKindFromString(jsonField<std::string>(json, "kind", "epoch", file));
    state.position.epoch = jsonField<std::size_t>(json, "epoch", 0, file);
    state.position.window = jsonField<std::size_t>(json, "window", 0, file);
    state.position.step = jsonField<std::size_t>(json, "step", 0, file);
    state.microBatch = jsonField<std::size_t>(json, "micro_batch", 0, file);
    state.evalBatch = jsonField<std::size_t>(json, "eval_batch", 0, file);
    if (json.contains("best_score") && !json["best_score"].is_null()) {
        state.bestScore = jsonField(json, "best_score", 0.0, file);
    } else if (const double accuracy = jsonField(json, "best_accuracy", -1.0, file);
               accuracy >= 0.0) {
        state.bestScore = accuracy;  // written before best_metric existed: accuracy
    }
    if (json.contains("best_loss") && !json["best_loss"].is_null()) {
        state.bestLoss = jsonField(json, "best_loss", 0.0, file);
    }
    state.bestStep = jsonField<std::size_t>(json, "best_step", 0, file);
    state.evaluationsWithoutImprovement =
        jsonField<std::size_t>(json, "evaluations_without_improvement", 0, file);
    state.lossScale = jsonField(json, "loss_scale", 0.0, file);
    state.growthTracker = jsonField<std::int64_t>(json, "growth_tracker", 0, file);
    state.metric = jsonField(json, "metric", 0.0, file);
    if (json.contains("config")) {
        state.config = json["config"];
    }
    if (json.contains("adam_steps")) {
        if (!json["adam_steps"].is_object()) {
            throw InputError(file, "field \"adam_steps\" must be an object of step counts");
        }
        state.adamSteps = json["adam_steps"];
    }
    return state;
}

}  // namespace bert
