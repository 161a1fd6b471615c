#include "task/TaskMetricsJson.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace bert {

namespace {

using Json = nlohmann::json;

double numberOr(const Json& json, const char* key, double fallback = 0.0) {
    if (!json.is_object()) {
        return fallback;
    }
    const auto it = json.find(key);
    return it != json.end() && it->is_number() ? it->get<double>() : fallback;
}

std::int64_t countOr(const Json& json, const char* key) {
    if (!json.is_object()) {
        return 0;
    }
    const auto it = json.find(key);
    return it != json.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

Json optionalJson(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? Json(*value) : Json(nullptr);
}

std::optional<double> optionalOf(const Json& json, const char* key) {
    if (!json.is_object()) {
        return std::nullopt;
    }
    const auto it = json.find(key);
    if (it == json.end() || !it->is_number()) {
        return std::nullopt;
    }
    return it->get<double>();
}

// Non-negative integer counts, each as size_t; nullopt if any is not.
std::optional<std::vector<std::size_t>> countsOf(const Json& json) {
    if (!json.is_array()) {
        return std::nullopt;
    }
    std::vector<std::size_t> counts;
    for (const auto& count : json) {
        if (!count.is_number_integer() || count.get<std::int64_t>() < 0) {
            return std::nullopt;
        }
        counts.push_back(static_cast<std::size_t>(count.get<std::int64_t>()));
    }
    return counts;
}

}  // namespace

Json toJson(const MultiLabelReport& report) {
    Json labels = Json::array();
    for (const auto& row : report.perLabel) {
        labels.push_back({{"precision", row.precision},
                          {"recall", row.recall},
                          {"f1", row.f1},
                          {"support", row.support},
                          {"predicted", row.predicted},
                          {"true_positives", row.truePositives}});
    }
    return {{"threshold", report.threshold},
            {"examples", report.examples},
            {"micro_precision", report.microPrecision},
            {"micro_recall", report.microRecall},
            {"micro_f1", report.microF1},
            {"macro_f1", report.macroF1},
            {"subset_accuracy", report.subsetAccuracy},
            {"hamming_loss", report.hammingLoss},
            {"per_label", std::move(labels)}};
}

MultiLabelReport multiLabelReportFromJson(const Json& json) {
    MultiLabelReport report;
    report.threshold = numberOr(json, "threshold", kDefaultMultiLabelThreshold);
    report.examples =
        static_cast<std::size_t>(std::max<std::int64_t>(0, countOr(json, "examples")));
    report.microPrecision = numberOr(json, "micro_precision");
    report.microRecall = numberOr(json, "micro_recall");
    report.microF1 = numberOr(json, "micro_f1");
    report.macroF1 = numberOr(json, "macro_f1");
    report.subsetAccuracy = numberOr(json, "subset_accuracy");
    report.hammingLoss = numberOr(json, "hamming_loss");
    if (json.is_object() && json.contains("per_label") && json["per_label"].is_array()) {
        for (const auto& row : json["per_label"]) {
            LabelScores scores;
            scores.precision = numberOr(row, "precision");
            scores.recall = numberOr(row, "recall");
            scores.f1 = numberOr(row, "f1");
            scores.support = countOr(row, "support");
            scores.predicted = countOr(row, "predicted");
            scores.truePositives = countOr(row, "true_positives");
            report.perLabel.push_back(scores);
        }
    }
    return report;
}

Json toJson(const std::vector<ThresholdPoint>& curve) {
    Json points = Json::array();
    for (const auto& point : curve) {
        points.push_back({{"threshold", point.threshold},
                          {"micro_precision", point.microPrecision},
                          {"micro_recall", point.microRecall},
                          {"micro_f1", point.microF1},
                          {"macro_f1", point.macroF1}});
    }
    return points;
}

std::vector<ThresholdPoint> thresholdCurveFromJson(const Json& json) {
    std::vector<ThresholdPoint> curve;
    if (!json.is_array()) {
        return curve;
    }
    for (const auto& point : json) {
        ThresholdPoint read;
        read.threshold = numberOr(point, "threshold");
        read.microPrecision = numberOr(point, "micro_precision");
        read.microRecall = numberOr(point, "micro_recall");
        read.microF1 = numberOr(point, "micro_f1");
        read.macroF1 = numberOr(point, "macro_f1");
        curve.push_back(read);
    }
    return curve;
}

Json toJson(const RegressionReport& report) {
    return {{"examples", report.examples},
            {"rmse", report.rmse},
            {"mae", report.mae},
            {"pearson", optionalJson(report.pearson)},
            {"spearman", optionalJson(report.spearman)},
            {"r2", optionalJson(report.r2)}};
}

RegressionReport regressionReportFromJson(const Json& json) {
    RegressionReport report;
    report.examples =
        static_cast<std::size_t>(std::max<std::int64_t>(0, countOr(json, "examples")));
    report.rmse = numberOr(json, "rmse");
    report.mae = numberOr(json, "mae");
    report.pearson = optionalOf(json, "pearson");
    report.spearman = optionalOf(json, "spearman");
    report.r2 = optionalOf(json, "r2");
    return report;
}

Json toJson(const EntityReport& report) {
    Json perType = Json::array();
    for (const auto& [type, row] : report.perType) {
        perType.push_back({{"type", type},
                           {"precision", row.precision},
                           {"recall", row.recall},
                           {"f1", row.f1},
                           {"support", row.support},
                           {"predicted", row.predicted},
                           {"true_positives", row.truePositives}});
    }
    return {{"figures",
             {{"entity_f1", report.micro.f1},
              {"entity_precision", report.micro.precision},
              {"entity_recall", report.micro.recall},
              {"macro_f1", report.macroF1},
              {"token_accuracy", report.tokenAccuracy}}},
            {"per_type", std::move(perType)},
            {"entity_confusion", toJson(report.confusion)}};
}

Json toJson(const EntityConfusion& confusion) {
    return {{"types", confusion.types},
            {"counts", confusion.counts},
            {"missed", confusion.missed},
            {"spurious", confusion.spurious}};
}

std::optional<EntityConfusion> entityConfusionFromJson(const Json& json) {
    if (!json.is_object() || !json.contains("types") || !json["types"].is_array()) {
        return std::nullopt;
    }
    EntityConfusion confusion;
    for (const auto& type : json["types"]) {
        if (!type.is_string()) {
            return std::nullopt;
        }
        confusion.types.push_back(type.get<std::string>());
    }
    const auto n = confusion.types.size();
    auto missed = countsOf(json.value("missed", Json()));
    auto spurious = countsOf(json.value("spurious", Json()));
    const auto rows = json.value("counts", Json());
    if (!missed || !spurious || missed->size() != n || spurious->size() != n || !rows.is_array() ||
        rows.size() != n) {
        return std::nullopt;
    }
    for (const auto& row : rows) {
        auto counts = countsOf(row);
        if (!counts || counts->size() != n) {
            return std::nullopt;
        }
        confusion.counts.push_back(std::move(*counts));
    }
    confusion.missed = std::move(*missed);
    confusion.spurious = std::move(*spurious);
    return confusion;
}

}  // namespace bert
