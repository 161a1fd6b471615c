#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "task/multilabel/MultiLabelMetrics.h"
#include "task/regression/RegressionMetrics.h"
#include "task/token/EntityMetrics.h"

namespace bert {

/// The multi-label and regression reports and the entity-type confusion as JSON, for the run
/// store, the event stream and `predict`'s outputs: snake_case keys as the single-label metrics
/// (core/train/EventStream.cpp), an undefined figure as null (never NaN, which JSON cannot hold).
/// Reading is lenient as it is for single-label metrics: a missing or malformed figure reads as
/// 0 (or undefined), so a run stored by another version still opens.
nlohmann::json toJson(const MultiLabelReport& report);
MultiLabelReport multiLabelReportFromJson(const nlohmann::json& json);

/// [{"threshold": t, "micro_precision": ..., "micro_recall": ..., "micro_f1": ..., "macro_f1":
/// ...}, ...]: the threshold curve the Model quality tab plots.
nlohmann::json toJson(const std::vector<ThresholdPoint>& curve);
std::vector<ThresholdPoint> thresholdCurveFromJson(const nlohmann::json& json);

nlohmann::json toJson(const RegressionReport& report);
RegressionReport regressionReportFromJson(const nlohmann::json& json);

/// A token-classification evaluation's report but its task and headline: {"figures":
/// {"entity_f1", "entity_precision", "entity_recall", "macro_f1", "token_accuracy"},
/// "per_type": [{"type", "precision", "recall", "f1", "support", "predicted",
/// "true_positives"}, ...] (sorted by type), "entity_confusion": {...} (below)}.
nlohmann::json toJson(const EntityReport& report);

/// {"types": [...], "counts": [[...], ...], "missed": [...], "spurious": [...]}: the entity-type
/// confusion of a token-classification evaluation, stored in its task report as
/// "entity_confusion". Reading it is all or nothing: nullopt unless every count is a
/// non-negative integer and the sizes agree (types x types counts, a missed and a spurious
/// count per type), so that a run stored before it existed, or a damaged one, shows no table
/// rather than a wrong one.
nlohmann::json toJson(const EntityConfusion& confusion);
std::optional<EntityConfusion> entityConfusionFromJson(const nlohmann::json& json);

}  // namespace bert
