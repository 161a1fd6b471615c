#include "train/Metrics.h"

namespace bert {

double accuracyOf(const ConfusionMatrix& confusion) {
    std::int64_t correct = 0;
    std::int64_t total = 0;
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            total += confusion[t][p];
            correct += t == p ? confusion[t][p] : 0;
        }
    }
    return total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
}

double macroF1Of(const ConfusionMatrix& confusion) {
    const std::size_t n = confusion.size();
    if (n == 0) {
        return 0.0;
    }
    double sum = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
        const std::int64_t truePositive = confusion[c][c];
        std::int64_t predicted = 0;
        std::int64_t actual = 0;
        for (std::size_t k = 0; k < n; ++k) {
            predicted += confusion[k][c];
            actual += confusion[c][k];
        }
        const double denominator = static_cast<double>(predicted + actual);
        sum += denominator > 0 ? 2.0 * static_cast<double>(truePositive) / denominator : 0.0;
    }
    return sum / static_cast<double>(n);
}

}  // namespace bert
