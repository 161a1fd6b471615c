#include "train/TestHooks.h"

#include <cstdio>
#include <cstdlib>
#include <optional>

#include <c10/util/Exception.h>

namespace bert::test_hooks {

namespace {

struct OutOfMemoryAt {
    int rank = 0;
    std::size_t examples = 0;
    std::size_t fromStep = 1;
};

const std::optional<OutOfMemoryAt>& outOfMemoryAt() {
    static const auto hook = []() -> std::optional<OutOfMemoryAt> {
        const char* text = std::getenv("BERT_STUDIO_TEST_OUT_OF_MEMORY");
        if (text == nullptr || *text == '\0') {
            return std::nullopt;
        }
        OutOfMemoryAt parsed;
        unsigned long long examples = 0;
        unsigned long long fromStep = 1;
        const int fields = std::sscanf(text, "%d:%llu:%llu", &parsed.rank, &examples, &fromStep);
        if (fields < 2 || examples == 0) {
            return std::nullopt;
        }
        parsed.examples = static_cast<std::size_t>(examples);
        parsed.fromStep = static_cast<std::size_t>(fromStep);
        return parsed;
    }();
    return hook;
}

/// The variable's value as a positive count, or 0 when it is unset or not a number.
std::size_t positiveSetting(const char* name) {
    const char* text = std::getenv(name);
    unsigned long long value = 0;
    if (text == nullptr || std::sscanf(text, "%llu", &value) != 1) {
        return 0;
    }
    return static_cast<std::size_t>(value);
}

}  // namespace

void injectEvaluationOutOfMemory(std::size_t examples) {
    const auto failing = positiveSetting("BERT_STUDIO_TEST_EVAL_OUT_OF_MEMORY");
    if (failing == 0 || examples < failing) {
        return;
    }
    TORCH_CHECK_WITH(OutOfMemoryError, false,
                     "out of memory (BERT_STUDIO_TEST_EVAL_OUT_OF_MEMORY: an evaluation batch of ",
                     failing, " or more fails)");
}

bool deferStepReads() {
    return positiveSetting("BERT_STUDIO_TEST_DEFER_STEP_READS") > 0;
}

void injectOutOfMemory(int rank, std::size_t examples, std::size_t step) {
    const auto& hook = outOfMemoryAt();
    if (!hook || hook->rank != rank || examples < hook->examples || step < hook->fromStep) {
        return;
    }
    TORCH_CHECK_WITH(OutOfMemoryError, false,
                     "out of memory (BERT_STUDIO_TEST_OUT_OF_MEMORY: a micro-batch of ",
                     hook->examples, " or more fails on rank ", rank, ")");
}

}  // namespace bert::test_hooks
