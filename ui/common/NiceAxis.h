#pragma once

#include <QString>

QT_BEGIN_NAMESPACE
class QValueAxis;
QT_END_NAMESPACE

namespace bert::ui {

/// An axis range whose ticks fall on round values: 1, 2 or 5 times a power of ten apart, the
/// range widened to whole ticks. Pure arithmetic, tested on its own (StudioTest).
struct NiceAxis {
    double minimum = 0.0;
    double maximum = 1.0;
    double interval = 0.2;  ///< between ticks
};

/// Round ticks covering [low, high] with at most maxTicks intervals; wholeNumbers: an interval of
/// at least 1 (step axes, where "%d" labels would otherwise repeat).
NiceAxis niceAxis(double low, double high, int maxTicks, bool wholeNumbers);

/// The printf format of an axis's labels for ticks interval apart: the decimals that tell every
/// tick from its neighbours ("%.0f" from 1 up, "%.1f" for 0.2 or 0.5, "%.3f" for 0.002).
QString labelFormatFor(double interval);

/// Gives a chart axis niceAxis's range, its ticks (anchored at 0) and labels with as many
/// decimals as the interval needs. Every value axis of the studio goes through here.
void setNiceRange(QValueAxis* axis, double low, double high, int maxTicks, bool wholeNumbers);

}  // namespace bert::ui
