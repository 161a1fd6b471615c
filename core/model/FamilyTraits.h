#pragma once

// What distinguishes one encoder family from another, as a small table per family (llama.cpp's
// way): the config.json keys and their defaults, parameter counts, the activations the forecast
// counts, and the names its checkpoints use. No LibTorch here: the studio's settings pages and
// the forecast read these without building a model. The encoder's modules live beside each
// family's table, in model/<family>/<Family>Model.cpp, its ONNX graph in <Family>Graph.cpp; the
// heads are composed once for every family from the table's HeadParts (model/Classifiers.h).
// The families are listed once, in model/FamilyList.h.

#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/EncoderConfig.h"
#include "model/FamilyList.h"

namespace bert {

/// Parameter counts of a classifier (its head kind included), from its configuration alone.
struct ParameterCounts {
    std::int64_t embeddings = 0;  ///< the embedding stage (what "freeze embeddings" freezes)
    std::int64_t perLayer = 0;    ///< one encoder layer
    std::int64_t head = 0;        ///< everything above the last layer: final norm, pooler, head
    std::int64_t total(std::int64_t layers) const { return embeddings + perLayer * layers + head; }
};

/// How a training step computes, as far as the activations it keeps depend on it.
struct ActivationContext {
    bool autocast = false;  ///< bf16/fp16: matmul outputs in 2 bytes
    bool cuda = false;      ///< CUDA's fused attention and dropout instead of the CPU's
};

/// What one encoder layer keeps for backward per token, and the rest of the family's terms of
/// the forecast (train/MemoryForecast.cpp adds them up; each family counts its own forward
/// pass tensor by tensor, for LibTorch's CPU kernels and CUDA's).
struct ActivationShape {
    std::int64_t layerBytesPerToken = 0;  ///< one encoder layer, per token it computes
    /// The embedding stage, when it trains (its parameters need gradients), per token.
    std::int64_t embeddingBytesPerToken = 0;
    /// Elements of every linear weight the layers and the head multiply by (autocast keeps a
    /// low-precision copy of each for the step).
    std::int64_t linearWeights = 0;
    /// Bytes the CPU's attention keeps per head and query-key pair (the softmax output, and with
    /// attention dropout its mask and the dropped weights). CUDA's kernel keeps a log-sum-exp
    /// per query and head instead.
    std::int64_t attentionMapBytes = 0;
    /// Evaluation (forward without gradients) keeps nothing between layers: the bytes per token
    /// of the feed-forward's tensors alive at once beside its fp32 input (memory/
    /// EvaluationForecast.cpp). BERT: the intermediate projection and its activation.
    std::int64_t evaluationFeedForwardBytesPerToken = 0;
    /// The same for attention: its input, query, key, value and output; no score maps, which
    /// scaled_dot_product_attention's fused kernels never form without gradients and dropout.
    std::int64_t evaluationAttentionBytesPerToken = 0;
    /// A token head (HeadKind::Token) over every row: the bytes it keeps for backward per token
    /// of the micro-batch (dropout masks, the inputs its linear layers and norms save), the
    /// logits and the loss's tensors not included. A sequence head: what it keeps over every
    /// row before pooling (EuroBERT's final norm for mean pooling, its whole head for late
    /// pooling); 0 for one that reads only the pooled rows, negligible beside the layers.
    std::int64_t headBytesPerToken = 0;
    /// Bytes per head and query-key pair of an additive mask each layer makes for itself
    /// (MPNet's relative position bias joined to the padding mask, in the attention's dtype):
    /// CUDA's memory-efficient kernel keeps every layer's for backward, the CPU's math path
    /// none; evaluation on CUDA holds one at a time (on the CPU the score maps counted hold
    /// it). 0: the layers share the padding mask (model/Attention.cpp).
    std::int64_t attentionBiasBytes = 0;
    /// Bytes per token of the scores against a relative position table that a layer forms
    /// before gathering each query-key pair's bucket (DeBERTa's content-to-position and
    /// position-to-content products, [G, heads, S, table rows] each). Training keeps every
    /// layer's (the family counts them in layerBytesPerToken); evaluation holds one layer's
    /// (train/EvaluationForecast.cpp). 0: none.
    std::int64_t relativeScoreBytesPerToken = 0;
};

/// A config.json key and the EncoderConfig field it fills (same meaning, the family's name).
struct ConfigKey {
    const char* name;
    std::variant<std::int64_t EncoderConfig::*, double EncoderConfig::*,
                 std::string EncoderConfig::*, bool EncoderConfig::*,
                 std::optional<double> EncoderConfig::*>
        field;
};

/// A config.json model_type a family reads, and transformers' names for it.
struct ModelType {
    std::string name;       ///< "xlm-roberta"
    std::string classStem;  ///< transformers' class-name stem: "XLMRoberta"
    /// The tokenizer class AutoTokenizer picks for it when tokenizer_config.json names none
    /// ("XLMRobertaTokenizer"); empty: transformers has none by model type, the folder's
    /// tokenizer_config.json names it (ModernBERT). tests/core/FamilyRegistryTest.cpp checks that
    /// the tokenizer (tokenizer/json/TokenizerJson.h) resolves the model type to it.
    std::string tokenizerClass;
};

/// One classification head, as the composed heads build it (model/Classifiers.cpp) and their
/// ONNX graph (model/onnx/HeadGraph.cpp). The rows it reads, after the encoder's last step
/// (ModernBERT's final_norm): a sequence head pools (the first token, or the mean of the real
/// tokens: EncoderConfig::pooling), a token head reads every row. Then
///   [dropout] -> [dense -> activation -> [norm]] -> dropout -> classifier
/// with each module at transformers' path of names, so that a state dict moves unchanged.
struct HeadParts {
    /// A dropout before the dense layer too (RoBERTa's and ELECTRA's sequence heads).
    bool dropoutFirst = false;
    /// The dense layer ("bert.pooler.dense", "classifier.dense", "pre_classifier",
    /// "head.dense"), hidden to hidden, with a bias unless EncoderConfig::classifierBias is off;
    /// empty: none.
    std::string dense{};
    /// Its activation; nullopt: the configuration's classifier_activation (ModernBERT).
    std::optional<Activation> activation{};
    /// A norm after the activation, of the encoder's kind ("head.norm"); empty: none.
    std::string norm{};
    /// The linear layer to the labels: the parameters that follow the labels.
    std::string classifier = "classifier";
    /// The dropout probability; null: classifier_dropout, else the hidden dropout (transformers'
    /// usual rule).
    double (*dropout)(const EncoderConfig& config) = nullptr;
    /// The first dropout's probability (dropoutFirst); null: the same as dropout's (DeBERTa's
    /// ContextPooler drops with pooler_dropout before its dense, cls_dropout after).
    double (*firstDropout)(const EncoderConfig& config) = nullptr;

