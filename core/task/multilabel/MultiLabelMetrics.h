#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bert {

/// Multi-label predictions and truth of an evaluation, row-major: examples x labels. The
/// probabilities are the sigmoid of the logits; truth holds 0/1 (MultiLabelMap::multiHot rows
/// laid end to end).
struct MultiLabelScores {
    std::size_t labels = 0;
    std::span<const double> probabilities;
    std::span<const std::uint8_t> truth;

    /// Throws std::invalid_argument (a bug of the caller, not of the user's data) when the sizes
    /// do not agree: both a multiple of labels, of the same size, labels > 0.
    void check() const;
    std::size_t examples() const { return labels == 0 ? 0 : truth.size() / labels; }
};

/// The threshold a label is predicted at when none was tuned.
inline constexpr double kDefaultMultiLabelThreshold = 0.5;

/// One label's row of the report, as scikit-learn's precision_recall_fscore_support(average=None,
/// zero_division=0): a ratio whose denominator is 0 is 0.
struct LabelScores {
    double precision = 0.0;
    double recall = 0.0;
    double f1 = 0.0;             ///< 2·TP / (2·TP + FP + FN)
    std::int64_t support = 0;    ///< examples that have the label
    std::int64_t predicted = 0;  ///< examples predicted to have it
    std::int64_t truePositives = 0;
};

/// The metrics of a multi-label evaluation at one threshold. A label is predicted when its
/// probability is at least the threshold (>=, so a probability of exactly 0.5 counts as yes at
/// the default threshold, as transformers' examples write `probs >= 0.5`).
struct MultiLabelReport {
    double threshold = kDefaultMultiLabelThreshold;
    std::size_t examples = 0;
    /// Over every (example, label) decision pooled: sklearn's average="micro", zero_division=0.
    double microPrecision = 0.0;
    double microRecall = 0.0;
    double microF1 = 0.0;
    /// The plain mean of the labels' F1, every label counted, one never present and never
    /// predicted as 0: sklearn's f1_score(average="macro", zero_division=0).
    double macroF1 = 0.0;
    /// Share of examples whose predicted label set is exactly the true one (sklearn's
    /// accuracy_score on indicator rows).
    double subsetAccuracy = 0.0;
    /// Share of (example, label) decisions that are wrong (sklearn's hamming_loss).
    double hammingLoss = 0.0;
    std::vector<LabelScores> perLabel;
};

/// The decision for one example: 1 where its probability is at least threshold. The one rule
/// that evaluation, predict, export and Try it share, so a label shown in Try it is a label the
/// metrics counted. A NaN probability (a diverged model) is never a label.
std::vector<std::uint8_t> decideLabels(std::span<const double> probabilities, double threshold);

/// Every metric at threshold. An empty evaluation gives examples 0 and zeros.
MultiLabelReport multiLabelReportOf(const MultiLabelScores& scores,
                                    double threshold = kDefaultMultiLabelThreshold);

/// The pooled figures at one threshold: a point of the threshold curve the studio plots.
struct ThresholdPoint {
    double threshold = 0.0;
    double microPrecision = 0.0;
    double microRecall = 0.0;
    double microF1 = 0.0;
    double macroF1 = 0.0;
};

/// The candidate thresholds: 0.05, 0.10, ..., 0.95, each computed as k / 20.0 (so that the same
/// expression in Python gives the same doubles). A grid rather than every distinct probability:
/// a threshold tuned to the last digit of a validation set's probabilities is fitted to its
/// noise, and a step of 0.05 is what the studio plots.
std::vector<double> candidateThresholds();

/// The curve over candidateThresholds(), in increasing threshold.
std::vector<ThresholdPoint> thresholdCurve(const MultiLabelScores& scores);

/// The decision threshold tuned on validation (issue 29, point 2).
struct TunedThreshold {
    double threshold = kDefaultMultiLabelThreshold;
    double microF1 = 0.0;
    std::vector<ThresholdPoint> curve;
};

/// The candidate with the highest micro-F1. Ties go to the candidate nearest 0.5 (then the lower
/// of two equally near): when the validation set cannot tell thresholds apart, the default is the
/// least surprising choice, and a set with no positives at all keeps 0.5.
TunedThreshold tuneThreshold(const MultiLabelScores& scores);

}  // namespace bert
