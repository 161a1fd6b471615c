#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "train/TrainingConfig.h"

namespace bert {

/// Where an option is shown: a group box of the studio's form and a section of the command
/// line's help. Data options are set on the studio's dataset page.
enum class OptionGroup { Data, Batching, Memory, Optimisation, Run };

/// What kind of value an option holds; decides its JSON type, how the command line parses it and
/// which widget the form uses.
enum class OptionKind {
    Flag,   ///< bool: a check box; on the command line a flag (or a --no- flag when on by default)
    Count,  ///< unsigned whole number within [minimum, maximum]
    Integer,   ///< signed whole number within [minimum, maximum]
    Real,      ///< finite number within [minimum, maximum]
    Seed,      ///< any 64-bit unsigned number
    Choice,    ///< one of choices[].name (an enum of TrainingConfig)
    Device,    ///< "cpu", "cuda" or "cuda:N"; the form lists this machine's devices
    ByteSize,  ///< bytes or nothing (off); text like "16GiB" or "800 MiB" on the command line
};

/// One value of a Choice option: the enum value it stands for, and its names. The enum's
/// names live only here (toString(PaddingMode) and the others read them).
struct OptionChoice {
    int value;          ///< the enum value, as int
    const char* name;   ///< in JSON and on the command line: "dynamic"
    const char* label;  ///< in the form: "dynamic: pad each batch to its longest"
};

/// Everything about one training option, declared once: the JSON job format, the command line's
/// flags and the studio's form are all built from the table of these (trainingOptions()), so
/// adding an option is one entry there plus the code that uses it.
///
/// label, help and choice labels are English; the studio translates them in the context
/// "TrainingOptions" (they are marked for Qt's lupdate in TrainingOptions.cpp).
struct OptionDescriptor {
    const char* key;  ///< JSON key and the studio's name: "batch_size"
    const char*
        flag;  ///< the command line's flag: "--batch-size" ("--no-..." for a Flag that negates)
    const char* alias;  ///< a second flag ("-b"), or ""
    const char* label;  ///< the form's label: "Batch size"
    const char*
        help;  ///< one line on what it does, saves and costs: CLI help and the form's tooltip
    OptionGroup group;
    OptionKind kind;
    double minimum = 0.0;  ///< Count, Integer, Real, ByteSize: inclusive range
    double maximum = 0.0;
    int decimals = 0;  ///< Real: decimals the form shows (0: scientific notation)
    std::vector<OptionChoice> choices{};  ///< Choice
    /// The memory-saving technique this option belongs to ("gradient checkpointing"), or "".
    const char* technique = "";
    /// The form enables this option only while another has a value: "cache_release=every-n-steps".
    const char* enabledWhen = "";
    /// The option's value in config, as JSON (null for an unset ByteSize).
    std::function<nlohmann::json(const TrainingConfig&)> get{};
    /// Sets the option from JSON of its kind; throws InputError naming the option for a wrong
    /// type or a value out of range.
    std::function<void(TrainingConfig&, const nlohmann::json&)> set{};
    /// What the option adds to a run's list of techniques ("accumulation x4"), or "" when it adds
    /// nothing in config.
    std::function<std::string(const TrainingConfig&)> summary{};

    /// A Flag whose command-line flag turns it off (--no-oom-recovery).
    bool negatedFlag() const;
    /// Parses command-line text (or a form's text) into the option of config; throws InputError
    /// naming the flag: "--max-length: \"-1\" is not a whole number from 8 to 65536".
    void setFromText(TrainingConfig& config, const std::string& text) const;
    /// The option's value in config as the command line writes it.
    std::string text(const TrainingConfig& config) const;
};

/// Every training option, in the order of the form (group by group) and of the help.
const std::vector<OptionDescriptor>& trainingOptions();

/// The option with this JSON key, or null.
const OptionDescriptor* findTrainingOption(const std::string& key);

/// The command line's flags that turn from into to ("--freeze-layers 4 --precision bf16"), in
/// the table's order; empty when nothing differs.
std::string changedFlags(const TrainingConfig& from, const TrainingConfig& to);

/// "16GiB", "800 MiB", "1.5GB", "123456" -> bytes. Throws InputError.
std::int64_t parseByteSize(const std::string& text);

}  // namespace bert
