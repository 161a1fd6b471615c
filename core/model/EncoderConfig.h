#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bert {

/// Activation of the feed-forward block (config.json "hidden_act", "activation",
/// "hidden_activation").
enum class Activation {
    Gelu,      ///< "gelu": exact, erf-based
    GeluTanh,  ///< "gelu_new", "gelu_pytorch_tanh": tanh approximation
    Relu,      ///< "relu"
    Silu,      ///< "silu", "swish"
    Tanh,      ///< "tanh" (RoBERTa's classification head)
};

/// How a classifier pools a sequence into one vector.
enum class Pooling {
    First,  ///< the first token ([CLS], <s>)
    Mean,   ///< the mean over the real tokens (ModernBERT's classifier_pooling "mean")
    /// The head over every token, then the mean of the real tokens' logits (EuroBERT's
    /// classifier_pooling "late").
    Late,
};

/// Which head sits on the encoder: what transformers' class (config.json "architectures") says.
/// A base model's folder names no head (BertModel, BertForMaskedLM, ...): it reads as Sequence,
/// and a run sets the head its task needs before the model is made.
enum class HeadKind {
    /// <Family>ForSequenceClassification: one row of logits per sequence, [B, labels]. Single-
    /// label, multi-label and regression all use it; problem_type tells them apart.
    Sequence,
    /// <Family>ForTokenClassification: one row of logits per hidden row (every token), padded
    /// [B, S, labels] or packed [T, labels] in the packed token order.
    Token,
};

/// config.json "problem_type": which loss transformers applies to a sequence head's logits.
enum class ProblemType {
    SingleLabel,  ///< "single_label_classification": softmax cross-entropy
    MultiLabel,   ///< "multi_label_classification": binary cross-entropy with logits per label
    Regression,   ///< "regression": mean squared error (num_labels outputs, usually 1)
};

/// An encoder's configuration, whatever its family: the hyper-parameters every family has under
/// one name (transformers' BERT names: each family maps its own config.json keys onto them, see
/// model/FamilyTraits.h), the few that only some families have, and the label names of a
/// classifier. Unknown fields of the source config.json are kept and written back on export.
struct EncoderConfig {
    std::string modelType = "bert";  ///< config.json model_type: picks the family
    std::int64_t vocabSize = 30522;
    std::int64_t hiddenSize = 768;
    std::int64_t numHiddenLayers = 12;
    std::int64_t numAttentionHeads = 12;
    std::int64_t intermediateSize = 3072;
    std::string hiddenAct = "gelu";
    double hiddenDropoutProb = 0.1;  ///< after embeddings and each residual branch
    double attentionProbsDropoutProb = 0.1;
    std::optional<double> classifierDropout;  ///< unset: hiddenDropoutProb, as in transformers
    std::int64_t maxPositionEmbeddings = 512;
    std::int64_t typeVocabSize = 2;  ///< 0: the family has no token types (DistilBERT, ModernBERT)
    double layerNormEps = 1e-12;
    double initializerRange = 0.02;
    std::int64_t padTokenId = 0;

    // ELECTRA: embeddings narrower than the encoder, projected up. 0: hiddenSize.
    std::int64_t embeddingSize = 0;

    // ModernBERT.
    bool attentionBias = true;   ///< the attention's linear layers have biases
    bool mlpBias = true;         ///< the feed-forward's linear layers have biases
    bool normBias = true;        ///< LayerNorms with a bias
    bool classifierBias = true;  ///< the head's dense layer has a bias
    std::string classifierActivation = "gelu";
    Pooling pooling = Pooling::First;
    double mlpDropout = 0.0;  ///< between the gated activation and the output projection
    /// Per layer: whether it attends through the local sliding window (else globally).
    std::vector<bool> slidingLayers;
    std::int64_t localAttention = 128;  ///< the window: |i - j| <= localAttention / 2
    double globalRopeTheta = 0.0;       ///< rotary base of global layers; 0: no rotary
    double localRopeTheta = 0.0;        ///< and of the local ones
    double initializerCutoffFactor = 2.0;

    // MPNet: rows of the relative position bias table (encoder.relative_attention_bias), one per
    // bucket of query-key distance. transformers buckets into 32 whatever this says.
    std::int64_t relativeAttentionNumBuckets = 32;

