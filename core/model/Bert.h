#pragma once

// BERT as LibTorch modules whose parameter names are transformers' own, so that a state dict
// moves between the two without renaming:
//   bert.embeddings.word_embeddings.weight, bert.encoder.layer.N.attention.self.query.weight, ...,
//   bert.pooler.dense.weight, classifier.weight.

#include <functional>
#include <vector>

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include "model/BertConfig.h"

namespace bert {

/// Turns an attention mask [B, S] (1 = token, 0 = padding) into the additive mask [B, 1, 1, S]
/// that scaled_dot_product_attention takes: 0 where attended, the dtype's lowest finite value
/// where masked (not -inf: a fully masked row would give NaN; and it must fit in fp16).
at::Tensor additiveAttentionMask(const at::Tensor& attentionMask, at::ScalarType dtype);

/// Sequences of a micro-batch whose attention runs as one padded batch [G, heads, S, S].
struct AttentionGroup {
    std::int64_t length = 0;      ///< S: the group's longest sequence
    std::int64_t firstToken = 0;  ///< packed: the group's tokens are hidden rows
    std::int64_t tokens = 0;      ///< [firstToken, firstToken + tokens)
    /// [G] int64 on the CPU: each sequence's index in the micro-batch (dropout's keys);
    /// undefined: 0 .. G-1.
    at::Tensor sequences;
    /// [G, 1, 1, S] bool on the device, true = a real token; undefined: no padding.
    at::Tensor keepMask;
    /// Packed: [tokens] int64 on the device, each token's row g x S + s in the group's padded
    /// grid; undefined when the group has no padding (its tokens are the grid).
    at::Tensor gridRows;
};

/// How a micro-batch's tokens sit in its hidden states.
///  - Padded: [B, S, H], padding included; attention is one group, the whole batch.
///  - Packed (unpadded batches): [T, H], the T real tokens only, group after group. Every
///    linear, LayerNorm, activation and dropout runs on real tokens alone; attention scatters
///    each group into its own padded grid (the group's longest sequence), attends, and gathers
///    the real tokens back.
/// Dropout keys every hidden row by (sequence b, position s) as b x kMaskPositionStride + s
/// (model/Dropout.h), so a real token gets the same mask packed or padded to any length.
struct TokenLayout {
    std::int64_t sequences = 0;  ///< B
    bool packed = false;
    std::vector<AttentionGroup> groups;
    /// Packed: [B] int64 on the device, the hidden row of each sequence's first token ([CLS]),
    /// in micro-batch order (the pooler's input).
    at::Tensor firstTokens;
    /// [rows of the hidden states] int64 on the CPU: dropout's key of each row.
    at::Tensor maskRows;
};

/// One micro-batch's tokens as the model takes them, padded or packed.
struct TokenBatch {
    at::Tensor inputIds;      ///< padded [B, S]; packed [T]
    at::Tensor tokenTypeIds;  ///< as inputIds
    at::Tensor positionIds;   ///< packed: [T], each token's position; padded: undefined (0..S-1)
    TokenLayout layout;
};

class BertEmbeddingsImpl : public torch::nn::Module {
public:
    explicit BertEmbeddingsImpl(const BertConfig& config);
    /// Hidden states of batch's tokens, in batch's layout.
    at::Tensor forward(const TokenBatch& batch);

    torch::nn::Embedding word_embeddings{nullptr};
    torch::nn::Embedding position_embeddings{nullptr};
    torch::nn::Embedding token_type_embeddings{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;          ///< applied with applyDropout (model/Dropout.h)
};
TORCH_MODULE(BertEmbeddings);

class BertSelfAttentionImpl : public torch::nn::Module {
public:
    explicit BertSelfAttentionImpl(const BertConfig& config);
    /// hidden in layout's form ([B, S, H] or [T, H]); the context in the same form.
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear query{nullptr};
    torch::nn::Linear key{nullptr};
    torch::nn::Linear value{nullptr};

private:
    std::int64_t heads_;
    std::int64_t headDim_;
    double dropout_;
};
TORCH_MODULE(BertSelfAttention);

/// Dense + dropout + residual LayerNorm: "attention.output" and "output" in transformers.
class BertResidualOutputImpl : public torch::nn::Module {
public:
    BertResidualOutputImpl(std::int64_t inFeatures, const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& residual,
                       const TokenLayout& layout);

