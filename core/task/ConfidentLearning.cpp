#include "task/ConfidentLearning.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "Error.h"

namespace bert {

namespace {

/// cleanlab's fuzz for comparing probabilities (FLOATING_POINT_COMPARISON).
constexpr double kFuzz = 1e-6;
/// The least threshold, above the fuzz (CONFIDENT_THRESHOLDS_LOWER_BOUND).
constexpr double kThresholdFloor = 2 * kFuzz;
/// The threshold of a class no example is labelled with: above any probability.
constexpr double kAbsentThreshold = 2.0;
/// The weight of each next score in the multi-label moving average (cleanlab's default).
constexpr double kMovingAverageWeight = 0.8;
/// How far a row of probabilities may sum from 1.
constexpr double kRowSumTolerance = 1e-3;

using Counts = std::vector<std::vector<std::int64_t>>;

/// numpy's pairwise summation of a contiguous run (its sum of float64): runs under 8 added in
/// order, up to 128 in 8 interleaved accumulators, longer ones split in two at a multiple of 8.
/// The same doubles as np.sum and np.mean, so that thresholds compare bit for bit.
double pairwiseSum(const double* values, std::size_t n) {
    if (n < 8) {
        double sum = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            sum += values[i];
        }
        return sum;
    }
    if (n <= 128) {
        double partial[8];
        std::copy(values, values + 8, partial);
        std::size_t i = 8;
        for (; i < n - n % 8; i += 8) {
            for (std::size_t j = 0; j < 8; ++j) {
                partial[j] += values[i + j];
            }
        }
        double sum = ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
                     ((partial[4] + partial[5]) + (partial[6] + partial[7]));
        for (; i < n; ++i) {
            sum += values[i];
        }
        return sum;
    }
    std::size_t half = n / 2;
    half -= half % 8;
    return pairwiseSum(values, half) + pairwiseSum(values + half, n - half);
}

double numpySum(const std::vector<double>& values) {
    return 0.0 + pairwiseSum(values.data(), values.size());
}

/// The first class of the row's largest probability (numpy's argmax).
std::size_t argmaxOf(const double* row, std::size_t classes) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < classes; ++j) {
        if (row[j] > row[best]) {
            best = j;
        }
    }
    return best;
}

/// Rounds a row of counts to integers keeping its (rounded) total: each to the nearest (a half
/// to even, as numpy rounds), then as many as the totals differ by raised by one, those with the
/// largest remainder first, or lowered, those with the smallest first. Equal remainders in the
/// order a stable sort gives them, reversed when raising (the later cell first).
std::vector<std::int64_t> roundKeepingTotal(const std::vector<double>& values) {
    const std::size_t n = values.size();
    std::vector<double> rounded(n);
    std::transform(values.begin(), values.end(), rounded.begin(),
                   [](double v) { return std::nearbyint(v); });
    const double wanted = std::nearbyint(numpySum(values));
    double total = std::nearbyint(numpySum(rounded));
    while (std::abs(total - wanted) > kFuzz) {
        const double difference = std::nearbyint(wanted - total);
        const double step = difference < 0.0 ? -1.0 : 1.0;
        const auto changes = std::min(static_cast<std::size_t>(std::abs(difference)), n);
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return values[a] - rounded[a] < values[b] - rounded[b];
        });
        if (step > 0.0) {
            std::reverse(order.begin(), order.end());
        }
        for (std::size_t i = 0; i < changes; ++i) {
            rounded[order[i]] += step;
        }
        total = std::nearbyint(numpySum(rounded));
    }
    std::vector<std::int64_t> counts(n);
    std::transform(rounded.begin(), rounded.end(), counts.begin(),
                   [](double v) { return static_cast<std::int64_t>(v); });
    return counts;
}

