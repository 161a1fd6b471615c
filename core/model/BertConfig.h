#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace bert {

/// Activation of the feed-forward block (config.json "hidden_act").
enum class Activation {
    Gelu,      ///< "gelu": exact, erf-based
    GeluTanh,  ///< "gelu_new", "gelu_pytorch_tanh": tanh approximation
    Relu,      ///< "relu"
    Silu,      ///< "silu", "swish"
};

/// A BERT configuration: every field of transformers' BertConfig that changes the computation,
/// plus the label names of a classifier. Unknown fields of the source config.json are kept and
/// written back on export.
struct BertConfig {
    std::int64_t vocabSize = 30522;
    std::int64_t hiddenSize = 768;
    std::int64_t numHiddenLayers = 12;
    std::int64_t numAttentionHeads = 12;
    std::int64_t intermediateSize = 3072;
    std::string hiddenAct = "gelu";
    double hiddenDropoutProb = 0.1;
    double attentionProbsDropoutProb = 0.1;
    std::optional<double> classifierDropout;  ///< unset: hiddenDropoutProb, as in transformers
    std::int64_t maxPositionEmbeddings = 512;
    std::int64_t typeVocabSize = 2;
    double layerNormEps = 1e-12;
    double initializerRange = 0.02;
    std::int64_t padTokenId = 0;
    /// Label names in id order (id2label). Two generic labels when config.json has none.
    std::vector<std::string> labels = {"LABEL_0", "LABEL_1"};
    /// The config.json this came from, for the fields above that we do not model.
    nlohmann::json original = nlohmann::json::object();

    /// Reads and validates config.json; throws InputError naming the file and the field.
    static BertConfig fromFile(const std::filesystem::path& file);
    /// Validates a parsed config; `source` names the file in error messages.
    static BertConfig fromJson(const nlohmann::json& json, const std::filesystem::path& source);
    /// From-scratch presets: "tiny", "mini", "small", "base" (Turc et al. 2019 sizes).
    static BertConfig preset(const std::string& name, std::int64_t vocabSize = 30522);
    static std::vector<std::string> presetNames();

    /// config.json for BertForSequenceClassification, loadable by transformers.
    nlohmann::json toJson() const;

    Activation activation() const;
    std::int64_t numLabels() const { return static_cast<std::int64_t>(labels.size()); }
    /// Parameters of a BertForSequenceClassification of this configuration.
    std::int64_t parameterCount() const;
    std::int64_t headDim() const { return hiddenSize / numAttentionHeads; }
    double effectiveClassifierDropout() const {
        return classifierDropout.value_or(hiddenDropoutProb);
    }
};

/// Parses a hidden_act name; nullopt when it is not one we implement.
std::optional<Activation> parseActivation(const std::string& name);

}  // namespace bert