    torch::nn::Linear dense{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;          ///< applied with applyDropout (model/Dropout.h)
};
TORCH_MODULE(BertResidualOutput);

class BertAttentionImpl : public torch::nn::Module {
public:
    explicit BertAttentionImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    BertSelfAttention self{nullptr};
    BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertAttention);

class BertIntermediateImpl : public torch::nn::Module {
public:
    explicit BertIntermediateImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden);

    torch::nn::Linear dense{nullptr};

private:
    Activation activation_;
};
TORCH_MODULE(BertIntermediate);

class BertLayerImpl : public torch::nn::Module {
public:
    explicit BertLayerImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    BertAttention attention{nullptr};
    BertIntermediate intermediate{nullptr};
    BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertLayer);

/// Runs one encoder layer; the default calls it directly, gradient checkpointing replaces it.
using LayerRunner = std::function<at::Tensor(BertLayerImpl& layer, const at::Tensor& hidden,
                                             const TokenLayout& layout)>;

class BertEncoderImpl : public torch::nn::Module {
public:
    explicit BertEncoderImpl(const BertConfig& config);
    /// Runs layers [first, last) (last -1: to the top) over hidden.
    at::Tensor forward(at::Tensor hidden, const TokenLayout& layout, const LayerRunner& runner,
                       std::int64_t first = 0, std::int64_t last = -1);

    torch::nn::ModuleList layer{nullptr};
};
TORCH_MODULE(BertEncoder);

class BertPoolerImpl : public torch::nn::Module {
public:
    explicit BertPoolerImpl(const BertConfig& config);
    /// tanh(dense(first token of each sequence)): [B, H].
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear dense{nullptr};
};
TORCH_MODULE(BertPooler);

/// Inputs of one batch, all [B, S] int64 on the model's device.
struct BertInputs {
    at::Tensor inputIds;
    at::Tensor tokenTypeIds;
    at::Tensor attentionMask;
};

/// The padded layout of inputs: one attention group masked by its attention mask.
TokenBatch paddedTokenBatch(const BertInputs& inputs);

/// Dropout's keys of padded hidden rows [B x S]: b x kMaskPositionStride + s, on the CPU.
at::Tensor paddedMaskRows(std::int64_t sequences, std::int64_t length);

class BertModelImpl : public torch::nn::Module {
public:
    explicit BertModelImpl(const BertConfig& config);
    /// Last hidden states [B, S, H].
    at::Tensor forward(const BertInputs& inputs, const LayerRunner& runner = {});
    /// Last hidden states in batch's layout.
    at::Tensor forward(const TokenBatch& batch, const LayerRunner& runner = {});

    BertEmbeddings embeddings{nullptr};
    BertEncoder encoder{nullptr};
    BertPooler pooler{nullptr};
};
TORCH_MODULE(BertModel);

/// BertForSequenceClassification: pooled [CLS] -> dropout -> linear to num_labels logits.
class BertForSequenceClassificationImpl : public torch::nn::Module {
public:
    explicit BertForSequenceClassificationImpl(const BertConfig& config);
    /// Logits [B, num_labels].
    at::Tensor forward(const BertInputs& inputs);
    /// Logits [B, num_labels] of a padded or packed micro-batch.
    at::Tensor forward(const TokenBatch& batch);
    /// The hidden states after the embeddings and the lowest `layers` encoder layers: what a
    /// frozen prefix computes (train/PrefixCache.h).
    at::Tensor prefix(const TokenBatch& batch, std::int64_t layers);
    /// Logits from the hidden states after the lowest `layers` layers (prefix's output, or the
    /// cache's), in layout.
    at::Tensor forwardFrom(const at::Tensor& hidden, const TokenLayout& layout,
                           std::int64_t layers);

    /// How encoder layers run (gradient checkpointing installs its own); empty: directly.
    void setLayerRunner(LayerRunner runner) { layerRunner_ = std::move(runner); }
    /// transformers' _init_weights: normal(0, initializer_range) weights, zero biases,
    /// LayerNorm at (1, 0), the padding row of the word embeddings zero. Parameters must be on
    /// the CPU (the generator is a CPU one, for runs that repeat on any machine).
    void initializeWeights(std::uint64_t seed);
    /// Re-initialises the classifier head only (a base model's fresh head).
    void initializeClassifier(std::uint64_t seed);

    const BertConfig& config() const { return config_; }

    BertModel bert{nullptr};
    double dropoutProbability = 0.0;  ///< applied with applyDropout (model/Dropout.h)
    torch::nn::Linear classifier{nullptr};

private:
    BertConfig config_;
    LayerRunner layerRunner_;
};
TORCH_MODULE(BertForSequenceClassification);

}  // namespace bert
