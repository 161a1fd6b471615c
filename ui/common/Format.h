#pragma once

#include <cstdint>

#include <QString>

#include "text/Format.h"

namespace bert::ui {

/// The studio's sizes and durations: core's formatting (text/Format.h), as QString.
inline QString mib(std::int64_t bytes) {
    return QString::fromStdString(formatMiB(bytes));
}
/// Bytes as a number of MiB, for chart values.
inline double toMiB(double bytes) {
    return bytes / kBytesPerMiB;
}
inline QString duration(double seconds) {
    return QString::fromStdString(formatDuration(seconds));
}

}  // namespace bert::ui