/// Steps 1 to 6 of the header on one single-label problem of n examples: fills the thresholds
/// and the three matrices of `found` and returns which examples are issues. Takes a problem
/// whose labels all lie in one class (multi-label's labels that no example, or every example,
/// has).
std::vector<bool> flagIssues(const std::int64_t* labels, const double* probabilities, std::size_t n,
                             std::size_t classes, LabelIssues& found) {
    const std::size_t k = classes;
    std::vector<std::vector<std::size_t>> members(k);
    for (std::size_t i = 0; i < n; ++i) {
        members[static_cast<std::size_t>(labels[i])].push_back(i);
    }

    // 1. Thresholds: each class's mean self-confidence.
    found.thresholds.assign(k, kAbsentThreshold);
    for (std::size_t j = 0; j < k; ++j) {
        if (members[j].empty()) {
            continue;
        }
        std::vector<double> own;
        own.reserve(members[j].size());
        for (const auto i : members[j]) {
            own.push_back(probabilities[i * k + j]);
        }
        found.thresholds[j] =
            std::max(numpySum(own) / static_cast<double>(own.size()), kThresholdFloor);
    }

    // 2. The counted joint.
    Counts counted(k, std::vector<std::int64_t>(k, 0));
    for (std::size_t i = 0; i < n; ++i) {
        const double* row = probabilities + i * k;
        std::size_t confident = 0;
        std::size_t only = 0;
        for (std::size_t j = 0; j < k; ++j) {
            if (row[j] >= found.thresholds[j] - kFuzz) {
                if (confident == 0) {
                    only = j;
                }
                ++confident;
            }
        }
        if (confident == 0) {
            continue;
        }
        const std::size_t truth = confident == 1 ? only : argmaxOf(row, k);
        ++counted[static_cast<std::size_t>(labels[i])][truth];
    }
    for (std::size_t j = 0; j < k; ++j) {
        counted[j][j] = std::max<std::int64_t>(counted[j][j], 1);
    }
    found.countedJoint = counted;

    // 3. Calibration: rows to the labels' counts, the whole to n, rounded keeping row totals.
    std::vector<double> scaled(k * k);
    for (std::size_t g = 0; g < k; ++g) {
        const auto rowTotal = static_cast<double>(
            std::accumulate(counted[g].begin(), counted[g].end(), std::int64_t{0}));
        for (std::size_t t = 0; t < k; ++t) {
            scaled[g * k + t] = static_cast<double>(counted[g][t]) / rowTotal *
                                static_cast<double>(members[g].size());
        }
    }
    const double scaledTotal = numpySum(scaled);
    found.confidentJoint.assign(k, {});
    for (std::size_t g = 0; g < k; ++g) {
        std::vector<double> row(k);
        for (std::size_t t = 0; t < k; ++t) {
            row[t] = scaled[g * k + t] / scaledTotal * static_cast<double>(n);
        }
        found.confidentJoint[g] = roundKeepingTotal(row);
    }

    // 4. Prune counts: at least one example kept per given class, what it costs taken evenly
    // from the other non-zero cells of its row.
    found.pruneCounts.assign(k, std::vector<std::int64_t>(k, 0));
    for (std::size_t g = 0; g < k; ++g) {
        const auto& row = found.confidentJoint[g];
        const std::int64_t kept = std::max<std::int64_t>(row[g], 1);
        const auto added = static_cast<double>(kept - row[g]);
        const auto nonZero = static_cast<double>(
            std::count_if(row.begin(), row.end(), [](std::int64_t c) { return c != 0; }));
        const double share = added / std::max(nonZero - 1.0, 1.0);
        for (std::size_t t = 0; t < k; ++t) {
            const double left = std::max(static_cast<double>(row[t]) - share, 0.0);
            found.pruneCounts[g][t] = t == g ? kept : static_cast<std::int64_t>(left);
        }
    }

    // 5. Prune by noise rate: per given class, the examples most likely of each other class.
    std::vector<bool> flagged(n, false);
    for (std::size_t g = 0; g < k; ++g) {
        const auto& own = members[g];
        if (own.size() <= 1) {
            continue;  // cleanlab's min_examples_per_class
        }
        for (std::size_t t = 0; t < k; ++t) {
            const auto take = static_cast<std::size_t>(
                std::max<std::int64_t>(t == g ? 0 : found.pruneCounts[g][t], 0));
            if (take == 0) {
                continue;
            }
            std::vector<double> margin(own.size());
            for (std::size_t m = 0; m < own.size(); ++m) {
                const double* row = probabilities + own[m] * k;
                margin[m] = row[t] - row[g];
            }
            std::vector<std::size_t> order(own.size());
            std::iota(order.begin(), order.end(), std::size_t{0});
            std::stable_sort(order.begin(), order.end(),
                             [&](std::size_t a, std::size_t b) { return margin[a] > margin[b]; });
            for (std::size_t m = 0; m < std::min(take, order.size()); ++m) {
                flagged[own[order[m]]] = true;
            }
        }
    }

    // 6. Only where another class beats the given label by more than the fuzz.
    std::vector<double> row(k);
    for (std::size_t i = 0; i < n; ++i) {
        if (!flagged[i]) {
            continue;
        }
        const auto given = static_cast<std::size_t>(labels[i]);
        std::copy(probabilities + i * k, probabilities + (i + 1) * k, row.begin());
        row[given] += kFuzz;
        flagged[i] = argmaxOf(row.data(), k) != given;
    }
    return flagged;
}

