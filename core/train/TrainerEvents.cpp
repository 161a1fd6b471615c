#include "train/TrainerEvents.h"

#include <array>
#include <cmath>
#include <utility>

#include "task/singlelabel/ConfusionMetrics.h"

namespace bert {

namespace {

// Each enum's stored names in one table: written to the run store and read back from it, so
// an entry is never renamed, only added.
template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, const char*>, N>;

constexpr NameTable<EventKind, 9> kEventKindNames{{
    {EventKind::OomRecovered, "oom_recovered"},
    {EventKind::EvalOomRecovered, "eval_oom_recovered"},
    {EventKind::StepSkipped, "step_skipped"},
    {EventKind::CheckpointSaved, "checkpoint_saved"},
    {EventKind::Cancelled, "cancelled"},
    {EventKind::Interrupted, "interrupted"},
    {EventKind::Error, "error"},
    {EventKind::Info, "info"},
    {EventKind::EarlyStopped, "early_stopped"},
}};

constexpr NameTable<CheckpointKind, 4> kCheckpointKindNames{{
    {CheckpointKind::Epoch, "epoch"},
    {CheckpointKind::Best, "best"},
    {CheckpointKind::Cancel, "cancel"},
    {CheckpointKind::Final, "final"},
}};

constexpr NameTable<RunStatus, 5> kRunStatusNames{{
    {RunStatus::Running, "running"},
    {RunStatus::Completed, "completed"},
    {RunStatus::Cancelled, "cancelled"},
    {RunStatus::Failed, "failed"},
    {RunStatus::Interrupted, "interrupted"},
}};

template <typename Enum, std::size_t N>
std::string nameOf(Enum value, const NameTable<Enum, N>& table) {
    for (const auto& [e, name] : table) {
        if (e == value) {
            return name;
        }
    }
    return table.front().second;
}

template <typename Enum, std::size_t N>
Enum valueOf(const std::string& text, const NameTable<Enum, N>& table, Enum fallback) {
    for (const auto& [e, name] : table) {
        if (text == name) {
            return e;
        }
    }
    return fallback;
}

}  // namespace

std::string toString(EventKind kind) {
    return nameOf(kind, kEventKindNames);
}
EventKind eventKindFromString(const std::string& text) {
    return valueOf(text, kEventKindNames, EventKind::Info);
}

std::string toString(CheckpointKind kind) {
    return nameOf(kind, kCheckpointKindNames);
}
CheckpointKind checkpointKindFromString(const std::string& text) {
    return valueOf(text, kCheckpointKindNames, CheckpointKind::Epoch);
}

std::string toString(RunStatus status) {
    return nameOf(status, kRunStatusNames);
}
RunStatus runStatusFromString(const std::string& text) {
    return valueOf(text, kRunStatusNames, RunStatus::Failed);
}

nlohmann::json MemoryBreakdown::toJson() const {
    return {{"weights", weights},
            {"gradients", gradients},
            {"optimizer_state", optimizerState},
            {"activations", activations},
            {"peak_gradients", peakGradients < 0 ? gradients : peakGradients},
            {"total", total()},
            {"allocator_overhead", allocatorOverhead},
            {"outside_allocator", outsideAllocator},
            {"process_total", processTotal()}};
}

nlohmann::json toJson(const EvalMetrics& metrics) {
    nlohmann::json json = {
        {"step", metrics.step},
        {"epoch", metrics.epoch},
        {"loss", std::isfinite(metrics.loss) ? nlohmann::json(metrics.loss) : nullptr},
        {"accuracy", metrics.accuracy},
        {"macro_f1", metrics.macroF1},
        {"confusion", confusionToJson(metrics.confusion)}};
    if (!metrics.task.is_null()) {
        json["task"] = metrics.task;
    }
    if (!metrics.calibration.is_null()) {
        json["calibration"] = metrics.calibration;
    }
    return json;
}

}  // namespace bert
