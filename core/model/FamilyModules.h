#pragma once

// A family's encoder as LibTorch modules: what the classifiers, composed once for every family
// (model/Classifiers.h), put a head on. Each family defines id##Modules() in its folder
// (model/<family>/<Family>Model.cpp; the list is model/FamilyList.h): the base model that
// transformers registers under base_model_prefix (BertModel as "bert", ModernBertModel as
// "model"), with transformers' parameter names, so that a state dict moves unchanged.

#include <memory>
#include <string>
#include <vector>

#include <ATen/core/Generator.h>

#include "model/FamilyTraits.h"
#include "model/SequenceClassifier.h"

namespace bert {

/// Rows to rows of the same width: a head's norm (HeadParts::norm).
class RowModule : public torch::nn::Module {
public:
    virtual at::Tensor forward(const at::Tensor& rows) = 0;
};

/// A family's base model: embeddings, encoder layers and whatever follows the top layer before
/// any head.
class FamilyEncoder : public torch::nn::Module {
public:
    /// The embedding stage's output, in batch's layout.
    virtual at::Tensor embed(const TokenBatch& batch) = 0;
    /// The modules of the embedding stage: what freezing the embeddings freezes and what the
    /// frozen-prefix cache keeps in eval mode.
    virtual std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() = 0;
    /// The encoder layers, bottom first (registered as modules of this one).
    virtual std::vector<std::shared_ptr<EncoderLayer>> encoderLayers() = 0;
    /// What every row of the top layer goes through before either head, row by row (ModernBERT's
    /// final_norm); the identity by default.
    virtual at::Tensor finish(const at::Tensor& rows) { return rows; }
    /// A norm of the encoder's kind for a head that has one (HeadParts::norm); only asked of
    /// families whose head names one.
    virtual std::shared_ptr<RowModule> makeHeadNorm(const EncoderConfig& config) const;
};

/// A family's modules.
struct FamilyModules {
    /// The family's table (model/FamilyTraits.h).
    const FamilyTraits& (*family)();
    /// A fresh base model of this configuration (not initialised).
    std::shared_ptr<FamilyEncoder> (*encoder)(const EncoderConfig& config);
    /// The family's own _init_weights for one module at its path in the classifier, in place of
    /// transformers' default (ModernBERT's truncated normals); null: the default.
    void (*initializeModule)(const std::string& name, torch::nn::Module& module,
                             const EncoderConfig& config, at::Generator& generator) = nullptr;
};

/// Every family's modules, in model/FamilyList.h's order.
const std::vector<const FamilyModules*>& familyModules();
/// The modules of config's family; InputError for a model type no family implements.
const FamilyModules& familyModulesOf(const EncoderConfig& config);

// The families' modules (model/<family>/<Family>Model.cpp): bertModules(), ...
#define BERT_STUDIO_FAMILY_MODULES(id) const FamilyModules& id##Modules();
BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_MODULES)
#undef BERT_STUDIO_FAMILY_MODULES

}  // namespace bert
