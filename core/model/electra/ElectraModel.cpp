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

std::vector<std::shared_ptr<torch::nn::Module>> ElectraModelImpl::embeddingModules() {
    std::vector<std::shared_ptr<torch::nn::Module>> stage = {embeddings.ptr()};
    if (embeddings_project) {
        stage.push_back(embeddings_project.ptr());
    }
    return stage;
}

std::vector<std::shared_ptr<EncoderLayer>> ElectraModelImpl::encoderLayers() {
    return {encoder->layers.begin(), encoder->layers.end()};
}

namespace {

std::shared_ptr<FamilyEncoder> makeElectraModel(const EncoderConfig& config) {
    return std::make_shared<ElectraModelImpl>(config);
}

}  // namespace

const FamilyModules& electraModules() {
    static const FamilyModules modules{.family = electraFamily, .encoder = makeElectraModel};
    return modules;
}

}  // namespace bert
