#pragma once

// The classifiers of every family, composed once: a family's base model (model/FamilyModules.h)
// and the head its table describes (model/FamilyTraits.h HeadParts), registered at transformers'
// names, so that <Family>ForSequenceClassification's and <Family>ForTokenClassification's state
// dicts load and save unchanged:
//   bert.embeddings.*, bert.encoder.*, bert.pooler.dense.*, classifier.*           (BERT)
//   roberta.*, classifier.dense.*, classifier.out_proj.*                           (RoBERTa)
//   distilbert.*, pre_classifier.*, classifier.*                                   (DistilBERT)
//   model.*, head.dense.*, head.norm.*, classifier.*                               (ModernBERT)
// and for the token heads the base model and classifier.* (ModernBERT: head.* too).

#include <memory>

#include <torch/nn/modules/linear.h>

#include "model/FamilyModules.h"

namespace bert {

/// A family's base model with the head config.head names (HeadParts: pooling for a sequence
/// head, [dropout], [dense, activation, [norm]], dropout, classifier).
class FamilyClassifier : public SequenceClassifier {
public:
    FamilyClassifier(const EncoderConfig& config, const FamilyModules& modules);
    std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() override;

    /// The base model (registered as the family's base_model_prefix).
    FamilyEncoder& encoder() { return *encoder_; }
    /// The linear layer to the labels.
    torch::nn::LinearImpl& classifier() { return *classifier_; }

protected:
    at::Tensor embed(const TokenBatch& batch) override;
    at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) override;
    std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() override;
    void initializeModule(const std::string& name, torch::nn::Module& module,
                          at::Generator& generator) override;

private:
    /// dense, activation and norm, where the head has them.
    at::Tensor transform(const at::Tensor& rows);

    const FamilyModules& modules_;
    HeadParts head_;
    Activation activation_ = Activation::Gelu;
    double dropout_ = 0.0;
    double firstDropout_ = 0.0;  ///< HeadParts::dropoutFirst's
    std::shared_ptr<FamilyEncoder> encoder_;
    std::shared_ptr<torch::nn::LinearImpl> dense_;  ///< null: the head has none
    std::shared_ptr<RowModule> norm_;               ///< null: the head has none
    std::shared_ptr<torch::nn::LinearImpl> classifier_;
};

/// A freshly constructed (not initialised) classifier of config's family with config.head's
/// head (<Family>ForSequenceClassification or <Family>ForTokenClassification), on the CPU in
/// fp32. Throws InputError for a model type no family implements.
std::shared_ptr<SequenceClassifier> createClassifier(const EncoderConfig& config);

}  // namespace bert
