#include "train/TrainingConfig.h"

#include <array>
#include <utility>

#include "Error.h"

namespace bert {

namespace {

template <typename Enum, std::size_t N>
Enum parseEnum(const nlohmann::json& value, const char* field,
               const std::array<std::pair<Enum, const char*>, N>& names) {
    const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    std::string known;
    for (const auto& [e, name] : names) {
        if (text == name) {
            return e;
        }
        known += (known.empty() ? "" : ", ") + std::string(name);
    }
    throw InputError(std::string("training setting \"") + field + "\" is \"" + text +
                     "\"; expected one of " + known);
}

constexpr std::array<std::pair<Precision, const char*>, 3> kPrecisions{
    {{Precision::Fp32, "fp32"}, {Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"}}};
constexpr std::array<std::pair<PaddingMode, const char*>, 2> kPaddings{
    {{PaddingMode::Fixed, "fixed"}, {PaddingMode::Dynamic, "dynamic"}}};
constexpr std::array<std::pair<CacheRelease, const char*>, 3> kReleases{
    {{CacheRelease::Never, "never"}, {CacheRelease::AfterEval, "after-eval"},
     {CacheRelease::EveryNSteps, "every-n-steps"}}};

template <typename Enum, std::size_t N>
std::string enumName(Enum value, const std::array<std::pair<Enum, const char*>, N>& names) {
    for (const auto& [e, name] : names) {
        if (e == value) {
            return name;
        }
    }
    return "?";
}

template <typename T>
void read(const nlohmann::json& json, const char* key, T& field) {
    if (!json.contains(key) || json[key].is_null()) {
        return;
    }
    try {
        field = json[key].get<T>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(std::string("training setting \"") + key + "\" has the wrong type (" +
                         json[key].dump() + ")");
    }
}

}  // namespace

std::string toString(Precision precision) { return enumName(precision, kPrecisions); }
std::string toString(PaddingMode padding) { return enumName(padding, kPaddings); }
std::string toString(CacheRelease release) { return enumName(release, kReleases); }

nlohmann::json TrainingConfig::toJson() const {
    return {
        {"max_length", maxLength},
        {"padding", toString(padding)},
        {"pad_to_multiple_of", padToMultipleOf},
        {"group_by_length", groupByLength},
        {"validation_fraction", validationFraction},
        {"batch_size", batchSize},
        {"accumulation_steps", accumulationSteps},
        {"eval_batch_size", evalBatchSize},
        {"epochs", epochs},
        {"max_steps", maxSteps},
        {"learning_rate", learningRate},
        {"weight_decay", weightDecay},
        {"warmup_ratio", warmupRatio},
        {"max_grad_norm", maxGradNorm},
        {"seed", seed},
        {"eval_every_steps", evalEverySteps},
        {"freeze_embeddings", freezeEmbeddings},
        {"freeze_layers", freezeLayers},
        {"precision", toString(precision)},
        {"gradient_checkpointing", gradientCheckpointing},
        {"cache_release", toString(cacheRelease)},
        {"cache_release_steps", cacheReleaseSteps},
        {"memory_cap_bytes", memoryCapBytes ? nlohmann::json(*memoryCapBytes) : nlohmann::json(nullptr)},
        {"recover_from_oom", recoverFromOom},
        {"device", device},
        {"save_checkpoints", saveCheckpoints},
        {"threads", threads},
    };
}

TrainingConfig TrainingConfig::fromJson(const nlohmann::json& json) {
    if (!json.is_object()) {
        throw InputError("a training configuration must be a JSON object");
    }
    TrainingConfig config;
    read(json, "max_length", config.maxLength);
    if (json.contains("padding")) {
        config.padding = parseEnum(json["padding"], "padding", kPaddings);
    }
    read(json, "pad_to_multiple_of", config.padToMultipleOf);
    read(json, "group_by_length", config.groupByLength);
    read(json, "validation_fraction", config.validationFraction);
    read(json, "batch_size", config.batchSize);
    read(json, "accumulation_steps", config.accumulationSteps);
    read(json, "eval_batch_size", config.evalBatchSize);
    read(json, "epochs", config.epochs);
    read(json, "max_steps", config.maxSteps);
    read(json, "learning_rate", config.learningRate);
    read(json, "weight_decay", config.weightDecay);
    read(json, "warmup_ratio", config.warmupRatio);
    read(json, "max_grad_norm", config.maxGradNorm);
    read(json, "seed", config.seed);
    read(json, "eval_every_steps", config.evalEverySteps);
    read(json, "freeze_embeddings", config.freezeEmbeddings);
    read(json, "freeze_layers", config.freezeLayers);
    if (json.contains("precision")) {
        config.precision = parseEnum(json["precision"], "precision", kPrecisions);
    }
    read(json, "gradient_checkpointing", config.gradientCheckpointing);
    if (json.contains("cache_release")) {
        config.cacheRelease = parseEnum(json["cache_release"], "cache_release", kReleases);
    }
    read(json, "cache_release_steps", config.cacheReleaseSteps);
    if (json.contains("memory_cap_bytes") && !json["memory_cap_bytes"].is_null()) {
        std::int64_t cap = 0;
        read(json, "memory_cap_bytes", cap);
        config.memoryCapBytes = cap;
    }
    read(json, "recover_from_oom", config.recoverFromOom);
    read(json, "device", config.device);
    read(json, "save_checkpoints", config.saveCheckpoints);
    read(json, "threads", config.threads);
    config.validate();
    return config;
}

void TrainingConfig::validate() const {
    auto fail = [](const std::string& problem) { throw InputError("training settings: " + problem); };
    if (batchSize == 0 || accumulationSteps == 0 || evalBatchSize == 0) {
        fail("batch size, accumulation steps and evaluation batch size must be at least 1");
    }
    if (maxLength < 8) {
        fail("max length must be at least 8 tokens");
    }
    if (padToMultipleOf == 0) {
        fail("pad to multiple of must be at least 1");
    }
    if (epochs == 0 && maxSteps == 0) {
        fail("train for at least one epoch or one step");
    }
    if (!(learningRate > 0.0)) {
        fail("the learning rate must be positive");
    }
    if (weightDecay < 0.0 || maxGradNorm < 0.0) {
        fail("weight decay and max gradient norm cannot be negative");
    }
    if (!(warmupRatio >= 0.0 && warmupRatio < 1.0)) {
        fail("the warmup ratio must lie in [0, 1)");
    }
    if (!(validationFraction > 0.0 && validationFraction < 1.0)) {
        fail("the validation fraction must lie between 0 and 1");
    }
    if (cacheRelease == CacheRelease::EveryNSteps && cacheReleaseSteps == 0) {
        fail("cache release every N steps needs N of at least 1");
    }
    if (memoryCapBytes && *memoryCapBytes <= 0) {
        fail("the memory cap must be positive");
    }
    if (device != "cpu" && device.rfind("cuda", 0) != 0) {
        fail("device \"" + device + "\" is neither cpu nor cuda:N");
    }
}

std::string TrainingConfig::techniquesSummary() const {
    std::string summary;
    auto add = [&](const std::string& item) { summary += (summary.empty() ? "" : ", ") + item; };
    add(toString(padding) + " padding");
    if (groupByLength) {
        add("length-grouped");
    }
    if (accumulationSteps > 1) {
        add("accumulation x" + std::to_string(accumulationSteps));
    }
    if (freezeEmbeddings) {
        add("frozen embeddings");
    }
    if (freezeLayers > 0) {
        add("frozen " + std::to_string(freezeLayers) + " layers");
    }
    if (precision != Precision::Fp32) {
        add(toString(precision));
    }
    if (gradientCheckpointing) {
        add("checkpointing");
    }
    if (cacheRelease != CacheRelease::Never) {
        add("cache release " + toString(cacheRelease));
    }
    if (memoryCapBytes) {
        add("cap " + std::to_string(*memoryCapBytes / (1024 * 1024)) + " MiB");
    }
    return summary;
}

}  // namespace bert
