#include "task/multilabel/MultiLabelMetrics.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace bert {

namespace {

/// numerator / denominator, 0 when the denominator is 0 (scikit-learn's zero_division=0).
double ratio(double numerator, double denominator) {
    return denominator == 0.0 ? 0.0 : numerator / denominator;
}

bool isPredicted(double probability, double threshold) {
    return probability >= threshold;
}

/// The counts of one threshold, per label and per example.
struct Counts {
    std::vector<LabelScores> perLabel;
    std::int64_t exactRows = 0;
    std::int64_t wrongDecisions = 0;
};

Counts countAt(const MultiLabelScores& scores, double threshold) {
    Counts counts;
    counts.perLabel.resize(scores.labels);
    const auto examples = scores.examples();
    for (std::size_t example = 0; example < examples; ++example) {
        bool exact = true;
        for (std::size_t label = 0; label < scores.labels; ++label) {
            const auto at = example * scores.labels + label;
            const bool predicted = isPredicted(scores.probabilities[at], threshold);
            const bool actual = scores.truth[at] != 0;
            auto& row = counts.perLabel[label];
            row.predicted += predicted ? 1 : 0;
            row.support += actual ? 1 : 0;
            row.truePositives += predicted && actual ? 1 : 0;
            if (predicted != actual) {
                exact = false;
                ++counts.wrongDecisions;
            }
        }
        counts.exactRows += exact ? 1 : 0;
    }
    return counts;
}

void fillLabelRatios(std::vector<LabelScores>& perLabel) {
    for (auto& row : perLabel) {
        const auto tp = static_cast<double>(row.truePositives);
        row.precision = ratio(tp, static_cast<double>(row.predicted));
        row.recall = ratio(tp, static_cast<double>(row.support));
        row.f1 = ratio(2.0 * tp, static_cast<double>(row.support + row.predicted));
    }
}

ThresholdPoint pointOf(const std::vector<LabelScores>& perLabel, double threshold) {
    ThresholdPoint point;
    point.threshold = threshold;
    std::int64_t tp = 0;
    std::int64_t predicted = 0;
    std::int64_t support = 0;
    double f1Sum = 0.0;
    for (const auto& row : perLabel) {
        tp += row.truePositives;
        predicted += row.predicted;
        support += row.support;
        f1Sum += row.f1;
    }
    point.microPrecision = ratio(static_cast<double>(tp), static_cast<double>(predicted));
    point.microRecall = ratio(static_cast<double>(tp), static_cast<double>(support));
    point.microF1 = ratio(2.0 * static_cast<double>(tp), static_cast<double>(support + predicted));
    point.macroF1 = ratio(f1Sum, static_cast<double>(perLabel.size()));
    return point;
}

}  // namespace

void MultiLabelScores::check() const {
    if (labels == 0 || truth.size() % labels != 0 || probabilities.size() != truth.size()) {
        throw std::invalid_argument("multi-label scores: " + std::to_string(probabilities.size()) +
                                    " probabilities and " + std::to_string(truth.size()) +
                                    " truth values for " + std::to_string(labels) + " labels");
    }
}

std::vector<std::uint8_t> decideLabels(std::span<const double> probabilities, double threshold) {
    std::vector<std::uint8_t> decided(probabilities.size());
    for (std::size_t i = 0; i < probabilities.size(); ++i) {
        decided[i] = isPredicted(probabilities[i], threshold) ? 1 : 0;
    }
    return decided;
}

MultiLabelReport multiLabelReportOf(const MultiLabelScores& scores, double threshold) {
    scores.check();
    auto counts = countAt(scores, threshold);
    fillLabelRatios(counts.perLabel);
    const auto point = pointOf(counts.perLabel, threshold);

    MultiLabelReport report;
    report.threshold = threshold;
    report.examples = scores.examples();
    report.microPrecision = point.microPrecision;
    report.microRecall = point.microRecall;
    report.microF1 = point.microF1;
    report.macroF1 = point.macroF1;
    if (report.examples > 0) {
        report.subsetAccuracy =
            static_cast<double>(counts.exactRows) / static_cast<double>(report.examples);
        report.hammingLoss = static_cast<double>(counts.wrongDecisions) /
                             static_cast<double>(report.examples * scores.labels);
    }
    report.perLabel = std::move(counts.perLabel);
    return report;
}

std::vector<double> candidateThresholds() {
    std::vector<double> thresholds;
    for (int k = 1; k <= 19; ++k) {
        thresholds.push_back(k / 20.0);
    }
    return thresholds;
}

std::vector<ThresholdPoint> thresholdCurve(const MultiLabelScores& scores) {
    scores.check();
    std::vector<ThresholdPoint> curve;
    for (const double threshold : candidateThresholds()) {
        auto counts = countAt(scores, threshold);
        fillLabelRatios(counts.perLabel);
        curve.push_back(pointOf(counts.perLabel, threshold));
    }
    return curve;
}

TunedThreshold tuneThreshold(const MultiLabelScores& scores) {
    TunedThreshold tuned;
    tuned.curve = thresholdCurve(scores);
    const ThresholdPoint* best = nullptr;
    for (const auto& point : tuned.curve) {
        // In twentieths, so that 0.45 and 0.55 are equally near 0.5 (as doubles they are not).
        const auto distance = [](const ThresholdPoint& p) {
            return std::abs(std::lround(p.threshold * 20.0) -
                            std::lround(kDefaultMultiLabelThreshold * 20.0));
        };
        // In increasing threshold, so on an equal distance the lower one is already kept.
        if (best == nullptr || point.microF1 > best->microF1 ||
            (point.microF1 == best->microF1 && distance(point) < distance(*best))) {
            best = &point;
        }
    }
    tuned.threshold = best->threshold;
    tuned.microF1 = best->microF1;
    return tuned;
}

}  // namespace bert
