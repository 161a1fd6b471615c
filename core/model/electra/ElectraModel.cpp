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
    std::vector<std::shared_ptr<torch::nn::Module>> stage = {electra->embeddings.ptr()};
    if (electra->embeddings_project) {
        stage.push_back(electra->embeddings_project.ptr());
    }
    return stage;
}

std::vector<std::shared_ptr<torch::nn::Module>>
ElectraForSequenceClassification::labelHeadModules() {
    return {classifier->out_proj.ptr()};
}

at::Tensor ElectraForSequenceClassification::embed(const TokenBatch& batch) {
    auto hidden = electra->embeddings(batch);
    return electra->embeddings_project ? electra->embeddings_project(hidden) : hidden;
}

at::Tensor ElectraForSequenceClassification::classify(const at::Tensor& top,
                                                      const TokenLayout& layout) {
    return classifier(top, layout);
}

}  // namespace bert
