#pragma once

// DistilBERT's base model as LibTorch modules named as transformers names them:
// distilbert.embeddings.* (BERT's, without token types), distilbert.transformer.layer.N.
// {attention.{q,k,v,out}_lin, sa_layer_norm, ffn.lin1, ffn.lin2, output_layer_norm}. The heads
// are composed over it (model/Classifiers.h): pre_classifier + ReLU and classifier for a
// sequence, the classifier alone on every token.

#include "model/Attention.h"
#include "model/bert/BertModel.h"

namespace bert {

class DistilBertSelfAttentionImpl : public torch::nn::Module {
public:
    explicit DistilBertSelfAttentionImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear q_lin{nullptr};    // NOLINT: transformers' parameter names
    torch::nn::Linear k_lin{nullptr};    // NOLINT
    torch::nn::Linear v_lin{nullptr};    // NOLINT
    torch::nn::Linear out_lin{nullptr};  // NOLINT

private:
    AttentionShape shape_;
};
TORCH_MODULE(DistilBertSelfAttention);

class DistilBertFfnImpl : public torch::nn::Module {
public:
    explicit DistilBertFfnImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear lin1{nullptr};
    torch::nn::Linear lin2{nullptr};

private:
    Activation activation_;
    double dropout_;
};
TORCH_MODULE(DistilBertFfn);

/// TransformerBlock: attention, sa_layer_norm(attention + input) (no dropout on the attention's
/// output), ffn (lin1, activation, lin2, dropout), output_layer_norm(ffn + its input).
class DistilBertLayer : public EncoderLayer {
public:
    explicit DistilBertLayer(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    DistilBertSelfAttention attention{nullptr};
    torch::nn::LayerNorm sa_layer_norm{nullptr};  // NOLINT: transformers' parameter names
    DistilBertFfn ffn{nullptr};
    torch::nn::LayerNorm output_layer_norm{nullptr};  // NOLINT
};

/// "transformer.layer.N".
class DistilBertTransformerImpl : public torch::nn::Module {
public:
    explicit DistilBertTransformerImpl(const EncoderConfig& config);

    torch::nn::ModuleList layer{nullptr};
    std::vector<std::shared_ptr<DistilBertLayer>> layers;
};
TORCH_MODULE(DistilBertTransformer);

class DistilBertModelImpl : public FamilyEncoder {
public:
    explicit DistilBertModelImpl(const EncoderConfig& config);
    at::Tensor embed(const TokenBatch& batch) override;
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;

    BertEmbeddings embeddings{nullptr};
    DistilBertTransformer transformer{nullptr};
};
TORCH_MODULE(DistilBertModel);

}  // namespace bert
