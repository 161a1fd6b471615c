#include "task/TemperatureScaling.h"

#include <cmath>
#include <cstdio>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/optim/lbfgs.h>

namespace bert {

namespace {

// What counts as the loss's minimum: the derivative of the mean NLL in log T (T times its
// derivative in T, the same at any scale of T) below this.
constexpr double kGradientTolerance = 1e-6;
// L-BFGS runs (of up to 100 iterations each) before the fit is said not to converge: a run can
// stop on its change tolerance short of the gradient's.
constexpr int kFitRounds = 3;
// Below this T, the loss is still falling toward T -> 0: no interior minimum.
constexpr double kSmallestTemperature = 1e-3;
// The neighbour below the fitted temperature whose loss must not be lower (see the fit).
constexpr double kNeighbourRatio = 0.9;
// The reference's start.
constexpr double kStartTemperature = 1.5;

double meanNll(const at::Tensor& logits, const at::Tensor& labels, double temperature) {
    return at::cross_entropy_loss(logits / temperature, labels).item<double>();
}

CalibrationFigures figuresAt(const at::Tensor& logits, const at::Tensor& labels,
                             double temperature) {
    const auto probabilities = (logits / temperature).softmax(-1);
    const auto [confidence, predicted] = probabilities.max(-1);
    const auto right = predicted.eq(labels).contiguous();
    const auto conf = confidence.contiguous();
    std::vector<double> confidences(conf.data_ptr<double>(),
                                    conf.data_ptr<double>() + conf.numel());
    std::vector<bool> correct;
    correct.reserve(confidences.size());
    const auto* flags = right.data_ptr<bool>();
    for (std::int64_t i = 0; i < right.numel(); ++i) {
        correct.push_back(flags[i]);
    }
    return calibrationOf(confidences, correct);
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    return text;
}

}  // namespace

TemperatureFit fitTemperature(const at::Tensor& logitsIn, const at::Tensor& labelsIn) {
    const auto logits = logitsIn.to(at::kCPU, at::kDouble).contiguous();
    const auto labels = labelsIn.to(at::kCPU, at::kLong).contiguous();
    TemperatureFit fit;
    if (logits.size(0) == 0) {
        fit.problem = "no validation examples";
        return fit;
    }
    const torch::AutoGradMode enabled(true);  // evaluation runs without gradients
    fit.nllBefore = meanNll(logits, labels, 1.0);
    fit.nllAfter = fit.nllBefore;
    auto temperature = at::full({1}, kStartTemperature, at::kDouble).set_requires_grad(true);
    torch::optim::LBFGS optimizer({temperature}, torch::optim::LBFGSOptions(1.0)
                                                     .max_iter(100)
                                                     .tolerance_grad(1e-9)
                                                     .tolerance_change(1e-12)
                                                     .line_search_fn("strong_wolfe"));
    const auto loss = [&] {
        optimizer.zero_grad();
        auto nll = at::cross_entropy_loss(logits / temperature, labels);
        nll.backward();
        return nll;
    };
    // The derivative in log T at the current temperature.
    const auto scaleFreeGradient = [&] {
        loss();
        return temperature.item<double>() * temperature.grad().item<double>();
    };
    double gradient = 0.0;
    for (int round = 0; round < kFitRounds; ++round) {
        optimizer.step(loss);
        gradient = scaleFreeGradient();
        if (!std::isfinite(gradient) || std::abs(gradient) <= kGradientTolerance) {
            break;
        }
    }
    const double t = temperature.item<double>();
    // A minimum, not a slope that flattens out: a set predicted without an error, ever more
    // sure, has its loss falling all the way to T -> 0 (and its derivative vanishing on the way).
    const double atT = std::isfinite(t) ? meanNll(logits, labels, t) : 0.0;
    if (!std::isfinite(t) || t < kSmallestTemperature ||
        meanNll(logits, labels, t * kNeighbourRatio) < atT) {
        fit.problem =
            "no temperature minimises the validation loss (it falls as the temperature "
            "goes to 0: the set is predicted without error)";
        return fit;
    }
    // Nor one that flattens out as T grows: a model no better than chance is best at uniform
    // probabilities, T -> infinity.
    if (meanNll(logits, labels, t / kNeighbourRatio) < atT) {
        fit.problem =
            "no temperature minimises the validation loss (it falls as the temperature "
            "grows: the model's probabilities are no better than uniform ones)";
        return fit;
    }
    if (!(std::abs(gradient) <= kGradientTolerance)) {
        fit.problem = "the temperature did not converge (at " + number(t) +
                      " the loss still changes by " + number(gradient / t) + " per unit)";
        return fit;
    }
    fit.temperature = t;
    fit.nllAfter = atT;
    return fit;
}

CalibrationReport calibrationReport(const at::Tensor& logitsIn, const at::Tensor& labelsIn) {
    const auto logits = logitsIn.to(at::kCPU, at::kDouble).contiguous();
    const auto labels = labelsIn.to(at::kCPU, at::kLong).contiguous();
    CalibrationReport report;
    report.before = figuresAt(logits, labels, 1.0);
    const auto fit = fitTemperature(logits, labels);
    report.nllBefore = fit.nllBefore;
    report.temperature = fit.temperature;
    report.problem = fit.problem;
    if (fit.temperature) {
        report.after = figuresAt(logits, labels, *fit.temperature);
        report.nllAfter = fit.nllAfter;
    }
    return report;
}

}  // namespace bert
