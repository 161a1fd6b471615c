#include "io/CrashPoints.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace bert::test_hooks {

namespace {

struct CrashAt {
    std::string kind;
    int nth = 0;
    int point = 0;
};

const std::optional<CrashAt>& crashAt() {
    static const auto hook = []() -> std::optional<CrashAt> {
        const char* text = std::getenv("BERT_STUDIO_TEST_CRASH_AT");
        if (text == nullptr || *text == '\0') {
            return std::nullopt;
        }
        char kind[16] = {};
        CrashAt parsed;
        if (std::sscanf(text, "%15[a-z]:%d:%d", kind, &parsed.nth, &parsed.point) != 3) {
            return std::nullopt;
        }
        parsed.kind = kind;
        return parsed;
    }();
    return hook;
}

int writesOfKind = 0;  // checkpoint writes of the hook's kind so far
bool armed = false;    // the current write is the one the hook names
int pointsPassed = 0;  // file boundaries of the current write so far

}  // namespace

void checkpointWriteStarts(const std::string& kind) {
    const auto& hook = crashAt();
    if (!hook) {
        return;
    }
    armed = kind == hook->kind && ++writesOfKind == hook->nth;
    pointsPassed = 0;
}

void checkpointWriteEnds() {
    armed = false;
}

void crashPoint() {
    const auto& hook = crashAt();
    if (!hook || !armed) {
        return;
    }
    if (++pointsPassed == hook->point) {
        std::fflush(nullptr);
        std::raise(SIGKILL);
    }
}

}  // namespace bert::test_hooks
