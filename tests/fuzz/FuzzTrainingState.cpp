// libFuzzer target: a checkpoint's trainer_state.json.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "Error.h"
#include "train/TrainingStateFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto state = bert::parseTrainingState(std::string_view(reinterpret_cast<const char*>(data), size),
                                                    "fuzz/trainer_state.json");
        (void)bert::trainingStateToJson(state).dump();
    } catch (const bert::InputError&) {
    }
    return 0;
}
