#include "common/NiceAxis.h"

#include <algorithm>
#include <cmath>

#include <QValueAxis>

namespace bert::ui {

NiceAxis niceAxis(double low, double high, int maxTicks, bool wholeNumbers) {
    if (!std::isfinite(low) || !std::isfinite(high)) {
        return {};
    }
    if (high < low) {
        std::swap(low, high);
    }
    if (high - low < 1e-12) {
        // One value: a range around it, so that a single point is drawn inside the chart.
        const double pad = std::max(std::abs(high) * 0.1, wholeNumbers ? 1.0 : 0.1);
        low -= pad;
        high += pad;
    }
    const double rough = (high - low) / static_cast<double>(std::max(1, maxTicks));
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    double interval = 10.0 * magnitude;
    for (const double step : {1.0, 2.0, 5.0, 10.0}) {
        if (step * magnitude >= rough) {
            interval = step * magnitude;
            break;
        }
    }
    if (wholeNumbers) {
        interval = std::max(1.0, std::round(interval));
    }
    NiceAxis axis;
    axis.interval = interval;
    axis.minimum = std::floor(low / interval + 1e-9) * interval;
    axis.maximum = std::ceil(high / interval - 1e-9) * interval;
    return axis;
}

QString labelFormatFor(double interval) {
    // As many decimals as the interval has: ticks 0.002 apart at 1.234, 1.236 and 1.238 read
    // "1.234", "1.236", "1.238" (three significant digits read "1.23", "1.24", "1.24").
    int decimals = 0;
    if (interval > 0.0 && interval < 1.0 && std::isfinite(interval)) {
        decimals = static_cast<int>(std::ceil(-std::log10(interval) - 1e-9));
    }
    return QStringLiteral("%.%1f").arg(std::clamp(decimals, 0, 12));
}

void setNiceRange(QValueAxis* axis, double low, double high, int maxTicks, bool wholeNumbers) {
    const auto nice = niceAxis(low, high, maxTicks, wholeNumbers);
    if (axis->tickType() == QValueAxis::TicksDynamic && axis->min() == nice.minimum &&
        axis->max() == nice.maximum && axis->tickInterval() == nice.interval) {
        return;  // unchanged: no layout
    }
    // Dynamic ticks are laid out at once on every change: a new range under the old interval
    // (a 0..400 MiB range at the 0.2 of an empty chart) made thousands of tick items and
    // blocked the GUI thread for seconds. Change range and interval under fixed ticks, then
    // lay out once.
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setRange(nice.minimum, nice.maximum);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(nice.interval);
    axis->setLabelFormat(labelFormatFor(nice.interval));
    axis->setTickType(QValueAxis::TicksDynamic);
}

}  // namespace bert::ui