/// Step 7: lowest quality first, equal ones by row.
void rank(std::vector<LabelIssue>& issues) {
    std::stable_sort(issues.begin(), issues.end(), [](const LabelIssue& a, const LabelIssue& b) {
        return a.quality < b.quality;
    });
}

std::string probabilityAt(std::size_t example, std::size_t column, const char* what) {
    return "example " + std::to_string(example) + "'s probability of " + what + " " +
           std::to_string(column);
}

/// Each probability a finite number in [0, 1] (cleanlab's tolerance of 1e-6).
void checkProbabilities(const std::vector<double>& probabilities, std::size_t columns,
                        const char* what) {
    for (std::size_t at = 0; at < probabilities.size(); ++at) {
        const double p = probabilities[at];
        if (!std::isfinite(p)) {
            throw InputError(probabilityAt(at / columns, at % columns, what) + " is " +
                             std::to_string(p) + ", not a number");
        }
        if (p < -kFuzz || p > 1.0 + kFuzz) {
            throw InputError(probabilityAt(at / columns, at % columns, what) + " is " +
                             std::to_string(p) + ", not a probability in [0, 1]");
        }
    }
}

void checkShape(std::size_t examples, std::size_t columns, std::size_t given, const char* what,
                const char* kind) {
    if (examples == 0) {
        throw InputError("no examples to look for label issues in");
    }
    if (columns < 2) {
        throw InputError(std::string("confident learning needs at least 2 ") + kind + ", got " +
                         std::to_string(columns));
    }
    if (given != examples * columns) {
        throw InputError(std::to_string(given) + " " + what + " for " + std::to_string(examples) +
                         " examples of " + std::to_string(columns) + " " + kind + ": expected " +
                         std::to_string(examples * columns));
    }
}

}  // namespace

LabelIssues findLabelIssues(const std::vector<std::int64_t>& labels,
                            const std::vector<double>& probabilities, std::size_t classes) {
    checkShape(labels.size(), classes, probabilities.size(), "probabilities", "classes");
    const auto k = static_cast<std::int64_t>(classes);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= k) {
            throw InputError("example " + std::to_string(i) + " has label " +
                             std::to_string(labels[i]) + ", outside the classes 0 to " +
                             std::to_string(k - 1));
        }
    }
    if (std::all_of(labels.begin(), labels.end(),
                    [&](std::int64_t label) { return label == labels.front(); })) {
        throw InputError("every example is labelled " + std::to_string(labels.front()) +
                         ": confident learning needs at least 2 classes among the labels");
    }
    checkProbabilities(probabilities, classes, "class");
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const auto begin = probabilities.begin() + static_cast<std::ptrdiff_t>(i * classes);
        const double sum = std::accumulate(begin, begin + k, 0.0);
        if (std::abs(sum - 1.0) > kRowSumTolerance) {
            throw InputError("example " + std::to_string(i) + "'s probabilities sum to " +
                             std::to_string(sum) +
                             ", not 1: confident learning takes the softmax of out-of-fold "
                             "predictions");
        }
    }

    LabelIssues found;
    const auto flagged =
        flagIssues(labels.data(), probabilities.data(), labels.size(), classes, found);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        if (!flagged[i]) {
            continue;
        }
        const double* row = probabilities.data() + i * classes;
        found.issues.push_back({.example = i,
                                .given = labels[i],
                                .likely = static_cast<std::int64_t>(argmaxOf(row, classes)),
                                .quality = row[labels[i]],
                                .labels = {}});
    }
    rank(found.issues);
    return found;
}

