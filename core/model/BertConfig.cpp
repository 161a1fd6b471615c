#include "model/BertConfig.h"

#include <map>

#include "Error.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "memory/ProcessMemory.h"
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
    };
    return names;
}

// A field of config.json with its type checked first: a float where a whole number belongs
// (hidden_size 4.2e84) must be refused, not converted (undefined behaviour the fuzzer found).
template <typename T>
T field(const nlohmann::json& json, const char* key, T fallback, const std::filesystem::path& source) {
    return jsonField<T>(json, key, std::move(fallback), source);
}

void requirePositive(std::int64_t value, const char* key, const std::filesystem::path& source) {
    if (value <= 0) {
        throw InputError(source, std::string("field \"") + key + "\" must be positive, not " +
                                     std::to_string(value));
    }
}

// The largest sizes read from a config.json: a few times the biggest BERTs there are, and small
// enough that the parameter arithmetic below cannot overflow. A file past them is refused
// before anything is allocated for it.
struct SizeLimit {
    const char* key;
    std::int64_t maximum;
};
constexpr SizeLimit kSizeLimits[] = {
    {"vocab_size", 10'000'000},     {"hidden_size", 32'768},
    {"num_hidden_layers", 512},     {"num_attention_heads", 1'024},
    {"intermediate_size", 262'144}, {"max_position_embeddings", 1'048'576},
    {"type_vocab_size", 1'024},     {"num_labels", 100'000},
};

void requireAtMost(std::int64_t value, const char* key, const std::filesystem::path& source) {
    for (const auto& limit : kSizeLimits) {
        if (std::string_view(limit.key) == key && value > limit.maximum) {
            throw InputError(source, std::string("field \"") + key + "\" is " +
                                         std::to_string(value) + "; BERT Studio reads at most " +
                                         std::to_string(limit.maximum));
        }
    }
}

void requireProbability(double value, const char* key, const std::filesystem::path& source) {
    if (!(value >= 0.0 && value < 1.0)) {
        throw InputError(source, std::string("field \"") + key +
                                     "\" must be a probability in [0, 1), not " +
                                     std::to_string(value));
    }
}

}  // namespace

std::optional<Activation> parseActivation(const std::string& name) {
    const auto it = activationNames().find(name);
    if (it == activationNames().end()) {
        return std::nullopt;
    }
    return it->second;
}

BertConfig BertConfig::fromFile(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) {
        throw InputError(file, "is missing (a BERT model folder needs config.json)");
    }
    std::string problem;
    auto json = parseJson(readInputFile(file, input_limits::kSmallJson), problem);
    if (!problem.empty()) {
        throw InputError(file, problem);
    }
    return fromJson(json, file);
}

BertConfig BertConfig::fromJson(const nlohmann::json& json, const std::filesystem::path& source) {
    if (!json.is_object()) {
        throw InputError(source, "is not a JSON object");
    }
    const std::string modelType = field<std::string>(json, "model_type", "bert", source);
    if (modelType != "bert") {
        throw InputError(source, "model_type is \"" + modelType +
                                     "\"; BERT Studio reads BERT models (model_type \"bert\")");
    }
    const std::string positions =
        field<std::string>(json, "position_embedding_type", "absolute", source);
    if (positions != "absolute") {
        throw InputError(source, "position_embedding_type \"" + positions +
                                     "\" is not supported (only \"absolute\")");
    }
    BertConfig config;
    config.original = json;
    config.vocabSize = field(json, "vocab_size", config.vocabSize, source);
    config.hiddenSize = field(json, "hidden_size", config.hiddenSize, source);
    config.numHiddenLayers = field(json, "num_hidden_layers", config.numHiddenLayers, source);
    config.numAttentionHeads = field(json, "num_attention_heads", config.numAttentionHeads, source);
    config.intermediateSize = field(json, "intermediate_size", config.intermediateSize, source);
    config.hiddenAct = field(json, "hidden_act", config.hiddenAct, source);
    config.hiddenDropoutProb = field(json, "hidden_dropout_prob", config.hiddenDropoutProb, source);
    config.attentionProbsDropoutProb =
        field(json, "attention_probs_dropout_prob", config.attentionProbsDropoutProb, source);
    if (json.contains("classifier_dropout") && !json["classifier_dropout"].is_null()) {
        config.classifierDropout = field(json, "classifier_dropout", 0.0, source);
    }
    config.maxPositionEmbeddings =
        field(json, "max_position_embeddings", config.maxPositionEmbeddings, source);
    config.typeVocabSize = field(json, "type_vocab_size", config.typeVocabSize, source);
    config.layerNormEps = field(json, "layer_norm_eps", config.layerNormEps, source);
    config.initializerRange = field(json, "initializer_range", config.initializerRange, source);
    config.padTokenId = field(json, "pad_token_id", config.padTokenId, source);

    for (const auto& [key, value] : {std::pair{"vocab_size", config.vocabSize},
                                     {"hidden_size", config.hiddenSize},
                                     {"num_hidden_layers", config.numHiddenLayers},
                                     {"num_attention_heads", config.numAttentionHeads},
                                     {"intermediate_size", config.intermediateSize},
                                     {"max_position_embeddings", config.maxPositionEmbeddings},
                                     {"type_vocab_size", config.typeVocabSize}}) {
        requirePositive(value, key, source);
        requireAtMost(value, key, source);
    }
    requireProbability(config.hiddenDropoutProb, "hidden_dropout_prob", source);
    requireProbability(config.attentionProbsDropoutProb, "attention_probs_dropout_prob", source);
    if (config.classifierDropout) {
        requireProbability(*config.classifierDropout, "classifier_dropout", source);
    }
    if (config.hiddenSize % config.numAttentionHeads != 0) {
        throw InputError(source, "hidden_size " + std::to_string(config.hiddenSize) +
                                     " is not a multiple of num_attention_heads " +
                                     std::to_string(config.numAttentionHeads));
    }
    if (config.padTokenId < 0 || config.padTokenId >= config.vocabSize) {
        throw InputError(source, "pad_token_id " + std::to_string(config.padTokenId) +
                                     " is outside the vocabulary");
    }
    if (!parseActivation(config.hiddenAct)) {
        std::string known;
        for (const auto& [name, value] : activationNames()) {
            known += (known.empty() ? "" : ", ") + name;
        }
        throw InputError(source, "hidden_act \"" + config.hiddenAct +
                                     "\" is not supported (supported: " + known + ")");
    }

    if (json.contains("id2label") && json["id2label"].is_object() && !json["id2label"].empty()) {
        const auto& id2label = json["id2label"];
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
        config.labels = std::move(labels);
    } else if (json.contains("num_labels")) {
        const auto count = field<std::int64_t>(json, "num_labels", 2, source);
        requirePositive(count, "num_labels", source);
        requireAtMost(count, "num_labels", source);
        config.labels.clear();
        for (std::int64_t i = 0; i < count; ++i) {
            config.labels.push_back("LABEL_" + std::to_string(i));
        }
    }
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

std::int64_t BertConfig::parameterCount() const {
    const std::int64_t h = hiddenSize;
    const std::int64_t i = intermediateSize;
    const std::int64_t embeddings = (vocabSize + maxPositionEmbeddings + typeVocabSize) * h + 2 * h;
    const std::int64_t perLayer = 4 * (h * h + h) + 2 * h + (h * i + i) + (i * h + h) + 2 * h;
    const std::int64_t head = (h * h + h) + (h * numLabels() + numLabels());
    return embeddings + perLayer * numHiddenLayers + head;
}

BertConfig BertConfig::preset(const std::string& name, std::int64_t vocabSize) {
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
    BertConfig config;
    config.vocabSize = vocabSize;
    config.numHiddenLayers = it->second.layers;
    config.hiddenSize = it->second.hidden;
    config.numAttentionHeads = it->second.hidden / 64;
    config.intermediateSize = 4 * it->second.hidden;
    return config;
}

std::vector<std::string> BertConfig::presetNames() {
    return {"tiny", "mini", "small", "base"};
}

Activation BertConfig::activation() const {
    return parseActivation(hiddenAct).value();
}

nlohmann::json BertConfig::toJson() const {
    nlohmann::json json = original.is_object() ? original : nlohmann::json::object();
    // Fields of the base model's task heads do not apply to the classifier we write.
    for (const char* stale : {"_name_or_path", "gradient_checkpointing", "num_labels",
                              "finetuning_task", "task_specific_params"}) {
        json.erase(stale);
    }
    json["architectures"] = {"BertForSequenceClassification"};
    json["model_type"] = "bert";
    json["vocab_size"] = vocabSize;
    json["hidden_size"] = hiddenSize;
    json["num_hidden_layers"] = numHiddenLayers;
    json["num_attention_heads"] = numAttentionHeads;
    json["intermediate_size"] = intermediateSize;
    json["hidden_act"] = hiddenAct;
    json["hidden_dropout_prob"] = hiddenDropoutProb;
    json["attention_probs_dropout_prob"] = attentionProbsDropoutProb;
    json["classifier_dropout"] =
        classifierDropout ? nlohmann::json(*classifierDropout) : nlohmann::json(nullptr);
    json["max_position_embeddings"] = maxPositionEmbeddings;
    json["type_vocab_size"] = typeVocabSize;
    json["layer_norm_eps"] = layerNormEps;
    json["initializer_range"] = initializerRange;
    json["pad_token_id"] = padTokenId;
    json["position_embedding_type"] = "absolute";
    json["problem_type"] = "single_label_classification";
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
