#include "task/regression/RegressionTargets.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <system_error>

#include "Error.h"

namespace bert {

namespace {

std::string_view trimmedAscii(std::string_view text) {
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
    };
    while (!text.empty() && isSpace(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && isSpace(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

/// "2,5" or "-0,75": a number written with a decimal comma, worth a hint.
bool looksLikeDecimalComma(std::string_view text) {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos || text.find(',', comma + 1) != std::string_view::npos) {
        return false;
    }
    std::string withPoint(text);
    withPoint[comma] = '.';
    return parseTargetValue(withPoint).has_value();
}

}  // namespace

std::optional<double> parseTargetValue(std::string_view cell) {
    auto text = trimmedAscii(cell);
    if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') {
        text.remove_prefix(1);
    }
    if (text.empty()) {
        return std::nullopt;
    }
    double value = 0.0;
    const auto* end = text.data() + text.size();
    // chars_format::general: decimal and scientific forms only, never hexadecimal.
    const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::general);
    if (error != std::errc() || stop != end || !std::isfinite(value) ||
        std::abs(value) > kLargestTarget) {
        return std::nullopt;
    }
    return value;
}

double parseTarget(std::string_view cell, const std::filesystem::path& file, std::size_t line,
                   std::string_view column) {
    if (const auto value = parseTargetValue(cell)) {
        return *value;
    }
    const auto where =
        "line " + std::to_string(line) + ", column \"" + std::string(column) + "\": ";
    const auto text = trimmedAscii(cell);
    if (text.empty()) {
        throw InputError(file,
                         where + "the target is empty (a regression target must be a number)");
    }
    double value = 0.0;
    const auto [stop, error] =
        std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::general);
    const bool read = stop == text.data() + text.size();
    if (read && error == std::errc() && std::isfinite(value)) {
        throw InputError(file, where + "the target " + std::string(text) +
                                   " is too large (training holds targets as 32-bit floats: at "
                                   "most 1e38 either side of zero)");
    }
    if (read && (error == std::errc::result_out_of_range || !std::isfinite(value))) {
        throw InputError(file, where + "the target \"" + std::string(text) +
                                   "\" is not a finite number (NaN, infinite or out of range); "
                                   "remove the row or give it a number");
    }
    std::string problem = where + "the target \"" + std::string(text) + "\" is not a number";
    if (looksLikeDecimalComma(text)) {
        problem += " (write the decimal separator as a point: 2.5, not 2,5)";
    } else {
        problem += " (a finite number such as 3, -2.5 or 1e-3 is expected)";
    }
    throw InputError(file, problem);
}

std::vector<double> targetsOfColumn(const Table& table, const std::string& column,
                                    const std::filesystem::path& file) {
    const auto index = table.columnIndex(column);
    if (!index) {
        throw InputError(file, "no target column \"" + column + "\"");
    }
    std::vector<double> targets;
    targets.reserve(table.rows.size());
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        const auto& cells = table.rows[row];
        const std::string_view cell =
            *index < cells.size() ? std::string_view(cells[*index]) : std::string_view();
        const auto line = row < table.lines.size() ? table.lines[row] : 0;
        targets.push_back(parseTarget(cell, file, line, column));
    }
    return targets;
}

TargetScaler TargetScaler::fit(const std::vector<double>& targets) {
    TargetScaler scaler;
    if (targets.empty()) {
        return scaler;
    }
    const auto n = static_cast<double>(targets.size());
    double sum = 0.0;
    for (const double target : targets) {
        sum += target;
    }
    scaler.mean = sum / n;
    // The two-pass variance with its rounding correction (Chan, Golub and LeVeque), as
    // sklearn.utils.extmath._incremental_mean_and_var.
    double correction = 0.0;
    double squares = 0.0;
    for (const double target : targets) {
        const double deviation = target - scaler.mean;
        correction += deviation;
        squares += deviation * deviation;
    }
    const double variance = (squares - correction * correction / n) / n;
    // sklearn.preprocessing._data._is_constant_feature: the variance is within the error bound
    // of its own computation.
    constexpr double eps = std::numeric_limits<double>::epsilon();
    const double bound = n * eps * variance + (n * scaler.mean * eps) * (n * scaler.mean * eps);
    scaler.scale = variance <= bound ? 1.0 : std::sqrt(variance);
    return scaler;
}

std::string targetSpreadWarning(const std::vector<double>& targets, const TargetScaler& scaling,
                                bool standardised, const std::string& column) {
    if (targets.size() < 2) {
        return {};
    }
    // Centred first, two passes: the spread of 1e6 + 0.001 k is not lost in the squares of 1e6.
    const auto fitted = TargetScaler::fit(targets);
    double squares = 0.0;
    double low = targets.front();
    double high = targets.front();
    for (const double target : targets) {
        squares += (target - fitted.mean) * (target - fitted.mean);
        low = std::min(low, target);
        high = std::max(high, target);
    }
    const double deviation = std::sqrt(squares / static_cast<double>(targets.size()));
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%.10g (standard deviation %.3g)", fitted.mean,
                  deviation);
    const std::string name = "the target \"" + column + "\"";
    if (low == high) {
        return name + " is constant (" + std::to_string(targets.size()) +
               " rows): a regression has nothing to learn, and Pearson and Spearman are "
               "undefined";
    }
    // A float holds about 7 significant digits: below that, the rows read as one value.
    constexpr double kFloatResolution = 1e-7;
    const bool belowFloat = deviation < std::abs(fitted.mean) * kFloatResolution;
    if (!standardised && belowFloat) {
        return name + " varies too little around its mean to be learnt as it is: " + numbers +
               ", below what a 32-bit float tells apart; standardise it (--standardize-targets) "
               "or subtract the mean from the column";
    }
    if (standardised && scaling.scale == 1.0 && scaling.mean != 0.0) {
        return name + " is nearly constant: " + numbers +
               "; it is only centred, not scaled, and R² measures noise";
    }
    return {};
}

nlohmann::json TargetScaler::toJson() const {
    return {{"mean", mean}, {"scale", scale}};
}

TargetScaler TargetScaler::fromJson(const nlohmann::json& json) {
    const auto number = [&](const char* key) {
        if (!json.is_object() || !json.contains(key) || !json[key].is_number()) {
            throw InputError(std::string("the stored target standardisation has no number \"") +
                             key + "\"");
        }
        const double value = json[key].get<double>();
        if (!std::isfinite(value)) {
            throw InputError(std::string("the stored target standardisation's \"") + key +
                             "\" is not finite");
        }
        return value;
    };
    TargetScaler scaler;
    scaler.mean = number("mean");
    scaler.scale = number("scale");
    if (scaler.scale <= 0.0) {
        throw InputError("the stored target standardisation's scale is not positive");
    }
    return scaler;
}

}  // namespace bert
