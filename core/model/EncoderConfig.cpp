#include "model/EncoderConfig.h"

#include <cmath>
#include <map>

#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "memory/ProcessMemory.h"
#include "model/FamilyTraits.h"
#include "text/Format.h"

namespace bert {

namespace {

const std::map<std::string, Activation>& activationNames() {
    static const std::map<std::string, Activation> names = {
        {"gelu", Activation::Gelu},
        {"gelu_new", Activation::GeluTanh},
        {"gelu_pytorch_tanh", Activation::GeluTanh},
        {"relu", Activation::Relu},
        {"silu", Activation::Silu},
        {"swish", Activation::Silu},
        {"tanh", Activation::Tanh},
    };
    return names;
}

// The largest sizes read from a config.json: a few times the biggest encoders there are, and
// small enough that the parameter arithmetic cannot overflow. A file past them is refused before
// anything is allocated for it. Keyed by our field, named by the family's key in messages.
struct SizeLimit {
    std::int64_t EncoderConfig::*field;
    std::int64_t minimum;
    std::int64_t maximum;
};
constexpr SizeLimit kSizeLimits[] = {
    {&EncoderConfig::vocabSize, 1, 10'000'000},
    {&EncoderConfig::hiddenSize, 1, 32'768},
    {&EncoderConfig::numHiddenLayers, 1, 512},
    {&EncoderConfig::numAttentionHeads, 1, 1'024},
    {&EncoderConfig::intermediateSize, 1, 262'144},
    {&EncoderConfig::maxPositionEmbeddings, 1, 1'048'576},
    {&EncoderConfig::typeVocabSize, 0, 1'024},
    {&EncoderConfig::embeddingSize, 0, 32'768},
    {&EncoderConfig::localAttention, 0, 1'048'576},
    {&EncoderConfig::relativeAttentionNumBuckets, 1, 65'536},
};
constexpr std::int64_t kMaxLabels = 100'000;

std::string keyOf(const FamilyTraits& family, const void* fieldAddress, const EncoderConfig& config,
                  const char* fallback) {
    for (const auto& key : family.keys) {
        const void* address =
            std::visit([&](auto member) -> const void* { return &(config.*member); }, key.field);
        if (address == fieldAddress) {
            return key.name;
        }
    }
    return fallback;
}

void requireProbability(double value, const std::string& key, const std::filesystem::path& source) {
    if (!(value >= 0.0 && value < 1.0)) {
        throw InputError(source, "field \"" + key + "\" must be a probability in [0, 1), not " +
                                     std::to_string(value));
    }
}

void readKey(const ConfigKey& key, const nlohmann::json& json, EncoderConfig& config,
             const std::filesystem::path& source) {
    std::visit(
        [&](auto member) {
            using Field = std::remove_cvref_t<decltype(config.*member)>;
            if constexpr (std::is_same_v<Field, std::optional<double>>) {
                if (json.contains(key.name) && !json[key.name].is_null()) {
                    config.*member = jsonField<double>(json, key.name, 0.0, source);
                }
            } else {
                config.*member = jsonField<Field>(json, key.name, config.*member, source);
            }
        },
        key.field);
}

void writeKey(const ConfigKey& key, const EncoderConfig& config, nlohmann::json& json) {
    std::visit(
        [&](auto member) {
            using Field = std::remove_cvref_t<decltype(config.*member)>;
            if constexpr (std::is_same_v<Field, std::optional<double>>) {
                const auto& value = config.*member;
                json[key.name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
            } else {
                json[key.name] = config.*member;
            }
        },
        key.field);
}

std::vector<std::string> readLabels(const nlohmann::json& json, const std::filesystem::path& source,
                                    std::vector<std::string> fallback) {
    if (json.contains("id2label") && json["id2label"].is_object() && !json["id2label"].empty()) {
        const auto& id2label = json["id2label"];
        if (id2label.size() > static_cast<std::size_t>(kMaxLabels)) {
            throw InputError(source, "id2label has " + std::to_string(id2label.size()) +
                                         " labels; BERT Studio reads at most " +
                                         std::to_string(kMaxLabels));
        }
        std::vector<std::string> labels(id2label.size());
        for (const auto& [key, value] : id2label.items()) {
            std::size_t id = 0;
            try {
                std::size_t used = 0;
                id = std::stoul(key, &used);
                if (used != key.size()) {
                    throw std::invalid_argument(key);
                }
            } catch (const std::exception&) {
                throw InputError(source, "id2label has a key \"" + key + "\" that is not an id");
            }
            if (id >= labels.size() || !value.is_string()) {
                throw InputError(source, "id2label must map the ids 0.." +
                                             std::to_string(labels.size() - 1) + " to names");
            }
            labels[id] = value.get<std::string>();
        }
        return labels;
    }
    if (json.contains("num_labels")) {
        const auto count = jsonField<std::int64_t>(json, "num_labels", 2, source);
        if (count <= 0 || count > kMaxLabels) {
            throw InputError(source, "field \"num_labels\" must be between 1 and " +
                                         std::to_string(kMaxLabels) + ", not " +
                                         std::to_string(count));
        }
        std::vector<std::string> labels;
        for (std::int64_t i = 0; i < count; ++i) {
            labels.push_back("LABEL_" + std::to_string(i));
        }
        return labels;
    }
    return fallback;
}

constexpr const char* kTokenClassificationSuffix = "ForTokenClassification";

HeadKind readHeadKind(const nlohmann::json& json, const std::filesystem::path& source) {
    const auto architectures = json.find("architectures");
    if (architectures == json.end() || architectures->is_null()) {
        return HeadKind::Sequence;
    }
    if (!architectures->is_array()) {
        throw InputError(source, "field \"architectures\" must be a list of class names");
    }
    auto head = HeadKind::Sequence;
    for (const auto& name : *architectures) {
        if (!name.is_string()) {
            throw InputError(source, "field \"architectures\" holds " + name.dump() +
                                         ", which is not a class name");
        }
        if (headKindOfArchitecture(name.get<std::string>()) == HeadKind::Token) {
            head = HeadKind::Token;
        }
    }
    return head;
}

std::optional<ProblemType> readProblemType(const nlohmann::json& json,
                                           const std::filesystem::path& source) {
    const auto field = json.find("problem_type");
    if (field == json.end() || field->is_null()) {
        return std::nullopt;
    }
    const auto name = jsonField<std::string>(json, "problem_type", "", source);
    const auto type = parseProblemType(name);
    if (!type) {
        throw InputError(source, "problem_type \"" + name +
                                     "\" is not one of transformers' (single_label_classification, "
                                     "multi_label_classification, regression)");
    }
    return type;
}

}  // namespace

ProblemType effectiveProblemType(const EncoderConfig& config) {
    if (config.problemType) {
        return *config.problemType;
    }
    // What transformers' sequence classifiers infer when problem_type is unset (from the
    // labels' dtype at the loss; one output can only be a regression).
    return config.numLabels() == 1 ? ProblemType::Regression : ProblemType::SingleLabel;
}

std::string problemTypeName(ProblemType type) {
    switch (type) {
        case ProblemType::SingleLabel:
            return "single_label_classification";
        case ProblemType::MultiLabel:
            return "multi_label_classification";
        case ProblemType::Regression:
            return "regression";
    }
    return "single_label_classification";
}

std::optional<ProblemType> parseProblemType(const std::string& name) {
    for (const auto type :
         {ProblemType::SingleLabel, ProblemType::MultiLabel, ProblemType::Regression}) {
        if (problemTypeName(type) == name) {
            return type;
        }
    }
    return std::nullopt;
}

HeadKind headKindOfArchitecture(const std::string& architecture) {
    const std::string suffix = kTokenClassificationSuffix;
    return architecture.size() > suffix.size() &&
                   architecture.compare(architecture.size() - suffix.size(), suffix.size(),
                                        suffix) == 0
               ? HeadKind::Token
               : HeadKind::Sequence;
}

std::optional<Activation> parseActivation(const std::string& name) {
    const auto it = activationNames().find(name);
    if (it == activationNames().end()) {
        return std::nullopt;
    }
    return it->second;
}

std::string activationNamesList() {
    std::string known;
    for (const auto& [name, value] : activationNames()) {
        known += (known.empty() ? "" : ", ") + name;
    }
    return known;
}

EncoderConfig EncoderConfig::fromFile(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) {
        throw InputError(file, "is missing (a model folder needs config.json)");
    }
    std::string problem;
    auto json = parseJson(readInputFile(file, input_limits::kSmallJson), problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    return fromJson(json, file);
}

EncoderConfig EncoderConfig::fromJson(const nlohmann::json& json,
                                      const std::filesystem::path& source) {
    if (!json.is_object()) {
        throw InputError(source, "is not a JSON object");
    }
    const auto modelType = jsonField<std::string>(json, "model_type", "bert", source);
    const auto& family = familyOf(modelType, source);
    EncoderConfig config = family.defaults();
    config.modelType = modelType;
    config.original = json;
    for (const auto& key : family.keys) {
        readKey(key, json, config, source);
    }

    for (const auto& limit : kSizeLimits) {
        const auto value = config.*limit.field;
        const auto key = keyOf(family, &(config.*limit.field), config, "size");
        if (value < limit.minimum) {
            throw InputError(source, "field \"" + key + "\" must be " +
                                         (limit.minimum > 0 ? "positive" : "at least 0") +
                                         ", not " + std::to_string(value));
        }
        if (value > limit.maximum) {
            throw InputError(source, "field \"" + key + "\" is " + std::to_string(value) +
                                         "; BERT Studio reads at most " +
                                         std::to_string(limit.maximum));
        }
    }
    auto key = [&](const void* field, const char* fallback) {
        return keyOf(family, field, config, fallback);
    };
    requireProbability(config.hiddenDropoutProb, key(&config.hiddenDropoutProb, "dropout"), source);
    requireProbability(config.attentionProbsDropoutProb,
                       key(&config.attentionProbsDropoutProb, "attention_dropout"), source);
    requireProbability(config.mlpDropout, key(&config.mlpDropout, "mlp_dropout"), source);
    if (config.classifierDropout) {
        requireProbability(*config.classifierDropout,
                           key(&config.classifierDropout, "classifier_dropout"), source);
    }
    // A layer norm's epsilon of 0 or less, or NaN, gives NaN outputs (a config with
    // layer_norm_eps -1 printed NaN probabilities); a rotary base must be a positive number too.
    if (!(std::isfinite(config.layerNormEps) && config.layerNormEps > 0.0)) {
        throw InputError(source, "field \"" + key(&config.layerNormEps, "layer_norm_eps") +
                                     "\" must be a positive number, not " +
                                     std::to_string(config.layerNormEps));
    }
    for (const auto* theta : {&config.globalRopeTheta, &config.localRopeTheta}) {
        if (!(std::isfinite(*theta) && *theta >= 0.0)) {
            throw InputError(source, "field \"" + key(theta, "rope_theta") +
                                         "\" must be a positive number, not " +
                                         std::to_string(*theta));
        }
    }
    if (!std::isfinite(config.initializerRange) || config.initializerRange < 0.0) {
        throw InputError(source, "field \"" + key(&config.initializerRange, "initializer_range") +
                                     "\" must be a number of at least 0, not " +
                                     std::to_string(config.initializerRange));
    }
    if (config.hiddenSize % config.numAttentionHeads != 0) {
        throw InputError(source, key(&config.hiddenSize, "hidden_size") + " " +
                                     std::to_string(config.hiddenSize) + " is not a multiple of " +
                                     key(&config.numAttentionHeads, "num_attention_heads") + " " +
                                     std::to_string(config.numAttentionHeads));
    }
    if (config.padTokenId < 0 || config.padTokenId >= config.vocabSize) {
        throw InputError(source, "pad_token_id " + std::to_string(config.padTokenId) +
                                     " is outside the vocabulary");
    }
    for (const auto* activation : {&config.hiddenAct, &config.classifierActivation}) {
        if (!parseActivation(*activation)) {
            throw InputError(source,
                             key(activation, "hidden_act") + " \"" + *activation +
                                 "\" is not supported (supported: " + activationNamesList() + ")");
        }
    }
    if (family.finishConfig != nullptr) {
        family.finishConfig(config, json, source);
    }
    config.labels = readLabels(json, source, config.labels);
    config.head = readHeadKind(json, source);
    config.problemType = readProblemType(json, source);

    // The weights alone must fit this machine's memory: they are made on the CPU first.
    const std::int64_t weightBytes = config.parameterCount() * 4;
    if (const auto memory = physicalMemoryBytes(); memory > 0 && weightBytes > memory) {
        throw InputError(source, "describes a model whose fp32 weights alone take " +
                                     formatBytes(static_cast<double>(weightBytes)) +
                                     "; this machine has " +
                                     formatBytes(static_cast<double>(memory)) + " of memory");
    }
    return config;
}

std::int64_t EncoderConfig::parameterCount() const {
    return familyOf(modelType).countParameters(*this).total(numHiddenLayers);
}

std::int64_t EncoderConfig::maxSequenceLength() const {
    const auto& family = familyOf(modelType);
    return family.positionsAfterPadding ? maxPositionEmbeddings - padTokenId - 1
                                        : maxPositionEmbeddings;
}

EncoderConfig EncoderConfig::preset(const std::string& name, std::int64_t vocabSize) {
    // Sizes of the compact BERTs of Turc et al. (2019), "Well-Read Students Learn Better".
    struct Size {
        std::int64_t layers;
        std::int64_t hidden;
    };
    static const std::map<std::string, Size> sizes = {
        {"tiny", {2, 128}}, {"mini", {4, 256}}, {"small", {4, 512}}, {"base", {12, 768}}};
    const auto it = sizes.find(name);
    if (it == sizes.end()) {
        throw InputError("unknown model preset \"" + name + "\" (tiny, mini, small, base)");
    }
    EncoderConfig config;
    config.vocabSize = vocabSize;
    config.numHiddenLayers = it->second.layers;
    config.hiddenSize = it->second.hidden;
    config.numAttentionHeads = it->second.hidden / 64;
    config.intermediateSize = 4 * it->second.hidden;
    return config;
}

std::vector<std::string> EncoderConfig::presetNames() {
    return {"tiny", "mini", "small", "base"};
}

Activation EncoderConfig::activation() const {
    return parseActivation(hiddenAct).value();
}

nlohmann::json EncoderConfig::toJson() const {
    const auto& family = familyOf(modelType);
    nlohmann::json json = original.is_object() ? original : nlohmann::json::object();
    // Fields of the base model's task heads do not apply to the classifier we write.
    for (const char* stale : {"_name_or_path", "gradient_checkpointing", "num_labels",
                              "finetuning_task", "task_specific_params"}) {
        json.erase(stale);
    }
    json["architectures"] = {family.architecture(modelType, head)};
    json["model_type"] = modelType;
    for (const auto& key : family.keys) {
        writeKey(key, *this, json);
    }
    if (head == HeadKind::Sequence) {
        json["problem_type"] = problemTypeName(effectiveProblemType(*this));
    } else {
        json.erase("problem_type");
    }
    nlohmann::json id2label = nlohmann::json::object();
    nlohmann::json label2id = nlohmann::json::object();
    for (std::size_t i = 0; i < labels.size(); ++i) {
        id2label[std::to_string(i)] = labels[i];
        label2id[labels[i]] = i;
    }
    json["id2label"] = id2label;
    json["label2id"] = label2id;
    return json;
}

}  // namespace bert
