#pragma once

// transformers' usual token-classification head: dropout, then one linear layer named
// `classifier` over every hidden row (BertForTokenClassification, RobertaFor..., XLMRobertaFor...,
// CamembertFor..., DistilBertFor..., ElectraForTokenClassification). Each family derives from
// it beside its sequence classifier (model/<family>/), registers its encoder under transformers'
// name (bert, roberta, distilbert, electra) and then calls addClassifier(), so that the state
// dict is transformers' own: <prefix>.*, classifier.weight, classifier.bias.

#include <torch/nn/modules/linear.h>

#include "model/SequenceClassifier.h"

namespace bert {

class LinearTokenClassifier : public SequenceClassifier {
public:
    torch::nn::Linear classifier{nullptr};

protected:
    /// dropout: the head's probability (the family's choice: classifier_dropout falling back
    /// to the hidden dropout, or DistilBERT's dropout).
    LinearTokenClassifier(const EncoderConfig& config, double dropout);
    /// Registers `classifier` (hidden size to the labels); call after the encoder, the order
    /// in which transformers registers them.
    void addClassifier();
    /// Logits of every row of top: [B, S, labels] padded, [T, labels] packed. The dropout is
    /// keyed by the layout's rows (model/Dropout.h), so a token drops the same elements packed
    /// or padded.
    at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) override;
    std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() override;

private:
    double dropout_;
};

}  // namespace bert
