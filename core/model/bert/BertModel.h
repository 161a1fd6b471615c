#pragma once

// BERT's base model as LibTorch modules whose parameter names are transformers' own, so that a
// state dict moves between the two without renaming:
//   bert.embeddings.word_embeddings.weight, bert.encoder.layer.N.attention.self.query.weight, ...
// The heads are composed over it (model/Classifiers.h): the sequence head's pooler
// (bert.pooler.dense) and classifier, the token head's classifier (no pooler: transformers'
// add_pooling_layer=False). RoBERTa and ELECTRA are built from the same embeddings and layers
// (model/roberta/, model/electra/), DistilBERT from the embeddings.

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "model/FamilyModules.h"

namespace bert {

/// How the embeddings number positions.
enum class PositionIds {
    FromZero,      ///< BERT, ELECTRA: 0, 1, 2, ...
    AfterPadding,  ///< RoBERTa: padding_idx + 1, + 2, ... for real tokens, padding_idx for padding
};

/// word + position (+ token type) embeddings, LayerNorm, dropout; of embeddingWidth().
class BertEmbeddingsImpl : public torch::nn::Module {
public:
    BertEmbeddingsImpl(const EncoderConfig& config, PositionIds positions);
    /// Hidden states of batch's tokens, in batch's layout.
    at::Tensor forward(const TokenBatch& batch);

    torch::nn::Embedding word_embeddings{nullptr};
    torch::nn::Embedding position_embeddings{nullptr};
    torch::nn::Embedding token_type_embeddings{nullptr};  ///< null: no token types
    torch::nn::LayerNorm LayerNorm{nullptr};              // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;

private:
    at::Tensor positionIds(const TokenBatch& batch) const;

    PositionIds positions_;
    std::int64_t padId_;
    bool useTokenTypes_;  ///< false: every token is type 0 (RoBERTa's tokenizers give no types)
};
TORCH_MODULE(BertEmbeddings);

class BertSelfAttentionImpl : public torch::nn::Module {
public:
    explicit BertSelfAttentionImpl(const EncoderConfig& config);
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
    BertResidualOutputImpl(std::int64_t inFeatures, const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const at::Tensor& residual,
                       const TokenLayout& layout);

    torch::nn::Linear dense{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;
};
TORCH_MODULE(BertResidualOutput);

class BertAttentionImpl : public torch::nn::Module {
public:
    explicit BertAttentionImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    BertSelfAttention self{nullptr};
    BertResidualOutput output{nullptr};
};
TORCH_MODULE(BertAttention);

class BertIntermediateImpl : public torch::nn::Module {
public:
    explicit BertIntermediateImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden);

    torch::nn::Linear dense{nullptr};

private:
    Activation activation_;
};
TORCH_MODULE(BertIntermediate);

class BertLayer : public EncoderLayer {
public:
    explicit BertLayer(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    BertAttention attention{nullptr};
    BertIntermediate intermediate{nullptr};
    BertResidualOutput output{nullptr};
};

/// "encoder.layer.N": the layers as a ModuleList, and the same layers for the classifier.
class BertEncoderImpl : public torch::nn::Module {
public:
    explicit BertEncoderImpl(const EncoderConfig& config);

    torch::nn::ModuleList layer{nullptr};
    std::vector<std::shared_ptr<BertLayer>> layers;
};
TORCH_MODULE(BertEncoder);

/// BertModel without its pooler (the sequence head's, model/FamilyTraits.h HeadParts), and
/// RobertaModel (positions after the padding id).
class BertModelImpl : public FamilyEncoder {
public:
    explicit BertModelImpl(const EncoderConfig& config,
                           PositionIds positions = PositionIds::FromZero);
    at::Tensor embed(const TokenBatch& batch) override;
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;

    BertEmbeddings embeddings{nullptr};
    BertEncoder encoder{nullptr};
};
TORCH_MODULE(BertModel);

}  // namespace bert
