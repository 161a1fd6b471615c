#pragma once

// EuroBERT's base model as LibTorch modules named as transformers names them: model.embed_tokens,
// model.layers.N.{input_layernorm, self_attn.{q,k,v,o}_proj, post_attention_layernorm,
// mlp.{gate,up,down}_proj}, model.norm. The heads are composed over it (model/Classifiers.h):
// dense and classifier for the sequence head, classifier alone for the token head. Attention runs
// through the engine's layouts like every family's (model/Attention.h), padded or packed; the
// keys and values of grouped-query attention are expanded to every query head first, as
// transformers' repeat_kv does.

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "model/Attention.h"
#include "model/FamilyModules.h"

namespace bert {

/// RMSNorm (transformers' EuroBertRMSNorm): in fp32, x / sqrt(mean(x^2) + eps), cast back, times
/// weight.
class EuroBertRmsNormImpl : public RowModule {
public:
    EuroBertRmsNormImpl(std::int64_t width, double eps);
    at::Tensor forward(const at::Tensor& input) override;

    at::Tensor weight;

private:
    double eps_;
};
TORCH_MODULE(EuroBertRmsNorm);

/// q, k, v projections (k and v with num_key_value_heads heads), rotary embeddings on q and k,
/// attention over k and v expanded to every head, o_proj.
class EuroBertAttentionImpl : public torch::nn::Module {
public:
    explicit EuroBertAttentionImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear q_proj{nullptr};  // NOLINT: transformers' parameter names
    torch::nn::Linear k_proj{nullptr};  // NOLINT
    torch::nn::Linear v_proj{nullptr};  // NOLINT
    torch::nn::Linear o_proj{nullptr};  // NOLINT

private:
    AttentionShape shape_;
    std::int64_t keyValueHeads_;
    double ropeTheta_;
};
TORCH_MODULE(EuroBertAttention);

/// down_proj(act(gate_proj(x)) * up_proj(x)).
class EuroBertMlpImpl : public torch::nn::Module {
public:
    explicit EuroBertMlpImpl(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden);

    torch::nn::Linear gate_proj{nullptr};  // NOLINT: transformers' parameter names
    torch::nn::Linear up_proj{nullptr};    // NOLINT
    torch::nn::Linear down_proj{nullptr};  // NOLINT

private:
    Activation activation_;
};
TORCH_MODULE(EuroBertMlp);

/// Pre-norm: hidden + self_attn(input_layernorm(hidden)), then + mlp(post_attention_layernorm(.)).
class EuroBertLayer : public EncoderLayer {
public:
    explicit EuroBertLayer(const EncoderConfig& config);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    EuroBertRmsNorm input_layernorm{nullptr};           // NOLINT: transformers' names
    EuroBertAttention self_attn{nullptr};               // NOLINT
    EuroBertRmsNorm post_attention_layernorm{nullptr};  // NOLINT
    EuroBertMlp mlp{nullptr};
};

class EuroBertModelImpl : public FamilyEncoder {
public:
    explicit EuroBertModelImpl(const EncoderConfig& config);
    at::Tensor embed(const TokenBatch& batch) override;
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;
    /// norm.
    at::Tensor finish(const at::Tensor& rows) override;

    torch::nn::Embedding embed_tokens{nullptr};  // NOLINT: transformers' parameter names
    torch::nn::ModuleList layers{nullptr};
    EuroBertRmsNorm norm{nullptr};
    std::vector<std::shared_ptr<EuroBertLayer>> layerList;
};
TORCH_MODULE(EuroBertModel);

}  // namespace bert
