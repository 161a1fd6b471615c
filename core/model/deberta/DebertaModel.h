#pragma once

// DeBERTa-v2's base model (transformers' DebertaV2Model: DeBERTa-v3, mDeBERTa-v3) as LibTorch
// modules under transformers' names:
//   deberta.embeddings.{word_embeddings, [position_embeddings], [token_type_embeddings],
//                       LayerNorm}
//   deberta.encoder.layer.N.attention.self.{query_proj, key_proj, value_proj},
//   .attention.output.{dense, LayerNorm}, .intermediate.dense, .output.{dense, LayerNorm}
//   deberta.encoder.rel_embeddings, deberta.encoder.LayerNorm (norm_rel_ebd "layer_norm")
// Disentangled attention: every layer adds to q.k the content-to-position term q_i . Kr[c2p(i, j)]
// and the position-to-content term k_j . Qr[p2c(j, i)], where Kr and Qr are the layer's own key
// and query projections of the LayerNorm'd relative table (share_att_key) and the indices come
// from the log bucket of i - j (make_log_bucket_position), all scaled by
// 1 / sqrt(head_dim x (1 + terms)). The terms depend on the queries and keys, so they are made
// per attention group in its padded grid (model/Attention.h contentBias), where each sequence's
// rows are its positions: packed batches get each sequence's own relative positions. Each layer
// normalises the table itself, so that gradient checkpointing's recompute and the frozen-prefix
// cache see a layer that depends on nothing but its input and the parameters.

#include <mutex>

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include "model/bert/BertModel.h"

namespace bert {

/// transformers' make_log_bucket_position: the bucket of each relative position (query minus
/// key, int64), op for op so that the logarithm rounds alike; int64 of its shape.
at::Tensor debertaLogBucket(const at::Tensor& relativePosition, std::int64_t bucketSize,
                            std::int64_t maxPosition);

/// att_span: half the relative table's rows (position_buckets, else max_relative_positions).
std::int64_t debertaSpan(const EncoderConfig& config);
/// The relative position of query i and key j from their distance i - j, as transformers'
/// build_relative_position makes it: log buckets, or the distance itself without
/// position_buckets. (Not yet clamped to the table: the indices add span and clamp.)
at::Tensor debertaRelativePosition(const EncoderConfig& config, const at::Tensor& distance);

/// The relative position table (LayerNorm'd where the config says) and the gather indices of
/// the lengths seen so far, shared by the layers.
class DebertaRelativePositions {
public:
    DebertaRelativePositions(const EncoderConfig& config, torch::nn::Embedding table,
                             torch::nn::LayerNorm norm);
    /// att_span: half the table's rows.
    std::int64_t span() const { return span_; }
    /// [2 x span, hidden]: the table, normalised.
    at::Tensor table();
    /// [S, S] int64: content-to-position's index of query i and key j into the table's rows,
    /// clamp(bucket(i - j) + span); position-to-content's, clamp(-bucket(i - j) + span).
    at::Tensor contentToPosition(std::int64_t length, c10::Device device);
    at::Tensor positionToContent(std::int64_t length, c10::Device device);

private:
    void make(std::int64_t length, c10::Device device);

    torch::nn::Embedding table_;
    torch::nn::LayerNorm norm_;  ///< null: norm_rel_ebd "none"
    EncoderConfig config_;
    std::int64_t span_;
    std::mutex mutex_;
    at::Tensor c2p_;  ///< [L, L] for the longest length L asked on its device
    at::Tensor p2c_;
};

class DebertaSelfAttentionImpl : public torch::nn::Module {
public:
    DebertaSelfAttentionImpl(const EncoderConfig& config,
                             std::shared_ptr<DebertaRelativePositions> positions);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear query_proj{nullptr};  // NOLINT: transformers' names
    torch::nn::Linear key_proj{nullptr};    // NOLINT
    torch::nn::Linear value_proj{nullptr};  // NOLINT

private:
    std::shared_ptr<DebertaRelativePositions> positions_;  ///< the encoder's
    std::int64_t heads_;
    std::int64_t headDim_;
    double dropout_;
    double positionDropout_;  ///< pos_dropout on the table: the hidden dropout
    bool c2p_;
    bool p2c_;
    double scaleFactor_;  ///< 1 + the number of position terms
};
TORCH_MODULE(DebertaSelfAttention);

/// "attention": self, then output (dense, dropout, residual LayerNorm).
class DebertaAttentionImpl : public torch::nn::Module {
public:
    DebertaAttentionImpl(const EncoderConfig& config,
                         std::shared_ptr<DebertaRelativePositions> positions);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    DebertaSelfAttention self{nullptr};
    BertResidualOutput output{nullptr};
};
TORCH_MODULE(DebertaAttention);

class DebertaLayer : public EncoderLayer {
public:
    DebertaLayer(const EncoderConfig& config, std::shared_ptr<DebertaRelativePositions> positions);
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) override;

    DebertaAttention attention{nullptr};
    BertIntermediate intermediate{nullptr};
    BertResidualOutput output{nullptr};
};

/// Word embeddings, absolute positions (position_biased_input) and token types
/// (type_vocab_size > 0) where the config has them, LayerNorm, dropout.
class DebertaEmbeddingsImpl : public torch::nn::Module {
public:
    explicit DebertaEmbeddingsImpl(const EncoderConfig& config);
    at::Tensor forward(const TokenBatch& batch);

    torch::nn::Embedding word_embeddings{nullptr};
    torch::nn::Embedding position_embeddings{nullptr};    ///< null: position_biased_input false
    torch::nn::Embedding token_type_embeddings{nullptr};  ///< null: no token types
    torch::nn::LayerNorm LayerNorm{nullptr};              // NOLINT: transformers' parameter name
    double dropoutProbability = 0.0;
};
TORCH_MODULE(DebertaEmbeddings);

/// "encoder": the layers, the relative position table and its LayerNorm.
class DebertaEncoderImpl : public torch::nn::Module {
public:
    explicit DebertaEncoderImpl(const EncoderConfig& config);

    torch::nn::ModuleList layer{nullptr};
    torch::nn::Embedding rel_embeddings{nullptr};  // NOLINT: transformers' name
    torch::nn::LayerNorm LayerNorm{nullptr};       // NOLINT: null without norm_rel_ebd
    std::vector<std::shared_ptr<DebertaLayer>> layers;
};
TORCH_MODULE(DebertaEncoder);

/// DebertaV2Model (the sequence head's ContextPooler is pooler.dense, outside it).
class DebertaModelImpl : public FamilyEncoder {
public:
    explicit DebertaModelImpl(const EncoderConfig& config);
    at::Tensor embed(const TokenBatch& batch) override;
    /// The embeddings and the relative position table with its LayerNorm: freezing the
    /// embeddings freezes them all.
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;

    DebertaEmbeddings embeddings{nullptr};
    DebertaEncoder encoder{nullptr};
};
TORCH_MODULE(DebertaModel);

}  // namespace bert