    // DeBERTa-v2/v3 (transformers' DebertaV2Config; defaults are its, v3 checkpoints set them):
    // disentangled attention over relative positions, one shared table encoder.rel_embeddings.
    bool relativeAttention = false;          ///< relative_attention
    std::int64_t maxRelativePositions = -1;  ///< max_relative_positions; < 1: max positions
    std::int64_t positionBuckets = -1;       ///< position_buckets; <= 0: no log buckets
    bool positionBiasedInput = true;  ///< position_biased_input: absolute position embeddings
    bool shareAttKey = false;         ///< share_att_key: positions through the layer's q/k
    std::string normRelEbd = "none";  ///< norm_rel_ebd: "layer_norm" normalises the table
    bool contentToPosition = false;   ///< "c2p" in pos_att_type
    bool positionToContent = false;   ///< "p2c" in pos_att_type
    double poolerDropout = 0.0;       ///< pooler_dropout: before the ContextPooler's dense

    // EuroBERT: grouped-query attention, keys and values with fewer heads than the queries, each
    // shared by numAttentionHeads / numKeyValueHeads of them. 0: as many as the queries.
    std::int64_t numKeyValueHeads = 0;

    /// Label names in id order (id2label). Two generic labels when config.json has none. For a
    /// token head: the tags (B-PER, I-PER, O, ...); for regression: one name per output.
    std::vector<std::string> labels = {"LABEL_0", "LABEL_1"};
    /// The head (read from "architectures"; written back as the family's class for it).
    HeadKind head = HeadKind::Sequence;
    /// config.json "problem_type"; nullopt when the file names none. A sequence head is written
    /// with it, or with what transformers infers without it (1 label: regression, otherwise
    /// single-label); a token head is written without (transformers' token classifiers always
    /// use cross-entropy and ignore it).
    std::optional<ProblemType> problemType;
    /// The config.json this came from, for the fields above that we do not model.
    nlohmann::json original = nlohmann::json::object();

    /// Reads and validates config.json; throws InputError naming the file and the field. A
    /// model_type that no family implements is refused with the supported ones listed.
    static EncoderConfig fromFile(const std::filesystem::path& file);
    /// Validates a parsed config; `source` names the file in error messages.
    static EncoderConfig fromJson(const nlohmann::json& json, const std::filesystem::path& source);
    /// From-scratch BERT presets: "tiny", "mini", "small", "base" (Turc et al. 2019 sizes).
    static EncoderConfig preset(const std::string& name, std::int64_t vocabSize = 30522);
    static std::vector<std::string> presetNames();

    /// config.json of the family's classifier with this head, loadable by transformers.
    nlohmann::json toJson() const;

    Activation activation() const;
    std::int64_t numLabels() const { return static_cast<std::int64_t>(labels.size()); }
    /// Parameters of the family's classifier of this configuration (its head included).
    std::int64_t parameterCount() const;
    std::int64_t headDim() const { return hiddenSize / numAttentionHeads; }
    std::int64_t keyValueHeads() const {
        return numKeyValueHeads > 0 ? numKeyValueHeads : numAttentionHeads;
    }
    /// The longest sequence the position embeddings allow (RoBERTa's start after the padding id).
    std::int64_t maxSequenceLength() const;
    std::int64_t embeddingWidth() const { return embeddingSize > 0 ? embeddingSize : hiddenSize; }
    double effectiveClassifierDropout() const {
        return classifierDropout.value_or(hiddenDropoutProb);
    }
    bool hasTokenTypes() const { return typeVocabSize > 0; }
    bool isSliding(std::int64_t layer) const {
        return static_cast<std::size_t>(layer) < slidingLayers.size() &&
               slidingLayers[static_cast<std::size_t>(layer)];
    }
};

/// The problem_type written for this configuration (see EncoderConfig::problemType).
ProblemType effectiveProblemType(const EncoderConfig& config);
/// "single_label_classification", "multi_label_classification", "regression".
std::string problemTypeName(ProblemType type);
/// Parses a problem_type; nullopt when it is none of transformers' three.
std::optional<ProblemType> parseProblemType(const std::string& name);
/// The head that transformers class names: ...ForTokenClassification is Token, any other
/// (a sequence classifier, a base model, a masked-LM) Sequence.
HeadKind headKindOfArchitecture(const std::string& architecture);

/// Parses an activation name; nullopt when it is not one we implement.
std::optional<Activation> parseActivation(const std::string& name);
/// The names parseActivation accepts, comma-separated (for messages).
std::string activationNamesList();

}  // namespace bert
