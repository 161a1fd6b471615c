#pragma once

// Whether a classifier's probabilities mean what they say: of the predictions made with 80%
// confidence, are 80% right? Expected calibration error (ECE) and the reliability diagram's bins,
// as Guo et al. define them ("On Calibration of Modern Neural Networks", ICML 2017) and their
// reference implementation computes them (gpleiss/temperature_scaling, _ECELoss): 15 bins of
// equal width over the confidence, each (lower, upper], ECE the mean over the examples of
// |accuracy - confidence| of their bin. No LibTorch here: the studio's Model quality page and
// the run store read these. Fitting the temperature that calibrates a model is
// task/TemperatureScaling.h.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bert {

/// The reference's bin count.
inline constexpr std::size_t kCalibrationBins = 15;

/// What a confidence is a probability of. Top-label: the predicted class's (single-label, a
/// token's tag), right when that class is the true one. Binary: a label's (multi-label, every
/// label of every example pooled), "right" when the label is present: each bin's accuracy is
/// then the share of its labels present, as torchmetrics' binary calibration_error counts it.
enum class CalibrationForm { TopLabel, Binary };

/// One bin of a reliability diagram.
struct ReliabilityBin {
    double lower = 0.0;  ///< exclusive
    double upper = 0.0;  ///< inclusive
    std::int64_t count = 0;
    double confidence = 0.0;  ///< the mean confidence of its predictions (0 when empty)
    double accuracy = 0.0;    ///< the share of them that are right (0 when empty)
};

struct CalibrationFigures {
    double ece = 0.0;  ///< sum over bins of count / total x |accuracy - confidence|
    std::vector<ReliabilityBin> bins;
};

/// ECE and the bins of predictions made with confidence[i], right where correct[i]
/// (CalibrationForm). The first bin holds 0 too (a binary probability can be 0). No predictions:
/// ECE 0, every bin empty.
CalibrationFigures calibrationOf(const std::vector<double>& confidence,
                                 const std::vector<bool>& correct,
                                 std::size_t bins = kCalibrationBins);

/// What an evaluation stores of its calibration (EvalMetrics::calibration): the figures at
/// temperature 1 and, when a temperature was fitted, at that temperature.
struct CalibrationReport {
    CalibrationForm form = CalibrationForm::TopLabel;
    CalibrationFigures before;
    /// Mean negative log-likelihood of the true labels, where a temperature was fitted to it
    /// (single-label).
    std::optional<double> nllBefore;
    /// The fitted temperature; none where the fit did not converge (problem says why).
    std::optional<double> temperature;
    CalibrationFigures after;  ///< at the temperature (empty without one)
    double nllAfter = 0.0;
    std::string problem;

    /// {"form": "top-label", "bins": 15, "ece": ..., "nll": ..., "reliability": [...],
    ///  "temperature": 1.8 or null,
    ///  "calibrated_ece": ..., "calibrated_nll": ..., "calibrated_reliability": [...],
    ///  "problem": "..."}
    nlohmann::json toJson() const;
    /// Reads toJson's form back; nullopt for anything else (a run stored before calibration
    /// was measured).
    static std::optional<CalibrationReport> fromJson(const nlohmann::json& json);
};

}  // namespace bert
