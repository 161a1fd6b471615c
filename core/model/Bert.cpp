#include "model/Bert.h"

#include "model/Dropout.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <limits>

namespace bert {

namespace {

torch::nn::LayerNorm makeLayerNorm(const BertConfig& config) {
    return torch::nn::LayerNorm(
        torch::nn::LayerNormOptions({config.hiddenSize}).eps(config.layerNormEps));
}

double lowestFinite(at::ScalarType dtype) {
    switch (dtype) {
        case at::kHalf:
            return static_cast<double>(std::numeric_limits<at::Half>::lowest());
        case at::kBFloat16:
            return static_cast<double>(std::numeric_limits<at::BFloat16>::lowest());
        case at::kDouble:
            return std::numeric_limits<double>::lowest();
        default:
            return static_cast<double>(std::numeric_limits<float>::lowest());
    }
}

}  // namespace

at::Tensor additiveAttentionMask(const at::Tensor& attentionMask, at::ScalarType dtype) {
    const auto keep = attentionMask.to(at::kBool).unsqueeze(1).unsqueeze(1);
    return at::zeros(keep.sizes(), attentionMask.options().dtype(dtype))
        .masked_fill_(keep.logical_not(), lowestFinite(dtype));
}

// ---- embeddings ------------------------------------------------------------------------------

BertEmbeddingsImpl::BertEmbeddingsImpl(const BertConfig& config) {
    word_embeddings = register_module(
        "word_embeddings",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabSize, config.hiddenSize)
                                 .padding_idx(config.padTokenId)));
    position_embeddings = register_module(
        "position_embeddings",
        torch::nn::Embedding(config.maxPositionEmbeddings, config.hiddenSize));
    token_type_embeddings = register_module(
        "token_type_embeddings", torch::nn::Embedding(config.typeVocabSize, config.hiddenSize));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertEmbeddingsImpl::forward(const at::Tensor& inputIds, const at::Tensor& tokenTypeIds) {
    const auto length = inputIds.size(1);
    const auto positions = at::arange(length, inputIds.options()).unsqueeze(0);
    auto embedded = word_embeddings(inputIds) + token_type_embeddings(tokenTypeIds) +
                    position_embeddings(positions);
    return applyDropout(LayerNorm(embedded), dropoutProbability, is_training());
}

// ---- attention -------------------------------------------------------------------------------

