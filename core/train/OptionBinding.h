#pragma once

// How the option table (TrainingOptionTable.cpp) binds its entries to TrainingConfig's members.
// Internal to core/train.

#include <optional>
#include <type_traits>

#include "train/TrainingOptions.h"

namespace bert {

inline constexpr double kMiB = 1024.0 * 1024.0;
// Whole-number options accept up to this: large enough for any run, small enough to be exact
// in a double and in the form's spin boxes (int).
inline constexpr double kLargeCount = 2147483647.0;

/// The JSON value checked against the option's kind and range; throws InputError naming the
/// option. Returns it in its canonical JSON type (unsigned for Count and Seed, bytes for a size).
nlohmann::json checkedOptionValue(const OptionDescriptor& option, const nlohmann::json& value);

/// Every entry, in order (TrainingOptionTable.cpp).
std::vector<OptionDescriptor> buildTrainingOptionTable();
/// The long-text options, added after max length (LongTextOptions.cpp).
void addLongTextOptions(std::vector<OptionDescriptor>& table);
/// The options that reshape the loss, added after the evaluation schedule (LossOptions.cpp).
void addLossOptions(std::vector<OptionDescriptor>& table);

/// Fills d's get and set for a TrainingConfig member: enums through d.choices, an optional
/// size as null or bytes, anything else as its JSON value; set checks with checkedOptionValue.
template <typename T>
OptionDescriptor bindField(OptionDescriptor d, T TrainingConfig::*field) {
    const auto checked = [d](const nlohmann::json& value) { return checkedOptionValue(d, value); };
    if constexpr (std::is_enum_v<T>) {
        d.get = [field, choices = d.choices](const TrainingConfig& config) {
            for (const auto& choice : choices) {
                if (choice.value == static_cast<int>(config.*field)) {
                    return nlohmann::json(choice.name);
                }
            }
            return nlohmann::json(nullptr);
        };
        d.set = [field, checked, choices = d.choices](TrainingConfig& config,
                                                      const nlohmann::json& value) {
            const auto name = checked(value).template get<std::string>();
            for (const auto& choice : choices) {
                if (name == choice.name) {
                    config.*field = static_cast<T>(choice.value);
                }
            }
        };
    } else if constexpr (std::is_same_v<T, std::optional<std::int64_t>>) {
        d.get = [field](const TrainingConfig& config) {
            return config.*field ? nlohmann::json(*(config.*field)) : nlohmann::json(nullptr);
        };
        d.set = [field, checked](TrainingConfig& config, const nlohmann::json& value) {
            const auto bytes = checked(value);
            config.*field = bytes.is_null()
                                ? std::nullopt
                                : std::optional<std::int64_t>(bytes.template get<std::int64_t>());
        };
    } else {
        d.get = [field](const TrainingConfig& config) { return nlohmann::json(config.*field); };
        d.set = [field, checked](TrainingConfig& config, const nlohmann::json& value) {
            config.*field = checked(value).template get<T>();
        };
    }
    return d;
}

/// A summary that names the option when on.
template <typename T>
std::function<std::string(const TrainingConfig&)> whenOn(T TrainingConfig::*field,
                                                         std::string words) {
    return [field, words](const TrainingConfig& config) {
        return config.*field ? words : std::string();
    };
}

}  // namespace bert
