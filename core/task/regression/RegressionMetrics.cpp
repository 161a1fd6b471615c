#include "task/regression/RegressionMetrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace bert {

namespace {

double meanOf(std::span<const double> values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

bool isConstant(std::span<const double> values) {
    return std::all_of(values.begin(), values.end(),
                       [&](double value) { return value == values.front(); });
}

/// numpy.corrcoef of two rows (what scipy.stats.spearmanr applies to the ranks): the covariance
/// divided by each standard deviation, clipped to [-1, 1].
double corrcoefOf(std::span<const double> x, std::span<const double> y) {
    const double xMean = meanOf(x);
    const double yMean = meanOf(y);
    double xy = 0.0;
    double xx = 0.0;
    double yy = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double dx = x[i] - xMean;
        const double dy = y[i] - yMean;
        xy += dx * dy;
        xx += dx * dx;
        yy += dy * dy;
    }
    const double dof = static_cast<double>(x.size() - 1);
    return std::clamp(xy / dof / std::sqrt(xx / dof) / std::sqrt(yy / dof), -1.0, 1.0);
}

}  // namespace

std::vector<double> averageRanks(std::span<const double> values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t start = 0; start < order.size();) {
        auto end = start + 1;
        while (end < order.size() && values[order[end]] == values[order[start]]) {
            ++end;
        }
        // Positions start..end-1 hold ranks start+1..end; each gets their mean.
        const double rank = (static_cast<double>(start + 1) + static_cast<double>(end)) / 2.0;
        for (auto i = start; i < end; ++i) {
            ranks[order[i]] = rank;
        }
        start = end;
    }
    return ranks;
}

std::optional<double> pearsonOf(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size()) {
        throw std::invalid_argument("pearsonOf: sizes differ");
    }
    if (x.size() < 2 || isConstant(x) || isConstant(y)) {
        return std::nullopt;
    }
    const double xMean = meanOf(x);
    const double yMean = meanOf(y);
    std::vector<double> xm(x.size());
    std::vector<double> ym(y.size());
    double xMax = 0.0;
    double yMax = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        xm[i] = x[i] - xMean;
        ym[i] = y[i] - yMean;
        xMax = std::max(xMax, std::abs(xm[i]));
        yMax = std::max(yMax, std::abs(ym[i]));
    }
    // Norms taken of the deviations scaled by their largest, as scipy does, so that large
    // targets cannot overflow the sum of squares.
    const auto normOf = [](const std::vector<double>& deviations, double largest) {
        double squares = 0.0;
        for (const double deviation : deviations) {
            squares += (deviation / largest) * (deviation / largest);
        }
        return largest * std::sqrt(squares);
    };
    const double xNorm = normOf(xm, xMax);
    const double yNorm = normOf(ym, yMax);
    double r = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        r += (xm[i] / xNorm) * (ym[i] / yNorm);
    }
    r = std::clamp(r, -1.0, 1.0);
    // Two points are always exactly on a line: scipy returns exactly 1 or -1.
    return x.size() == 2 ? std::round(r) : r;
}

RegressionReport regressionReportOf(std::span<const double> predictions,
                                    std::span<const double> truth) {
    if (predictions.size() != truth.size()) {
        throw std::invalid_argument("regression metrics: " + std::to_string(predictions.size()) +
                                    " predictions for " + std::to_string(truth.size()) +
                                    " targets");
    }
    RegressionReport report;
    report.examples = truth.size();
    if (truth.empty()) {
        return report;
    }
    const auto n = static_cast<double>(truth.size());
    double squaredErrors = 0.0;
    double absoluteErrors = 0.0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        const double error = predictions[i] - truth[i];
        squaredErrors += error * error;
        absoluteErrors += std::abs(error);
    }
    report.rmse = std::sqrt(squaredErrors / n);
    report.mae = absoluteErrors / n;
    if (truth.size() < 2) {
        report.undefinedWhy = "fewer than 2 examples";
        return report;
    }
    if (isConstant(truth)) {
        report.undefinedWhy = "the target is constant";
    } else if (isConstant(predictions)) {
        report.undefinedWhy = "the predictions are constant";
    }
    report.pearson = pearsonOf(predictions, truth);
    if (!isConstant(predictions) && !isConstant(truth)) {
        const auto predictedRanks = averageRanks(predictions);
        const auto trueRanks = averageRanks(truth);
        report.spearman = corrcoefOf(predictedRanks, trueRanks);
    }
    const double trueMean = meanOf(truth);
    double totalSquares = 0.0;
    for (const double target : truth) {
        totalSquares += (target - trueMean) * (target - trueMean);
    }
    if (squaredErrors == 0.0) {
        report.r2 = 1.0;  // perfect, constant truth or not
    } else if (totalSquares == 0.0) {
        report.r2 = 0.0;  // r2_score's force_finite: a constant truth predicted imperfectly
    } else {
        report.r2 = 1.0 - squaredErrors / totalSquares;
    }
    return report;
}

}  // namespace bert
