#pragma once

// BERT as LibTorch modules whose parameter names are transformers' own, so that a state dict
// moves between the two without renaming:
//   bert.embeddings.word_embeddings.weight, bert.encoder.layer.N.attention.self.query.weight, ...,
//   bert.pooler.dense.weight, classifier.weight.
// The token classifier has no pooler (transformers' add_pooling_layer=False): bert.embeddings.*,
// bert.encoder.*, classifier.*. RoBERTa and ELECTRA are built from the same embeddings and
// layers (model/roberta/, model/electra/).

#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include "model/SequenceClassifier.h"
#include "model/TokenClassifier.h"

namespace bert {

/// How the embeddings number positions.
enum class PositionIds {
    FromZero,            ///< BERT, ELECTRA: 0, 1, 2, ...
    AfterPadding,        ///< RoBERTa: padding_idx + 1, + 2, ... for real tokens, padding_idx for padding
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

class BertPoolerImpl : public torch::nn::Module {
public:
    explicit BertPoolerImpl(const EncoderConfig& config);
    /// tanh(dense(first token of each sequence)): [B, H].
    at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout);

    torch::nn::Linear dense{nullptr};
};
TORCH_MODULE(BertPooler);

class BertModelImpl : public torch::nn::Module {
public:
    /// withPooler: transformers' add_pooling_layer (false for the token classifier).
    explicit BertModelImpl(const EncoderConfig& config, bool withPooler = true);

    BertEmbeddings embeddings{nullptr};
    BertEncoder encoder{nullptr};
    BertPooler pooler{nullptr};  ///< null without a pooling layer
};
TORCH_MODULE(BertModel);

/// BertForSequenceClassification: pooled [CLS] -> dropout -> linear to num_labels logits.
class BertForSequenceClassification : public SequenceClassifier {
public:
    explicit BertForSequenceClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    BertModel bert{nullptr};
    torch::nn::Linear classifier{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
    at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) override;
    std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() override;

private:
    double dropoutProbability_;
};

/// BertForTokenClassification: every row -> dropout -> linear to num_labels logits.
class BertForTokenClassification : public LinearTokenClassifier {
public:
    explicit BertForTokenClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    BertModel bert{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
};

}  // namespace bert
