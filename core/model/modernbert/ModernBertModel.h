#pragma once

// ModernBERT's base model as LibTorch modules named as transformers names them: model.embeddings.
// {tok_embeddings, norm}, model.layers.N.{attn_norm (not in layer 0), attn.Wqkv, attn.Wo,
// mlp_norm, mlp.Wi, mlp.Wo}, model.final_norm. The heads are composed over it
// (model/Classifiers.h): head.{dense, norm} (a norm of this kind) and classifier, the same names
// for the sequence and the token classifier, which differ only in the rows the head reads
// (pooled, or every token). Attention runs
// through the engine's layouts like every family's (model/Attention.h): unpadded batches are
// what ModernBERT was built for, and its local layers add a sliding window to the mask.

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "model/Attention.h"
#include "model/FamilyModules.h"

namespace bert {

/// LayerNorm whose bias is optional (norm_bias false: weight only), named weight and bias.
class ModernBertNormImpl : public RowModule {
public:
    ModernBertNormImpl(std::int64_t width, double eps, bool withBias);
    at::Tensor forward(const at::Tensor& input) override;

    at::Tensor weight;
    at::Tensor bias;  ///< undefined without norm_bias

private:
    std::int64_t width_;
    double eps_;
};
TORCH_MODULE(ModernBertNorm);

class ModernBertEmbeddingsImpl : public torch::nn::Module {
public:
    explicit ModernBertEmbeddingsImpl(const EncoderConfig& config);
    at::Tensor forward(const TokenBatch& batch);

    torch::nn::Embedding tok_embeddings{nullptr};  // NOLINT: transformers' parameter names
    ModernBertNorm norm{nullptr};

private:
    double dropout_;
};
TORCH_MODULE(ModernBertEmbeddings);

/// Fused Wqkv, rotary embeddings on q and k (the layer's base), attention (global or through
/// the local window), Wo and its dropout.
class ModernBertAttentionImpl : public torch::nn::Module {
public:
    ModernBertAttentionImpl(const EncoderConfig& config, std::int64_t layerIndex);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear Wqkv{nullptr};  // NOLINT: transformers' parameter names
    torch::nn::Linear Wo{nullptr};    // NOLINT

private:
    AttentionShape shape_;
    double ropeTheta_;
};
TORCH_MODULE(ModernBertAttention);

/// Wi gives input and gate; Wo(dropout(act(input) * gate)).
class ModernBertMlpImpl : public torch::nn::Module {
public:
    explicit ModernBertMlpImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear Wi{nullptr};  // NOLINT: transformers' parameter names
    torch::nn::Linear Wo{nullptr};  // NOLINT

private:
    Activation activation_;
    double dropout_;
};
TORCH_MODULE(ModernBertMlp);

/// Pre-norm: hidden + attn(attn_norm(hidden)), then + mlp(mlp_norm(.)); layer 0's attention
/// norm is the identity (the embeddings end with a norm).
class ModernBertLayer : public EncoderLayer {
public:
    ModernBertLayer(const EncoderConfig& config, std::int64_t layerIndex);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    ModernBertNorm attn_norm{nullptr};  // NOLINT: transformers' names; null in layer 0
    ModernBertAttention attn{nullptr};
    ModernBertNorm mlp_norm{nullptr};  // NOLINT
    ModernBertMlp mlp{nullptr};
};

class ModernBertModelImpl : public FamilyEncoder {
public:
    explicit ModernBertModelImpl(const EncoderConfig& config);
    at::Tensor embed(const TokenBatch& batch) override;
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;
    /// final_norm.
    at::Tensor finish(const at::Tensor& rows) override;
    /// head.norm: a ModernBertNorm.
    std::shared_ptr<RowModule> makeHeadNorm(const EncoderConfig& config) const override;

    ModernBertEmbeddings embeddings{nullptr};
    torch::nn::ModuleList layers{nullptr};
    ModernBertNorm final_norm{nullptr};  // NOLINT: transformers' parameter name
    std::vector<std::shared_ptr<ModernBertLayer>> layerList;
};
TORCH_MODULE(ModernBertModel);

/// Rotates q or k ([rows..., heads, head_dim]) by their positions ([rows...] int64, broadcast
/// against the rows) as transformers' apply_rotary_pos_emb does: in fp32, cast back.
at::Tensor applyRotary(const at::Tensor& x, const at::Tensor& positions, double theta);

}  // namespace bert
