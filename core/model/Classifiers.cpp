#include "model/Classifiers.h"

#include <stdexcept>

#include "Error.h"
#include "model/Dropout.h"

namespace bert {

namespace {

/// Registers module at a dotted path below root ("classifier.out_proj", "bert.pooler.dense"),
/// making the missing modules between as plain containers, as transformers' names nest.
template <typename ModuleType>
std::shared_ptr<ModuleType> registerAt(torch::nn::Module& root, const std::string& path,
                                       std::shared_ptr<ModuleType> module) {
    torch::nn::Module* parent = &root;
    std::string rest = path;
    for (auto dot = rest.find('.'); dot != std::string::npos; dot = rest.find('.')) {
        const auto part = rest.substr(0, dot);
        rest = rest.substr(dot + 1);
        auto* child = parent->named_children().find(part);
        parent = child != nullptr
                     ? child->get()
                     : parent->register_module(part, std::make_shared<torch::nn::Module>()).get();
    }
    return parent->register_module(rest, std::move(module));
}

}  // namespace

std::shared_ptr<RowModule> FamilyEncoder::makeHeadNorm(const EncoderConfig&) const {
    throw std::logic_error("this family's encoder makes no head norm");
}

FamilyClassifier::FamilyClassifier(const EncoderConfig& config, const FamilyModules& modules)
    : SequenceClassifier(config),
      modules_(modules),
      head_(modules.family().headOf(config.head)),
      dropout_(head_.dropoutOf(config)),
      firstDropout_(head_.firstDropoutOf(config)) {
    // transformers' order of registration: the base model, then the head's modules.
    encoder_ = register_module(modules.family().encoderName(), modules.encoder(config));
    const auto h = config.hiddenSize;
    if (!head_.dense.empty()) {
        activation_ = head_.activationOf(config);
        dense_ = registerAt(*this, head_.dense,
                            std::make_shared<torch::nn::LinearImpl>(
                                torch::nn::LinearOptions(h, h).bias(config.classifierBias)));
    }
    if (!head_.norm.empty()) {
        norm_ = registerAt(*this, head_.norm, encoder_->makeHeadNorm(config));
    }
    classifier_ = registerAt(*this, head_.classifier,
                             std::make_shared<torch::nn::LinearImpl>(h, config.numLabels()));
    for (const auto& layer : encoder_->encoderLayers()) {
        addLayer(layer);
    }
}

std::vector<std::shared_ptr<torch::nn::Module>> FamilyClassifier::embeddingModules() {
    return encoder_->embeddingModules();
}

std::vector<std::shared_ptr<torch::nn::Module>> FamilyClassifier::labelHeadModules() {
    return {classifier_};
}

at::Tensor FamilyClassifier::embed(const TokenBatch& batch) {
    return encoder_->embed(batch);
}

at::Tensor FamilyClassifier::transform(const at::Tensor& rows) {
    auto x = rows;
    if (dense_) {
        x = activate(dense_->forward(x), activation_);
    }
    return norm_ ? norm_->forward(x) : x;
}

at::Tensor FamilyClassifier::classify(const at::Tensor& top, const TokenLayout& layout) {
    if (config().head == HeadKind::Token) {
        // Every row; the dropout is keyed by the layout's rows (model/Dropout.h), so a token
        // drops the same elements packed or padded.
        const auto rows = transform(encoder_->finish(top));
        return classifier_->forward(dropHidden(rows, dropout_, is_training(), layout));
    }
    if (config().pooling == Pooling::Late) {
        // The head over every row, then each sequence's mean of its real tokens' logits
        // (EuroBERT's "late" pooling); the dropout keyed by the layout's rows as a token head's.
        const auto rows = transform(encoder_->finish(top));
        return meanOfTokens(classifier_->forward(dropHidden(rows, dropout_, is_training(), layout)),
                            layout);
    }
    // One row per sequence in micro-batch order in both layouts: the default (row-major) mask
    // layout gives them the same dropout either way. The encoder's last step works row by row:
    // with first-token pooling only the pooled rows need it.
    auto pooled = config().pooling == Pooling::Mean ? meanOfTokens(encoder_->finish(top), layout)
                                                    : encoder_->finish(firstTokenRows(top, layout));
    if (head_.dropoutFirst) {
        pooled = applyDropout(pooled, firstDropout_, is_training());
    }
    return classifier_->forward(applyDropout(transform(pooled), dropout_, is_training()));
}

void FamilyClassifier::initializeModule(const std::string& name, torch::nn::Module& module,
                                        at::Generator& generator) {
    if (modules_.initializeModule != nullptr) {
        modules_.initializeModule(name, module, config(), generator);
    } else {
        SequenceClassifier::initializeModule(name, module, generator);
    }
}

const std::vector<const FamilyModules*>& familyModules() {
#define BERT_STUDIO_FAMILY_MODULES(id) &id##Modules(),
    static const std::vector<const FamilyModules*> families = {
        BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_MODULES)};
#undef BERT_STUDIO_FAMILY_MODULES
    return families;
}

const FamilyModules& familyModulesOf(const EncoderConfig& config) {
    const auto& family = familyOf(config.modelType);
    for (const auto* modules : familyModules()) {
        if (&modules->family() == &family) {
            return *modules;
        }
    }
    throw std::logic_error("no modules for the family " + family.name);
}

std::shared_ptr<SequenceClassifier> createClassifier(const EncoderConfig& config) {
    return std::make_shared<FamilyClassifier>(config, familyModulesOf(config));
}

}  // namespace bert
