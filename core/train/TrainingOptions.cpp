#include "train/TrainingOptions.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <regex>
#include <type_traits>

#include "Error.h"
#include "train/OptionBinding.h"

namespace bert {

namespace {

std::string numberText(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string who(const OptionDescriptor& option) {
    return std::string("training setting \"") + option.key + "\" (" + option.flag + ")";
}

[[noreturn]] void refuse(const OptionDescriptor& option, const std::string& shown,
                         const std::string& expected) {
    throw InputError(who(option) + " is " + shown + "; expected " + expected);
}

std::string expectation(const OptionDescriptor& option) {
    switch (option.kind) {
        case OptionKind::Flag:
            return "true or false";
        case OptionKind::Count:
        case OptionKind::Integer:
            return "a whole number from " + numberText(option.minimum) + " to " +
                   numberText(option.maximum);
        case OptionKind::Real:
            return "a number from " + numberText(option.minimum) + " to " +
                   numberText(option.maximum);
        case OptionKind::Seed:
            return "a whole number from 0 to 18446744073709551615";
        case OptionKind::Choice: {
            std::string names;
            for (const auto& choice : option.choices) {
                names += (names.empty() ? "" : ", ") + std::string(choice.name);
            }
            return "one of " + names;
        }
        case OptionKind::Device:
            return "cpu, cuda or cuda:N";
        case OptionKind::ByteSize:
            return "a size from " + numberText(option.minimum / kMiB) +
                   " MiB, like 800MiB or 16GiB, or null for none";
    }
    return "a valid value";
}

bool inRange(const OptionDescriptor& option, double value) {
    return value >= option.minimum && value <= option.maximum;
}

[[noreturn]] void refuseValue(const OptionDescriptor& option, const nlohmann::json& value) {
    refuse(option, value.dump(), expectation(option));
}

}  // namespace

nlohmann::json checkedOptionValue(const OptionDescriptor& option, const nlohmann::json& value) {
    switch (option.kind) {
        case OptionKind::Flag:
            if (!value.is_boolean()) {
                refuseValue(option, value);
            }
            return value;
        case OptionKind::Count:
            // Signed or unsigned JSON integers alike; the range refuses negatives.
            if (!value.is_number_integer() || !inRange(option, value.get<double>())) {
                refuseValue(option, value);
            }
            return value.is_number_unsigned() ? value : nlohmann::json(value.get<std::uint64_t>());
        case OptionKind::Integer:
            if (!value.is_number_integer() || !inRange(option, value.get<double>())) {
                refuseValue(option, value);
            }
            return value;
        case OptionKind::Real:
            if (!value.is_number() || !std::isfinite(value.get<double>()) ||
                !inRange(option, value.get<double>())) {
                refuseValue(option, value);
            }
            return value;
        case OptionKind::Seed:
            if (!value.is_number_unsigned() &&
                !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
                refuseValue(option, value);
            }
            return value.is_number_unsigned() ? value : nlohmann::json(value.get<std::uint64_t>());
        case OptionKind::Choice:
            if (value.is_string()) {
                for (const auto& choice : option.choices) {
                    if (value.get<std::string>() == choice.name) {
                        return value;
                    }
                }
            }
            refuseValue(option, value);
        case OptionKind::Device: {
            static const std::regex kDevice("cpu|cuda(:[0-9]{1,3})?");
            if (!value.is_string() || !std::regex_match(value.get<std::string>(), kDevice)) {
                refuseValue(option, value);
            }
            return value;
        }
        case OptionKind::ByteSize:
            if (value.is_null()) {
                return value;
            }
            if (value.is_string()) {
                const auto bytes = parseByteSize(value.get<std::string>());
                if (!inRange(option, static_cast<double>(bytes))) {
                    refuseValue(option, value);
                }
                return bytes;
            }
            if (!value.is_number_integer() || !inRange(option, value.get<double>())) {
                refuseValue(option, value);
            }
            return value;
    }
    refuseValue(option, value);
}

namespace {

/// The name of an enum value from its option's choices.
std::string choiceName(const char* key, int value) {
    if (const auto* option = findTrainingOption(key)) {
        for (const auto& choice : option->choices) {
            if (choice.value == value) {
                return choice.name;
            }
        }
    }
    return "?";
}

}  // namespace

bool OptionDescriptor::negatedFlag() const {
    return kind == OptionKind::Flag && std::string_view(flag).rfind("--no-", 0) == 0;
}

void OptionDescriptor::setFromText(TrainingConfig& config, const std::string& text) const {
    const auto refuseText = [&] {
        throw InputError(std::string(flag) + ": \"" + text + "\" is not " + expectation(*this));
    };
    // Every case below either sets value or throws through refuseText.
    nlohmann::json value;
    switch (kind) {
        case OptionKind::Flag:
            if (text == "true" || text == "1" || text == "on") {
                value = true;
            } else if (text == "false" || text == "0" || text == "off") {
                value = false;
            } else {
                refuseText();
            }
            break;
        case OptionKind::Count:
        case OptionKind::Seed: {
            // Digits only: "-1" must not wrap around to 18446744073709551615.
            std::uint64_t number = 0;
            const auto* end = text.data() + text.size();
            const auto [next, error] = std::from_chars(text.data(), end, number);
            if (text.empty() || error != std::errc() || next != end) {
                refuseText();
            }
            value = number;
            break;
        }
        case OptionKind::Integer: {
            std::int64_t number = 0;
            const auto* end = text.data() + text.size();
            const auto [next, error] = std::from_chars(text.data(), end, number);
            if (text.empty() || error != std::errc() || next != end) {
                refuseText();
            }
            value = number;
            break;
        }
        case OptionKind::Real: {
            char* end = nullptr;
            const double number = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size()) {
                refuseText();
            }
            value = number;
            break;
        }
        case OptionKind::Choice:
        case OptionKind::Device:
            value = text;
            break;
        case OptionKind::ByteSize:
            value =
                text == "none" || text == "off" ? nlohmann::json(nullptr) : nlohmann::json(text);
            break;
    }
    try {
        set(config, value);
    } catch (const InputError&) {
        throw InputError(std::string(flag) + ": \"" + text + "\" is not " + expectation(*this));
    }
}

std::string OptionDescriptor::text(const TrainingConfig& config) const {
    const auto value = get(config);
    if (value.is_null()) {
        return "none";
    }
    return value.is_string() ? value.get<std::string>() : value.dump();
}

const std::vector<OptionDescriptor>& trainingOptions() {
    static const std::vector<OptionDescriptor> table = buildTrainingOptionTable();
    return table;
}

std::string changedFlags(const TrainingConfig& from, const TrainingConfig& to) {
    std::string flags;
    for (const auto& option : trainingOptions()) {
        const auto value = option.get(to);
        if (value == option.get(from)) {
            continue;
        }
        std::string flag = option.flag;
        if (option.kind == OptionKind::Flag) {
            if (value.is_boolean() && value.get<bool>() == option.negatedFlag()) {
                continue;  // a flag cannot be given back its default from the command line
            }
        } else {
            flag += " " + option.text(to);
        }
        flags += (flags.empty() ? "" : " ") + flag;
    }
    return flags;
}

const OptionDescriptor* findTrainingOption(const std::string& key) {
    for (const auto& option : trainingOptions()) {
        if (key == option.key) {
            return &option;
        }
    }
    return nullptr;
}

std::int64_t parseByteSize(const std::string& text) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        throw InputError("memory size \"" + text + "\" is not a number with a unit (e.g. 16GiB)");
    }
    std::string unit = text.substr(used);
    unit.erase(0, unit.find_first_not_of(' '));
    static const std::map<std::string, double> kUnits = {
        {"", 1.0},   {"B", 1.0},      {"KB", 1e3},   {"MB", 1e6},
        {"GB", 1e9}, {"KiB", 1024.0}, {"MiB", kMiB}, {"GiB", 1024.0 * kMiB}};
    const auto it = kUnits.find(unit);
    if (it == kUnits.end() || !(value > 0.0) || !std::isfinite(value) ||
        value * it->second > 9.0e18) {
        throw InputError("memory size \"" + text +
                         "\": use a positive number and B, KB, MB, GB, KiB, MiB or GiB");
    }
    return static_cast<std::int64_t>(value * it->second);
}

