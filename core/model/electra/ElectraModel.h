#pragma once

// The ELECTRA discriminator as LibTorch modules named as transformers names them:
// electra.embeddings.* (of embedding_size), electra.embeddings_project.* (when embedding_size
// differs from hidden_size), electra.encoder.layer.N.* (BERT's layers), classifier.dense.*,
// classifier.out_proj.* (RoBERTa's head with GELU); the token classifier's classifier.* is one
// linear layer over every token.

#include "model/roberta/RobertaModel.h"

namespace bert {

class ElectraModelImpl : public torch::nn::Module {
public:
    explicit ElectraModelImpl(const EncoderConfig& config);
    /// The embeddings, projected up to the hidden size where they are narrower.
    at::Tensor embed(const TokenBatch& batch);
    /// The embedding stage's modules: the embeddings and their projection, if any.
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingStage();

    BertEmbeddings embeddings{nullptr};
    torch::nn::Linear embeddings_project{nullptr};  // NOLINT: transformers' name; null: none
    BertEncoder encoder{nullptr};
};
TORCH_MODULE(ElectraModel);

class ElectraForSequenceClassification : public SequenceClassifier {
public:
    explicit ElectraForSequenceClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    ElectraModel electra{nullptr};
    ClassificationHead classifier{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
    at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) override;
    std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() override;
};

/// ElectraForTokenClassification: every token -> dropout -> linear classifier.
class ElectraForTokenClassification : public LinearTokenClassifier {
public:
    explicit ElectraForTokenClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    ElectraModel electra{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
};

}  // namespace bert