LabelIssues findMultiLabelIssues(const std::vector<std::uint8_t>& truth,
                                 const std::vector<double>& probabilities, std::size_t labels) {
    if (labels < 2) {
        throw InputError("confident learning needs at least 2 labels, got " +
                         std::to_string(labels));
    }
    const std::size_t n = truth.size() / labels;
    if (truth.size() % labels != 0) {
        throw InputError(std::to_string(truth.size()) + " truth values are not rows of " +
                         std::to_string(labels) + " labels");
    }
    checkShape(n, labels, probabilities.size(), "probabilities", "labels");
    for (std::size_t at = 0; at < truth.size(); ++at) {
        if (truth[at] > 1) {
            throw InputError("example " + std::to_string(at / labels) + "'s truth for label " +
                             std::to_string(at % labels) + " is " + std::to_string(truth[at]) +
                             ", not 0 or 1");
        }
    }
    checkProbabilities(probabilities, labels, "label");

    LabelIssues found;
    std::vector<std::vector<std::int64_t>> flaggedLabels(n);
    std::vector<std::int64_t> binary(n);
    std::vector<double> twoColumns(2 * n);
    for (std::size_t c = 0; c < labels; ++c) {
        for (std::size_t i = 0; i < n; ++i) {
            const double p = probabilities[i * labels + c];
            binary[i] = truth[i * labels + c];
            twoColumns[2 * i] = 1.0 - p;
            twoColumns[2 * i + 1] = p;
        }
        LabelIssues one;
        const auto flagged = flagIssues(binary.data(), twoColumns.data(), n, 2, one);
        found.thresholds.insert(found.thresholds.end(), one.thresholds.begin(),
                                one.thresholds.end());
        found.countedJoint.insert(found.countedJoint.end(), one.countedJoint.begin(),
                                  one.countedJoint.end());
        found.confidentJoint.insert(found.confidentJoint.end(), one.confidentJoint.begin(),
                                    one.confidentJoint.end());
        found.pruneCounts.insert(found.pruneCounts.end(), one.pruneCounts.begin(),
                                 one.pruneCounts.end());
        for (std::size_t i = 0; i < n; ++i) {
            if (flagged[i]) {
                flaggedLabels[i].push_back(static_cast<std::int64_t>(c));
            }
        }
    }

    std::vector<double> selfConfidence(labels);
    for (std::size_t i = 0; i < n; ++i) {
        if (flaggedLabels[i].empty()) {
            continue;
        }
        const double* row = probabilities.data() + i * labels;
        for (std::size_t c = 0; c < labels; ++c) {
            selfConfidence[c] = truth[i * labels + c] != 0 ? row[c] : 1.0 - row[c];
        }
        auto worst = static_cast<std::size_t>(flaggedLabels[i].front());
        for (const auto c : flaggedLabels[i]) {
            if (selfConfidence[static_cast<std::size_t>(c)] < selfConfidence[worst]) {
                worst = static_cast<std::size_t>(c);
            }
        }
        std::vector<double> sorted = selfConfidence;
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        double average = sorted.front();
        for (std::size_t s = 1; s < sorted.size(); ++s) {
            average = kMovingAverageWeight * sorted[s] + (1.0 - kMovingAverageWeight) * average;
        }
        found.issues.push_back({.example = i,
                                .given = static_cast<std::int64_t>(worst),
                                .likely = row[worst] > 1.0 - row[worst] ? 1 : 0,
                                .quality = average,
                                .labels = flaggedLabels[i]});
    }
    rank(found.issues);
    return found;
}

}  // namespace bert
