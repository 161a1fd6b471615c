#include "task/Calibration.h"

#include <algorithm>
#include <cmath>

namespace bert {

CalibrationFigures calibrationOf(const std::vector<double>& confidence,
                                 const std::vector<bool>& correct, std::size_t bins) {
    CalibrationFigures figures;
    bins = std::max<std::size_t>(bins, 1);
    figures.bins.resize(bins);
    std::vector<double> confidenceSum(bins, 0.0);
    std::vector<double> rightSum(bins, 0.0);
    for (std::size_t b = 0; b < bins; ++b) {
        // As torch.linspace(0, 1, bins + 1) gives the reference's boundaries.
        figures.bins[b].lower = static_cast<double>(b) / static_cast<double>(bins);
        figures.bins[b].upper = static_cast<double>(b + 1) / static_cast<double>(bins);
    }
    for (std::size_t i = 0; i < confidence.size() && i < correct.size(); ++i) {
        for (std::size_t b = 0; b < bins; ++b) {
            const bool above =
                confidence[i] > figures.bins[b].lower || (b == 0 && confidence[i] >= 0.0);
            if (above && confidence[i] <= figures.bins[b].upper) {
                ++figures.bins[b].count;
                confidenceSum[b] += confidence[i];
                rightSum[b] += correct[i] ? 1.0 : 0.0;
                break;
            }
        }
    }
    const auto total = static_cast<double>(std::min(confidence.size(), correct.size()));
    for (std::size_t b = 0; b < bins; ++b) {
        auto& bin = figures.bins[b];
        if (bin.count == 0) {
            continue;
        }
        const auto count = static_cast<double>(bin.count);
        bin.confidence = confidenceSum[b] / count;
        bin.accuracy = rightSum[b] / count;
        figures.ece += count / total * std::abs(bin.accuracy - bin.confidence);
    }
    return figures;
}

namespace {

nlohmann::json binsJson(const CalibrationFigures& figures) {
    auto bins = nlohmann::json::array();
    for (const auto& bin : figures.bins) {
        bins.push_back({{"lower", bin.lower},
                        {"upper", bin.upper},
                        {"count", bin.count},
                        {"confidence", bin.confidence},
                        {"accuracy", bin.accuracy}});
    }
    return bins;
}

std::optional<CalibrationFigures> binsFromJson(const nlohmann::json& ece,
                                               const nlohmann::json& bins) {
    if (!ece.is_number() || !bins.is_array()) {
        return std::nullopt;
    }
    CalibrationFigures figures;
    figures.ece = ece.get<double>();
    for (const auto& bin : bins) {
        if (!bin.is_object()) {
            return std::nullopt;
        }
        figures.bins.push_back({.lower = bin.value("lower", 0.0),
                                .upper = bin.value("upper", 0.0),
                                .count = bin.value("count", std::int64_t{0}),
                                .confidence = bin.value("confidence", 0.0),
                                .accuracy = bin.value("accuracy", 0.0)});
    }
    return figures;
}

}  // namespace

nlohmann::json CalibrationReport::toJson() const {
    nlohmann::json json = {{"form", form == CalibrationForm::Binary ? "binary" : "top-label"},
                           {"bins", before.bins.size()},
                           {"ece", before.ece},
                           {"reliability", binsJson(before)},
                           {"temperature", nullptr}};
    if (nllBefore) {
        json["nll"] = *nllBefore;
    }
    if (temperature) {
        json["temperature"] = *temperature;
        json["calibrated_ece"] = after.ece;
        json["calibrated_nll"] = nllAfter;
        json["calibrated_reliability"] = binsJson(after);
    }
    if (!problem.empty()) {
        json["problem"] = problem;
    }
    return json;
}

std::optional<CalibrationReport> CalibrationReport::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) {
        return std::nullopt;
    }
    CalibrationReport report;
    const auto before = binsFromJson(json.value("ece", nlohmann::json()),
                                     json.value("reliability", nlohmann::json()));
    if (!before) {
        return std::nullopt;
    }
    report.before = *before;
    report.form = json.value("form", std::string()) == "binary" ? CalibrationForm::Binary
                                                                : CalibrationForm::TopLabel;
    if (const auto nll = json.find("nll"); nll != json.end() && nll->is_number()) {
        report.nllBefore = nll->get<double>();
    }
    report.problem = json.value("problem", std::string());
    if (const auto t = json.find("temperature"); t != json.end() && t->is_number()) {
        const auto after = binsFromJson(json.value("calibrated_ece", nlohmann::json()),
                                        json.value("calibrated_reliability", nlohmann::json()));
        if (!after) {
            return std::nullopt;
        }
        report.temperature = t->get<double>();
        report.after = *after;
        report.nllAfter = json.value("calibrated_nll", 0.0);
    }
    return report;
}

}  // namespace bert
