#include "memory/ProcessMemory.h"

#include <fstream>
#include <string>
#include <unistd.h>

namespace bert {
namespace {

// One "Name:   1234 kB" line of /proc/self/status, in bytes; -1 when absent.
std::int64_t statusField(const char* name) {
    std::ifstream status("/proc/self/status");
    std::string key;
    std::int64_t kibibytes = 0;
    std::string unit;
    while (status >> key) {
        if (key == name && status >> kibibytes >> unit) {
            return kibibytes * 1024;
        }
        status.ignore(1 << 16, '\n');
    }
    return -1;
}

}  // namespace

std::int64_t physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<std::int64_t>(pages) * pageSize : -1;
}

std::int64_t residentBytes() {
    return statusField("VmRSS:");
}

std::int64_t peakResidentBytes() {
    return statusField("VmHWM:");
}

bool resetPeakResident() {
    std::ofstream clear("/proc/self/clear_refs");
    // "5" resets the peak resident set size (Linux 4.0 and later); other values touch page bits.
    clear << "5";
    clear.flush();
    return static_cast<bool>(clear);
}

}  // namespace bert
