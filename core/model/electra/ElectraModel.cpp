#include "model/electra/ElectraModel.h"

namespace bert {

ElectraModelImpl::ElectraModelImpl(const EncoderConfig& config) {
    embeddings = register_module("embeddings", BertEmbeddings(config, PositionIds::FromZero));
    if (config.embeddingWidth() != config.hiddenSize) {
        embeddings_project = register_module(
            "embeddings_project", torch::nn::Linear(config.embeddingWidth(), config.hiddenSize));
    }
    encoder = register_module("encoder", BertEncoder(config));
}

at::Tensor ElectraModelImpl::embed(const TokenBatch& batch) {
    auto hidden = embeddings(batch);
    return embeddings_project ? embeddings_project(hidden) : hidden;
}

std::vector<std::shared_ptr<torch::nn::Module>> ElectraModelImpl::embeddingStage() {
    std::vector<std::shared_ptr<torch::nn::Module>> stage = {embeddings.ptr()};
    if (embeddings_project) {
        stage.push_back(embeddings_project.ptr());
    }
    return stage;
}

ElectraForSequenceClassification::ElectraForSequenceClassification(const EncoderConfig& config)
    : SequenceClassifier(config) {
    electra = register_module("electra", ElectraModel(config));
    classifier = register_module("classifier", ClassificationHead(config, Activation::Gelu));
    for (const auto& layer : electra->encoder->layers) {
        addLayer(layer);
    }
}

std::vector<std::shared_ptr<torch::nn::Module>>
ElectraForSequenceClassification::embeddingModules() {
    return electra->embeddingStage();
}

std::vector<std::shared_ptr<torch::nn::Module>>
ElectraForSequenceClassification::labelHeadModules() {
    return {classifier->out_proj.ptr()};
}

at::Tensor ElectraForSequenceClassification::embed(const TokenBatch& batch) {
    return electra->embed(batch);
}

at::Tensor ElectraForSequenceClassification::classify(const at::Tensor& top,
                                                      const TokenLayout& layout) {
    return classifier(top, layout);
}

ElectraForTokenClassification::ElectraForTokenClassification(const EncoderConfig& config)
    : LinearTokenClassifier(config, config.effectiveClassifierDropout()) {
    electra = register_module("electra", ElectraModel(config));
    addClassifier();
    for (const auto& layer : electra->encoder->layers) {
        addLayer(layer);
    }
}

std::vector<std::shared_ptr<torch::nn::Module>> ElectraForTokenClassification::embeddingModules() {
    return electra->embeddingStage();
}

at::Tensor ElectraForTokenClassification::embed(const TokenBatch& batch) {
    return electra->embed(batch);
}

}  // namespace bert
