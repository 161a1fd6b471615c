#pragma once

// Temperature scaling (Guo et al., "On Calibration of Modern Neural Networks", ICML 2017): one
// number T by which every logit is divided before the softmax, fitted on the validation set by
// minimising the negative log-likelihood of the true labels with L-BFGS, as the paper's
// reference implementation does (gpleiss/temperature_scaling). Dividing by T changes no
// prediction (the largest logit stays the largest), only how sure each one is: T > 1 softens an
// overconfident model. The figures it is judged by are task/Calibration.h's.

#include <optional>
#include <string>

#include <ATen/core/Tensor.h>

#include "task/Calibration.h"

namespace bert {

struct TemperatureFit {
    /// None where no temperature minimises the loss (problem says why): a set predicted
    /// without a single error with growing confidence has its infimum at T -> 0, a model no
    /// better than chance at T -> infinity.
    std::optional<double> temperature;
    double nllBefore = 0.0;  ///< mean negative log-likelihood at T = 1
    double nllAfter = 0.0;   ///< at the temperature (nllBefore without one)
    std::string problem;
};

/// The temperature of logits [N, classes] (any float type, any device) against labels [N]
/// (class indices). L-BFGS from the reference's start (1.5) with a strong-Wolfe line search
/// (the reference's fixed step of 0.01 for 50 iterations can stop short of the minimum), in
/// double precision on the CPU, until the loss's derivative vanishes.
TemperatureFit fitTemperature(const at::Tensor& logits, const at::Tensor& labels);

/// The whole report of an evaluation: ECE and bins at T = 1, the fitted temperature, and the
/// figures at it.
CalibrationReport calibrationReport(const at::Tensor& logits, const at::Tensor& labels);

}  // namespace bert