BertSelfAttentionImpl::BertSelfAttentionImpl(const BertConfig& config)
    : heads_(config.numAttentionHeads),
      headDim_(config.headDim()),
      dropout_(config.attentionProbsDropoutProb) {
    query = register_module("query", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
    key = register_module("key", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
    value = register_module("value", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
}

at::Tensor BertSelfAttentionImpl::forward(const at::Tensor& hidden, const at::Tensor& keepMask) {
    const auto batch = hidden.size(0);
    const auto length = hidden.size(1);
    auto split = [&](const at::Tensor& x) {
        return x.view({batch, length, heads_, headDim_}).transpose(1, 2);
    };
    const auto q = split(query(hidden));
    const auto k = split(key(hidden));
    const auto v = split(value(hidden));
    // The additive mask is built in the dtype attention runs in (fp32, or bf16/fp16 under
    // autocast) so that its "minus infinity" is that dtype's lowest finite value.
    const auto mask = additiveAttentionMask(keepMask, q.scalar_type());
    const auto context = dotProductAttention(q, k, v, mask, dropout_, is_training());
    return context.transpose(1, 2).reshape({batch, length, heads_ * headDim_});
}

BertResidualOutputImpl::BertResidualOutputImpl(std::int64_t inFeatures, const BertConfig& config) {
    dense = register_module("dense", torch::nn::Linear(inFeatures, config.hiddenSize));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertResidualOutputImpl::forward(const at::Tensor& hidden, const at::Tensor& residual) {
    return LayerNorm(applyDropout(dense(hidden), dropoutProbability, is_training()) + residual);
}

BertAttentionImpl::BertAttentionImpl(const BertConfig& config) {
    self = register_module("self", BertSelfAttention(config));
    output = register_module("output", BertResidualOutput(config.hiddenSize, config));
}

at::Tensor BertAttentionImpl::forward(const at::Tensor& hidden, const at::Tensor& keepMask) {
    return output(self(hidden, keepMask), hidden);
}

// ---- feed-forward and layer ------------------------------------------------------------------

BertIntermediateImpl::BertIntermediateImpl(const BertConfig& config)
    : activation_(config.activation()) {
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.intermediateSize));
}

at::Tensor BertIntermediateImpl::forward(const at::Tensor& hidden) {
    const auto projected = dense(hidden);
    switch (activation_) {
        case Activation::Gelu:
            return at::gelu(projected);
        case Activation::GeluTanh:
            return at::gelu(projected, "tanh");
        case Activation::Relu:
            return at::relu(projected);
        case Activation::Silu:
            return at::silu(projected);
    }
    return projected;
}

BertLayerImpl::BertLayerImpl(const BertConfig& config) {
    attention = register_module("attention", BertAttention(config));
    intermediate = register_module("intermediate", BertIntermediate(config));
    output = register_module("output", BertResidualOutput(config.intermediateSize, config));
}

at::Tensor BertLayerImpl::forward(const at::Tensor& hidden, const at::Tensor& keepMask) {
    const auto attended = attention(hidden, keepMask);
    return output(intermediate(attended), attended);
}

BertEncoderImpl::BertEncoderImpl(const BertConfig& config) {
    layer = register_module("layer", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layer->push_back(BertLayer(config));
    }
}

at::Tensor BertEncoderImpl::forward(at::Tensor hidden, const at::Tensor& keepMask,
                                    const LayerRunner& runner) {
    for (const auto& module : *layer) {
        auto& block = *module->as<BertLayerImpl>();
        hidden = runner ? runner(block, hidden, keepMask) : block.forward(hidden, keepMask);
    }
    return hidden;
}

BertPoolerImpl::BertPoolerImpl(const BertConfig& config) {
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
}

at::Tensor BertPoolerImpl::forward(const at::Tensor& hidden) {
    return at::tanh(dense(hidden.select(1, 0)));
}

// ---- models ----------------------------------------------------------------------------------

BertModelImpl::BertModelImpl(const BertConfig& config) {
    embeddings = register_module("embeddings", BertEmbeddings(config));
    encoder = register_module("encoder", BertEncoder(config));
    pooler = register_module("pooler", BertPooler(config));
}

at::Tensor BertModelImpl::forward(const BertInputs& inputs, const LayerRunner& runner) {
    const auto keepMask = inputs.attentionMask.to(at::kBool);
    return encoder(embeddings(inputs.inputIds, inputs.tokenTypeIds), keepMask, runner);
}

BertForSequenceClassificationImpl::BertForSequenceClassificationImpl(const BertConfig& config)
    : config_(config) {
    bert = register_module("bert", BertModel(config));
    dropoutProbability = config.effectiveClassifierDropout();
    classifier =
        register_module("classifier", torch::nn::Linear(config.hiddenSize, config.numLabels()));
}

at::Tensor BertForSequenceClassificationImpl::forward(const BertInputs& inputs) {
    const auto hidden = bert->forward(inputs, layerRunner_);
    return classifier(applyDropout(bert->pooler(hidden), dropoutProbability, is_training()));
}

namespace {

void initializeModule(torch::nn::Module& module, double range, std::int64_t padId,
                      at::Generator& generator) {
    const torch::NoGradGuard noGrad;
    if (auto* linear = module.as<torch::nn::LinearImpl>()) {
        linear->weight.normal_(0.0, range, generator);
        if (linear->bias.defined()) {
            linear->bias.zero_();
        }
    } else if (auto* embedding = module.as<torch::nn::EmbeddingImpl>()) {
        embedding->weight.normal_(0.0, range, generator);
        if (embedding->options.padding_idx() && *embedding->options.padding_idx() == padId) {
            embedding->weight[padId].zero_();
        }
    } else if (auto* norm = module.as<torch::nn::LayerNormImpl>()) {
        norm->weight.fill_(1.0);
        norm->bias.zero_();
    }
}

}  // namespace

void BertForSequenceClassificationImpl::initializeWeights(std::uint64_t seed) {
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    for (const auto& module : modules(/*include_self=*/false)) {
        initializeModule(*module, config_.initializerRange, config_.padTokenId, generator);
    }
}

void BertForSequenceClassificationImpl::initializeClassifier(std::uint64_t seed) {
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    initializeModule(*classifier, config_.initializerRange, config_.padTokenId, generator);
}

}  // namespace bert
