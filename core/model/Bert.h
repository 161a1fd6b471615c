#pragma once

// BERT as LibTorch modules whose parameter names are transformers' own, so that a state dict
// moves between the two without renaming:
//   bert.embeddings.word_embeddings.weight, bert.encoder.layer.N.attention.self.query.weight, ...,
//   bert.pooler.dense.weight, classifier.weight.

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <functional>

#include "model/BertConfig.h"

namespace bert {

/// Turns an attention mask [B, S] (1 = token, 0 = padding) into the additive mask [B, 1, 1, S]
/// that scaled_dot_product_attention takes: 0 where attended, the dtype's lowest finite value
/// where masked (not -inf: a fully masked row would give NaN; and it must fit in fp16).
at::Tensor additiveAttentionMask(const at::Tensor& attentionMask, at::ScalarType dtype);

class BertEmbeddingsImpl : public torch::nn::Module {
public:
    explicit BertEmbeddingsImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& inputIds, const at::Tensor& tokenTypeIds);

    torch::nn::Embedding word_embeddings{nullptr};
    torch::nn::Embedding position_embeddings{nullptr};
    torch::nn::Embedding token_type_embeddings{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;  ///< applied with applyDropout (model/Dropout.h)
};
TORCH_MODULE(BertEmbeddings);

class BertSelfAttentionImpl : public torch::nn::Module {
public:
    explicit BertSelfAttentionImpl(const BertConfig& config);
    /// hidden [B, S, H]; keepMask [B, 1, 1, S] bool (true = attend).
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& keepMask);

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
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& residual);

    torch::nn::Linear dense{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;  ///< applied with applyDropout (model/Dropout.h)
};
TORCH_MODULE(BertResidualOutput);

class BertAttentionImpl : public torch::nn::Module {
public:
    explicit BertAttentionImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& keepMask);

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
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& keepMask);

    BertAttention attention{nullptr};
    BertIntermediate intermediate{nullptr};
    BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertLayer);

/// Runs one encoder layer; the default calls it directly, gradient checkpointing replaces it.
using LayerRunner =
    std::function<at::Tensor(BertLayerImpl& layer, const at::Tensor& hidden, const at::Tensor& keepMask)>;

class BertEncoderImpl : public torch::nn::Module {
public:
    explicit BertEncoderImpl(const BertConfig& config);
    at::Tensor forward(at::Tensor hidden, const at::Tensor& keepMask, const LayerRunner& runner);

    torch::nn::ModuleList layer{nullptr};
};
TORCH_MODULE(BertEncoder);

class BertPoolerImpl : public torch::nn::Module {
public:
    explicit BertPoolerImpl(const BertConfig& config);
    at::Tensor forward(const at::Tensor& hidden);

    torch::nn::Linear dense{nullptr};
};
TORCH_MODULE(BertPooler);

/// Inputs of one batch, all [B, S] int64 on the model's device.
struct BertInputs {
    at::Tensor inputIds;
    at::Tensor tokenTypeIds;
    at::Tensor attentionMask;
};

class BertModelImpl : public torch::nn::Module {
public:
    explicit BertModelImpl(const BertConfig& config);
    /// Last hidden states [B, S, H].
    at::Tensor forward(const BertInputs& inputs, const LayerRunner& runner = {});

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
