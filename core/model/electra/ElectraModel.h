#pragma once

// The ELECTRA discriminator's base model as LibTorch modules named as transformers names them:
// electra.embeddings.* (BERT's, of embedding_size), electra.embeddings_project.* (when
// embedding_size differs from hidden_size), electra.encoder.layer.N.* (BERT's layers). The heads
// are composed over it (model/Classifiers.h): the sequence head is RoBERTa's with GELU
// (classifier.dense, classifier.out_proj), the token head one linear classifier.

#include "model/bert/BertModel.h"

namespace bert {

class ElectraModelImpl : public FamilyEncoder {
public:
    explicit ElectraModelImpl(const EncoderConfig& config);
    /// The embeddings, projected up to the hidden size where they are narrower.
    at::Tensor embed(const TokenBatch& batch) override;
    /// The embedding stage's modules: the embeddings and their projection, if any.
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;
    std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() override;

    BertEmbeddings embeddings{nullptr};
    torch::nn::Linear embeddings_project{nullptr};  // NOLINT: transformers' name; null: none
    BertEncoder encoder{nullptr};
};
TORCH_MODULE(ElectraModel);

}  // namespace bert
