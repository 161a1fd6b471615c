#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "task/multilabel/MultiLabelMetrics.h"
#include "task/regression/RegressionMetrics.h"

namespace bert {

/// The multi-label and regression reports as JSON, for the run store, the event stream and
/// `predict`'s outputs: snake_case keys as the single-label metrics (core/train/EventStream.cpp),
/// an undefined figure as null (never NaN, which JSON cannot hold). Reading is lenient as it is
/// for single-label metrics: a missing or malformed figure reads as 0 (or undefined), so a run
/// stored by another version still opens.
nlohmann::json toJson(const MultiLabelReport& report);
MultiLabelReport multiLabelReportFromJson(const nlohmann::json& json);

/// [{"threshold": t, "micro_precision": ..., "micro_recall": ..., "micro_f1": ..., "macro_f1":
/// ...}, ...]: the threshold curve the Model quality tab plots.
nlohmann::json toJson(const std::vector<ThresholdPoint>& curve);
std::vector<ThresholdPoint> thresholdCurveFromJson(const nlohmann::json& json);

nlohmann::json toJson(const RegressionReport& report);
RegressionReport regressionReportFromJson(const nlohmann::json& json);

}  // namespace bert
