// libFuzzer target: a job file (`bert-studio-cli train --config`), whole or training settings only.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "io/Json.h"
#include "train/TrainingJobSpec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string problem;
    const auto json = bert::parseJson(std::string_view(reinterpret_cast<const char*>(data), size), problem);
    if (!problem.empty()) {
        return 0;
    }
    try {
        if (json.is_object() && json.contains("data")) {
            const auto job = bert::TrainingJob::fromJson(json);
            (void)job.toJson().dump();
            (void)job.displayName();
        } else {
            const auto config = bert::TrainingConfig::fromJson(json);
            (void)config.techniquesSummary();
        }
    } catch (const bert::InputError&) {
    }
    return 0;
}
