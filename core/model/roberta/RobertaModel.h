#pragma once

// RoBERTa (and XLM-RoBERTa, CamemBERT: the same code in transformers) as LibTorch modules named
// as transformers names them: roberta.embeddings.*, roberta.encoder.layer.N.* (BERT's layers),
// classifier.dense.*, classifier.out_proj.*. No pooler: the head reads <s> itself. The token
// classifier: roberta.*, classifier.* (one linear layer over every token).

#include "model/bert/BertModel.h"

namespace bert {

class RobertaModelImpl : public torch::nn::Module {
public:
    explicit RobertaModelImpl(const EncoderConfig& config);

    BertEmbeddings embeddings{nullptr};
    BertEncoder encoder{nullptr};
};
TORCH_MODULE(RobertaModel);

/// dropout -> dense -> activation -> dropout -> out_proj on the first token: RoBERTa's head
/// (tanh) and ELECTRA's (GELU).
class ClassificationHeadImpl : public torch::nn::Module {
public:
    ClassificationHeadImpl(const EncoderConfig& config, Activation activation);
    at::Tensor forward(const at::Tensor& top, const TokenLayout& layout);

    torch::nn::Linear dense{nullptr};
    torch::nn::Linear out_proj{nullptr};  // NOLINT: transformers' parameter name

private:
    Activation activation_;
    double dropout_;
};
TORCH_MODULE(ClassificationHead);

class RobertaForSequenceClassification : public SequenceClassifier {
public:
    explicit RobertaForSequenceClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    RobertaModel roberta{nullptr};
    ClassificationHead classifier{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
    at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) override;
    std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() override;
};

/// RobertaForTokenClassification (XLM-RoBERTa's and CamemBERT's too): every token -> dropout ->
/// linear classifier.
class RobertaForTokenClassification : public LinearTokenClassifier {
public:
    explicit RobertaForTokenClassification(const EncoderConfig& config);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    RobertaModel roberta{nullptr};

protected:
    at::Tensor embed(const TokenBatch& batch) override;
};

}  // namespace bert