// ---- TrainingConfig's JSON and names, from the table --------------------------------------------

std::string toString(Precision precision) {
    return choiceName("precision", static_cast<int>(precision));
}
std::string toString(PaddingMode padding) {
    return choiceName("padding", static_cast<int>(padding));
}
std::string toString(CacheRelease release) {
    return choiceName("cache_release", static_cast<int>(release));
}
std::string toString(LrSchedule schedule) {
    return choiceName("lr_schedule", static_cast<int>(schedule));
}
std::string toString(LongTextMode mode) {
    return choiceName("long_text", static_cast<int>(mode));
}
std::string toString(WindowPooling pooling) {
    return choiceName("window_pooling", static_cast<int>(pooling));
}
std::string toString(ClassWeighting weighting) {
    return choiceName("class_weighting", static_cast<int>(weighting));
}
std::string toString(BestMetric metric) {
    return choiceName("best_metric", static_cast<int>(metric));
}

nlohmann::json TrainingConfig::toJson() const {
    nlohmann::json json = nlohmann::json::object();
    for (const auto& option : trainingOptions()) {
        json[option.key] = option.get(*this);
    }
    return json;
}

TrainingConfig TrainingConfig::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) {
        throw InputError("a training configuration must be a JSON object");
    }
    TrainingConfig config;
    for (const auto& [key, value] : json.items()) {
        const auto* option = findTrainingOption(key);
        if (option == nullptr) {
            std::string known;
            for (const auto& o : trainingOptions()) {
                known += (known.empty() ? "" : ", ") + std::string(o.key);
            }
            throw InputError("training setting \"" + key + "\" is unknown; the settings are " +
                             known);
        }
        // null keeps the default (and unsets an optional size)
        if (!value.is_null() || option->kind == OptionKind::ByteSize) {
            option->set(config, value);
        }
    }
    config.validate();
    return config;
}

std::string TrainingConfig::techniquesSummary() const {
    std::string summary;
    for (const auto& option : trainingOptions()) {
        if (!option.summary) {
            continue;
        }
        if (const auto words = option.summary(*this); !words.empty()) {
            summary += (summary.empty() ? "" : ", ") + words;
        }
    }
    return summary;
}

}  // namespace bert
