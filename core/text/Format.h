#pragma once

#include <cstdint>
#include <string>

namespace bert {

/// Sizes and durations for people, the same in the command line and the studio.

/// Binary units throughout, as the allocators count.
constexpr double kBytesPerMiB = 1024.0 * 1024.0;

/// "812 B", "12.3 MiB", "1.5 GiB": binary units, one decimal past bytes.
std::string formatBytes(double bytes);
/// "123 MiB": whole mebibytes, for tables and charts where one unit reads best.
std::string formatMiB(std::int64_t bytes);
/// "04:07" under an hour, "1:02:03" from an hour on; negative durations read as zero.
std::string formatDuration(double seconds);

}  // namespace bert
