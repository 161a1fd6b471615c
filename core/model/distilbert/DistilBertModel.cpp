#include "model/distilbert/DistilBertModel.h"

#include <ATen/ATen.h>

#include "model/Dropout.h"

namespace bert {

DistilBertSelfAttentionImpl::DistilBertSelfAttentionImpl(const EncoderConfig& config)
    : shape_{.heads = config.numAttentionHeads,
             .headDim = config.headDim(),
             .dropout = config.attentionProbsDropoutProb} {
    const auto h = config.hiddenSize;
    q_lin = register_module("q_lin", torch::nn::Linear(h, h));
    k_lin = register_module("k_lin", torch::nn::Linear(h, h));
    v_lin = register_module("v_lin", torch::nn::Linear(h, h));
    out_lin = register_module("out_lin", torch::nn::Linear(h, h));
}

at::Tensor DistilBertSelfAttentionImpl::forward(const at::Tensor& hidden,
                                                const TokenLayout& layout) {
    return out_lin(
        attendLayout(q_lin(hidden), k_lin(hidden), v_lin(hidden), layout, shape_, is_training()));
}

DistilBertFfnImpl::DistilBertFfnImpl(const EncoderConfig& config)
    : activation_(config.activation()), dropout_(config.hiddenDropoutProb) {
    lin1 = register_module("lin1", torch::nn::Linear(config.hiddenSize, config.intermediateSize));
    lin2 = register_module("lin2", torch::nn::Linear(config.intermediateSize, config.hiddenSize));
}

at::Tensor DistilBertFfnImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return dropHidden(lin2(activate(lin1(hidden), activation_)), dropout_, is_training(), layout);
}

DistilBertLayer::DistilBertLayer(const EncoderConfig& config) {
    attention = register_module("attention", DistilBertSelfAttention(config));
    sa_layer_norm =
        register_module("sa_layer_norm", makeLayerNorm(config.hiddenSize, config.layerNormEps));
    ffn = register_module("ffn", DistilBertFfn(config));
    output_layer_norm =
        register_module("output_layer_norm", makeLayerNorm(config.hiddenSize, config.layerNormEps));
}

at::Tensor DistilBertLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = sa_layer_norm(attention(hidden, layout) + hidden);
    return output_layer_norm(ffn(attended, layout) + attended);
}

DistilBertTransformerImpl::DistilBertTransformerImpl(const EncoderConfig& config) {
    layer = register_module("layer", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layers.push_back(std::make_shared<DistilBertLayer>(config));
        layer->push_back(layers.back());
    }
}

DistilBertModelImpl::DistilBertModelImpl(const EncoderConfig& config) {
    embeddings = register_module("embeddings", BertEmbeddings(config, PositionIds::FromZero));
    transformer = register_module("transformer", DistilBertTransformer(config));
}

at::Tensor DistilBertModelImpl::embed(const TokenBatch& batch) {
    return embeddings(batch);
}

std::vector<std::shared_ptr<torch::nn::Module>> DistilBertModelImpl::embeddingModules() {
    return {embeddings.ptr()};
}

std::vector<std::shared_ptr<EncoderLayer>> DistilBertModelImpl::encoderLayers() {
    return {transformer->layers.begin(), transformer->layers.end()};
}

namespace {

std::shared_ptr<FamilyEncoder> makeDistilBertModel(const EncoderConfig& config) {
    return std::make_shared<DistilBertModelImpl>(config);
}

}  // namespace

const FamilyModules& distilBertModules() {
    static const FamilyModules modules{.family = distilBertFamily, .encoder = makeDistilBertModel};
    return modules;
}

}  // namespace bert
