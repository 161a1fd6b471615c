#pragma once

// MPNet's base model (transformers' MPNetModel without its pooler) as LibTorch modules under
// transformers' names:
//   mpnet.embeddings.{word_embeddings, position_embeddings, LayerNorm}
//   mpnet.encoder.relative_attention_bias
//   mpnet.encoder.layer.N.attention.attn.{q, k, v, o}, .attention.LayerNorm,
//   .intermediate.dense, .output.dense, .output.LayerNorm
// The embeddings are RoBERTa's without token types (model/bert/BertModel.h). Every layer adds
// the same relative position bias to its attention scores: T5's bidirectional buckets of the
// query-key distance (32 buckets, exact below 8, logarithmic up to 128), looked up in the
// encoder's table. The bucket of each distance is made once and shared; each layer looks the
// bias up itself, so that gradient checkpointing's recompute and the frozen-prefix cache see a
// layer that depends on nothing but its input and the parameters.

#include <mutex>

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "model/bert/BertModel.h"

namespace bert {

/// transformers' MPNetEncoder.relative_position_bucket: the bucket of each relative position
/// (key minus query), int64 of relativePosition's shape.
at::Tensor mpnetRelativePositionBucket(const at::Tensor& relativePosition);

/// The relative position bias table and the buckets of the distances seen so far.
class MpnetRelativeBias {
public:
    explicit MpnetRelativeBias(torch::nn::Embedding table) : table_(std::move(table)) {}
    /// [1, heads, S, S]: the bias of query i and key j, for positions 0 .. S-1.
    at::Tensor forward(std::int64_t length);

private:
    /// [S, S] buckets for the length (a corner of the largest made on this device).
    at::Tensor buckets(std::int64_t length, c10::Device device);

    torch::nn::Embedding table_;
    std::mutex mutex_;
    at::Tensor buckets_;  ///< [L, L] for the longest length L asked on its device
};

class MpnetSelfAttentionImpl : public torch::nn::Module {
public:
    MpnetSelfAttentionImpl(const EncoderConfig& config, std::shared_ptr<MpnetRelativeBias> bias);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear q{nullptr};
    torch::nn::Linear k{nullptr};
    torch::nn::Linear v{nullptr};
    torch::nn::Linear o{nullptr};

private:
    std::shared_ptr<MpnetRelativeBias> bias_;  ///< the encoder's (not a module of this one)
    std::int64_t heads_;
    std::int64_t headDim_;
    double dropout_;
};
TORCH_MODULE(MpnetSelfAttention);

/// "attention": attn, then dropout and the residual LayerNorm.
class MpnetAttentionImpl : public torch::nn::Module {
public:
    MpnetAttentionImpl(const EncoderConfig& config, std::shared_ptr<MpnetRelativeBias> bias);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    MpnetSelfAttention attn{nullptr};
    torch::nn::LayerNorm LayerNorm{nullptr};  // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;
};
TORCH_MODULE(MpnetAttention);

class MpnetLayer : public EncoderLayer {
public:
    MpnetLayer(const EncoderConfig& config, std::shared_ptr<MpnetRelativeBias> bias);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    MpnetAttention attention{nullptr};
    BertIntermediate intermediate{nullptr};
    BertResidualOutput output{nullptr};
};

/// "encoder": the layers and the relative position bias table they share.
class MpnetEncoderImpl : public torch::nn::Module {
public:
    explicit MpnetEncoderImpl(const EncoderConfig& config);

    torch::nn::ModuleList layer{nullptr};
    torch::nn::Embedding relative_attention_bias{nullptr};
    std::vector<std::shared_ptr<MpnetLayer>> layers;
};
TORCH_MODULE(MpnetEncoder);

/// MPNetModel without its pooler (the sequence head is classifier.dense, classifier.out_proj).
class MpnetModelImpl : public FamilyEncoder {
public:
    explicit MpnetModelImpl(const EncoderConfig& config);
    at::Tensor embed(const TokenBatch& batch) override;
    /// The embeddings and the relative position bias table: freezing the embeddings freezes
    /// both, and the frozen-prefix cache holds while both are frozen.
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;

    BertEmbeddings embeddings{nullptr};
    MpnetEncoder encoder{nullptr};
};
TORCH_MODULE(MpnetModel);

}  // namespace bert
