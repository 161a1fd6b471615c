#include "model/bert/BertModel.h"

#include <ATen/ATen.h>

#include "model/Attention.h"
#include "model/Dropout.h"

namespace bert {

// ---- embeddings ------------------------------------------------------------------------------

BertEmbeddingsImpl::BertEmbeddingsImpl(const EncoderConfig& config, PositionIds positions)
    : positions_(positions),
      padId_(config.padTokenId),
      useTokenTypes_(positions == PositionIds::FromZero) {
    const auto width = config.embeddingWidth();
    word_embeddings = register_module(
        "word_embeddings",
        torch::nn::Embedding(
            torch::nn::EmbeddingOptions(config.vocabSize, width).padding_idx(config.padTokenId)));
    auto positionOptions = torch::nn::EmbeddingOptions(config.maxPositionEmbeddings, width);
    if (positions == PositionIds::AfterPadding) {
        // RoBERTa's padding position gets no gradient, as in transformers.
        positionOptions.padding_idx(config.padTokenId);
    }
    position_embeddings =
        register_module("position_embeddings", torch::nn::Embedding(positionOptions));
    if (config.hasTokenTypes()) {
        token_type_embeddings = register_module("token_type_embeddings",
                                                torch::nn::Embedding(config.typeVocabSize, width));
    }
    LayerNorm = register_module("LayerNorm", makeLayerNorm(width, config.layerNormEps));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertEmbeddingsImpl::positionIds(const TokenBatch& batch) const {
    if (positions_ == PositionIds::FromZero) {
        return batch.layout.positions.defined()
                   ? batch.layout.positions
                   : at::arange(batch.inputIds.size(1), batch.inputIds.options()).unsqueeze(0);
    }
    // RoBERTa (create_position_ids_from_input_ids): count the non-padding tokens of each
    // sequence, each one's position is that count plus padding_idx; padding stays at
    // padding_idx. Packed, each sequence's rows are contiguous: its count starts at the row
    // whose position is 0.
    const auto real = batch.inputIds.ne(padId_).to(at::kLong);
    if (!batch.layout.packed) {
        return at::cumsum(real, 1) * real + padId_;
    }
    const auto counts = at::cumsum(real, 0);
    const auto firstRow = at::arange(real.size(0), real.options()) - batch.layout.positions;
    const auto before = counts.index_select(0, firstRow) - real.index_select(0, firstRow);
    return (counts - before) * real + padId_;
}

at::Tensor BertEmbeddingsImpl::forward(const TokenBatch& batch) {
    // transformers' order of the sums: word + token type, then + position.
    auto embedded = word_embeddings(batch.inputIds);
    if (token_type_embeddings) {
        embedded = useTokenTypes_ ? embedded + token_type_embeddings(batch.tokenTypeIds)
                                  : embedded + token_type_embeddings->weight.select(0, 0);
    }
    embedded = embedded + position_embeddings(positionIds(batch));
    return dropHidden(LayerNorm(embedded), dropoutProbability, is_training(), batch.layout);
}

// ---- attention -------------------------------------------------------------------------------

BertSelfAttentionImpl::BertSelfAttentionImpl(const EncoderConfig& config)
    : heads_(config.numAttentionHeads),
      headDim_(config.headDim()),
      dropout_(config.attentionProbsDropoutProb) {
    query = register_module("query", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
    key = register_module("key", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
    value = register_module("value", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
}

at::Tensor BertSelfAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return attendLayout(query(hidden), key(hidden), value(hidden), layout,
                        AttentionShape{.heads = heads_, .headDim = headDim_, .dropout = dropout_},
                        is_training());
}

BertResidualOutputImpl::BertResidualOutputImpl(std::int64_t inFeatures,
                                               const EncoderConfig& config) {
    dense = register_module("dense", torch::nn::Linear(inFeatures, config.hiddenSize));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config.hiddenSize, config.layerNormEps));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertResidualOutputImpl::forward(const at::Tensor& hidden, const at::Tensor& residual,
                                           const TokenLayout& layout) {
    return LayerNorm(dropHidden(dense(hidden), dropoutProbability, is_training(), layout) +
                     residual);
}

BertAttentionImpl::BertAttentionImpl(const EncoderConfig& config) {
    self = register_module("self", BertSelfAttention(config));
    output = register_module("output", BertResidualOutput(config.hiddenSize, config));
}

at::Tensor BertAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return output(self(hidden, layout), hidden, layout);
}

// ---- feed-forward and layer ------------------------------------------------------------------

BertIntermediateImpl::BertIntermediateImpl(const EncoderConfig& config)
    : activation_(config.activation()) {
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.intermediateSize));
}

at::Tensor BertIntermediateImpl::forward(const at::Tensor& hidden) {
    return activate(dense(hidden), activation_);
}

BertLayer::BertLayer(const EncoderConfig& config) {
    attention = register_module("attention", BertAttention(config));
    intermediate = register_module("intermediate", BertIntermediate(config));
    output = register_module("output", BertResidualOutput(config.intermediateSize, config));
}

at::Tensor BertLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = attention(hidden, layout);
    return output(intermediate(attended), attended, layout);
}

BertEncoderImpl::BertEncoderImpl(const EncoderConfig& config) {
    layer = register_module("layer", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layers.push_back(std::make_shared<BertLayer>(config));
        layer->push_back(layers.back());
    }
}

BertModelImpl::BertModelImpl(const EncoderConfig& config, PositionIds positions) {
    embeddings = register_module("embeddings", BertEmbeddings(config, positions));
    encoder = register_module("encoder", BertEncoder(config));
}

at::Tensor BertModelImpl::embed(const TokenBatch& batch) {
    return embeddings(batch);
}

std::vector<std::shared_ptr<torch::nn::Module>> BertModelImpl::embeddingModules() {
    return {embeddings.ptr()};
}

std::vector<std::shared_ptr<EncoderLayer>> BertModelImpl::encoderLayers() {
    return {encoder->layers.begin(), encoder->layers.end()};
}

namespace {

std::shared_ptr<FamilyEncoder> makeBertModel(const EncoderConfig& config) {
    return std::make_shared<BertModelImpl>(config);
}

}  // namespace

const FamilyModules& bertModules() {
    static const FamilyModules modules{.family = bertFamily, .encoder = makeBertModel};
    return modules;
}

}  // namespace bert