    double dropoutOf(const EncoderConfig& config) const {
        return dropout != nullptr ? dropout(config) : config.effectiveClassifierDropout();
    }
    double firstDropoutOf(const EncoderConfig& config) const {
        return firstDropout != nullptr ? firstDropout(config) : dropoutOf(config);
    }
    Activation activationOf(const EncoderConfig& config) const;
};

struct FamilyTraits {
    std::string name;                   ///< for people: "RoBERTa"
    std::vector<ModelType> modelTypes;  ///< the config.json model_type values it reads
    /// Defaults of its transformers config class, for keys a config.json leaves out.
    EncoderConfig (*defaults)();
    std::vector<ConfigKey> keys;
    /// Family-specific reading and checks after the keys (may be null).
    void (*finishConfig)(EncoderConfig& config, const nlohmann::json& json,
                         const std::filesystem::path& source) = nullptr;
    ParameterCounts (*countParameters)(const EncoderConfig& config);
    ActivationShape (*activations)(const EncoderConfig& config, const ActivationContext& context);
    /// RoBERTa's position ids start after the padding id: the longest sequence is then
    /// max_position_embeddings - pad_token_id - 1 tokens.
    bool positionsAfterPadding = false;
    /// fp16 is known to make its training collapse (DeBERTa-v3's attention scores overflow
    /// fp16's range: microsoft/DeBERTa issue 77): the memory advice never proposes fp16 for it,
    /// and a run or the form that chooses fp16 says why bf16 (fp32's range) is the one to use.
    bool fp16Overflows = false;
    /// transformers' base_model_prefix with its dot: "bert.", "roberta.", "model.". The encoder's
    /// modules are registered under it.
    std::string basePrefix;
    /// The heads on the encoder (<Family>ForSequenceClassification, ...ForTokenClassification).
    HeadParts sequenceHead;
    HeadParts tokenHead;

    /// transformers' class for a model type of this family with this head
    /// ("XLMRobertaForTokenClassification").
    std::string architecture(const std::string& modelType,
                             HeadKind head = HeadKind::Sequence) const;
    const HeadParts& headOf(HeadKind head) const {
        return head == HeadKind::Token ? tokenHead : sequenceHead;
    }
    /// Name prefixes of the parameters whose shape follows the labels (dropped when a folder
    /// is loaded for other labels, as transformers' ignore_mismatched_sizes drops them): the
    /// head's classifier ("classifier.out_proj.").
    std::vector<std::string> labelHeadOf(HeadKind head) const;
    /// The base model's module name: basePrefix without its dot.
    std::string encoderName() const { return basePrefix.substr(0, basePrefix.size() - 1); }
};

/// Every family we implement, BERT first (model/FamilyList.h).
const std::vector<const FamilyTraits*>& modelFamilies();
/// The family reading model_type; throws InputError naming source, the type and the supported
/// ones when none does.
const FamilyTraits& familyOf(const std::string& modelType,
                             const std::filesystem::path& source = {});
/// "bert, roberta, xlm-roberta, ..." for messages.
std::string supportedModelTypes();
/// What a run of model in fp16 should hear (FamilyTraits::fp16Overflows), in one English
/// sentence; empty where fp16 is fine for its family.
std::string fp16Caution(const EncoderConfig& model);

// The families' tables (model/<family>/<Family>Family.cpp): bertFamily(), ...
#define BERT_STUDIO_FAMILY_TABLE(id) const FamilyTraits& id##Family();
BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_TABLE)
#undef BERT_STUDIO_FAMILY_TABLE

/// BERT's config.json keys and position check, shared by RoBERTa and ELECTRA.
std::vector<ConfigKey> bertConfigKeys();
void checkAbsolutePositions(EncoderConfig& config, const nlohmann::json& json,
                            const std::filesystem::path& source);
/// What transformers' usual token head (dropout, then the linear `classifier` on every row)
/// keeps for backward per token: headBytesPerToken of BERT, RoBERTa, DistilBERT and ELECTRA.
std::int64_t dropoutClassifierBytesPerToken(std::int64_t width, double dropout,
                                            const ActivationContext& context);
/// BERT's layer shapes, shared by the families whose layers are BERT's (RoBERTa, ELECTRA).
ParameterCounts bertLayerCounts(const EncoderConfig& config);
ActivationShape bertLayerActivations(const EncoderConfig& config, const ActivationContext& context);

}  // namespace bert
