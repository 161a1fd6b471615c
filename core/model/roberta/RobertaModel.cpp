#include "model/roberta/RobertaModel.h"

#include <ATen/ATen.h>

#include "model/Dropout.h"

namespace bert {

RobertaModelImpl::RobertaModelImpl(const EncoderConfig& config) {
    embeddings =
        register_module("embeddings", BertEmbeddings(config, PositionIds::AfterPadding));
    encoder = register_module("encoder", BertEncoder(config));
}

ClassificationHeadImpl::ClassificationHeadImpl(const EncoderConfig& config, Activation activation)
    : activation_(activation), dropout_(config.effectiveClassifierDropout()) {
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
    out_proj = register_module("out_proj",
                               torch::nn::Linear(config.hiddenSize, config.numLabels()));
}

at::Tensor ClassificationHeadImpl::forward(const at::Tensor& top, const TokenLayout& layout) {
    // One row per sequence in micro-batch order in both layouts: the default (row-major) mask
    // layout gives them the same dropout either way.
    auto x = applyDropout(firstTokenRows(top, layout), dropout_, is_training());
    x = dense(x);
    x = activate(x, activation_);
    return out_proj(applyDropout(x, dropout_, is_training()));
}

RobertaForSequenceClassification::RobertaForSequenceClassification(const EncoderConfig& config)
    : SequenceClassifier(config) {
    roberta = register_module("roberta", RobertaModel(config));
    classifier = register_module("classifier", ClassificationHead(config, Activation::Tanh));
    for (const auto& layer : roberta->encoder->layers) {
        addLayer(layer);
    }
}

std::vector<std::shared_ptr<torch::nn::Module>>
RobertaForSequenceClassification::embeddingModules() {
    return {roberta->embeddings.ptr()};
}

std::vector<std::shared_ptr<torch::nn::Module>>
RobertaForSequenceClassification::labelHeadModules() {
    return {classifier->out_proj.ptr()};
}

at::Tensor RobertaForSequenceClassification::embed(const TokenBatch& batch) {
    return roberta->embeddings(batch);
}

at::Tensor RobertaForSequenceClassification::classify(const at::Tensor& top,
                                                      const TokenLayout& layout) {
    return classifier(top, layout);
}

RobertaForTokenClassification::RobertaForTokenClassification(const EncoderConfig& config)
    : LinearTokenClassifier(config, config.effectiveClassifierDropout()) {
    roberta = register_module("roberta", RobertaModel(config));
    addClassifier();
    for (const auto& layer : roberta->encoder->layers) {
        addLayer(layer);
    }
}

std::vector<std::shared_ptr<torch::nn::Module>> RobertaForTokenClassification::embeddingModules() {
    return {roberta->embeddings.ptr()};
}

at::Tensor RobertaForTokenClassification::embed(const TokenBatch& batch) {
    return roberta->embeddings(batch);
}

}  // namespace bert
