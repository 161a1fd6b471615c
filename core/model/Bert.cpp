#include "model/Bert.h"

#include <limits>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "model/Dropout.h"

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

at::Tensor paddedMaskRows(std::int64_t sequences, std::int64_t length) {
    return (at::arange(sequences, at::kLong).unsqueeze(1) * kMaskPositionStride +
            at::arange(length, at::kLong).unsqueeze(0))
        .reshape({-1});
}

TokenBatch paddedTokenBatch(const BertInputs& inputs) {
    TokenBatch batch;
    batch.inputIds = inputs.inputIds;
    batch.tokenTypeIds = inputs.tokenTypeIds;
    const auto sequences = inputs.inputIds.size(0);
    const auto length = inputs.inputIds.size(1);
    AttentionGroup group;
    group.length = length;
    group.tokens = sequences * length;
    group.keepMask = inputs.attentionMask.to(at::kBool).view({sequences, 1, 1, length});
    batch.layout.sequences = sequences;
    batch.layout.groups.push_back(std::move(group));
    batch.layout.maskRows = paddedMaskRows(sequences, length);
    return batch;
}

namespace {

// Dropout over hidden rows keyed by the layout (see TokenLayout).
at::Tensor dropHidden(const at::Tensor& hidden, double p, bool training,
                      const TokenLayout& layout) {
    return applyDropout(hidden, p, training, MaskLayout{layout.maskRows, hidden.size(-1)});
}

}  // namespace

// ---- embeddings ------------------------------------------------------------------------------

BertEmbeddingsImpl::BertEmbeddingsImpl(const BertConfig& config) {
    word_embeddings = register_module(
        "word_embeddings",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabSize, config.hiddenSize)
                                 .padding_idx(config.padTokenId)));
    position_embeddings =
        register_module("position_embeddings",
                        torch::nn::Embedding(config.maxPositionEmbeddings, config.hiddenSize));
    token_type_embeddings = register_module(
        "token_type_embeddings", torch::nn::Embedding(config.typeVocabSize, config.hiddenSize));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertEmbeddingsImpl::forward(const TokenBatch& batch) {
    const auto positions =
        batch.positionIds.defined()
            ? batch.positionIds
            : at::arange(batch.inputIds.size(1), batch.inputIds.options()).unsqueeze(0);
    auto embedded = word_embeddings(batch.inputIds) + token_type_embeddings(batch.tokenTypeIds) +
                    position_embeddings(positions);
    return dropHidden(LayerNorm(embedded), dropoutProbability, is_training(), batch.layout);
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

at::Tensor BertSelfAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto q = query(hidden);
    const auto k = key(hidden);
    const auto v = value(hidden);
    const auto width = heads_ * headDim_;
    // One group's attention over [G, heads, S, head_dim]. The additive mask is built in the
    // dtype attention runs in (fp32, or bf16/fp16 under autocast) so that its "minus infinity"
    // is that dtype's lowest finite value.
    // The layer's attention dropout is one mask cut into groups: one seed for all of them, so
    // that packed and padded layers draw alike from the generator.
    std::optional<std::uint64_t> seed;
    if (layout.groups.size() > 1 && dropsOnCpu(q, dropout_, is_training())) {
        seed = drawDropoutSeed();
    }
    auto attend = [&](const AttentionGroup& group, const at::Tensor& gq, const at::Tensor& gk,
                      const at::Tensor& gv) {
        const auto mask = group.keepMask.defined()
                              ? additiveAttentionMask(group.keepMask.flatten(1), q.scalar_type())
                              : at::Tensor();
        return dotProductAttention(gq, gk, gv, mask, dropout_, is_training(), group.sequences,
                                   seed);
    };
    if (!layout.packed) {
        const auto batch = hidden.size(0);
        const auto length = hidden.size(1);
        auto split = [&](const at::Tensor& x) {
            return x.view({batch, length, heads_, headDim_}).transpose(1, 2);
        };
        const auto context = attend(layout.groups.front(), split(q), split(k), split(v));
        return context.transpose(1, 2).reshape({batch, length, width});
    }
    std::vector<at::Tensor> parts;
    parts.reserve(layout.groups.size());
    for (const auto& group : layout.groups) {
        const auto sequences =
            group.keepMask.defined() ? group.keepMask.size(0) : group.tokens / group.length;
        // The group's real tokens into its padded grid [G x S, H] (zeros on padding: masked
        // keys must still be finite), as [G, heads, S, head_dim].
        auto grid = [&](const at::Tensor& x) {
            auto rows = x.narrow(0, group.firstToken, group.tokens);
            if (group.gridRows.defined()) {
                rows = at::zeros({sequences * group.length, width}, rows.options())
                           .index_copy(0, group.gridRows, rows);
            }
            return rows.view({sequences, group.length, heads_, headDim_}).transpose(1, 2);
        };
        auto context = attend(group, grid(q), grid(k), grid(v))
                           .transpose(1, 2)
                           .reshape({sequences * group.length, width});
        parts.push_back(group.gridRows.defined() ? context.index_select(0, group.gridRows)
                                                 : context);
    }
    return parts.size() == 1 ? parts.front() : at::cat(parts);
}

BertResidualOutputImpl::BertResidualOutputImpl(std::int64_t inFeatures, const BertConfig& config) {
    dense = register_module("dense", torch::nn::Linear(inFeatures, config.hiddenSize));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor BertResidualOutputImpl::forward(const at::Tensor& hidden, const at::Tensor& residual,
                                           const TokenLayout& layout) {
    return LayerNorm(dropHidden(dense(hidden), dropoutProbability, is_training(), layout) +
                     residual);
}

BertAttentionImpl::BertAttentionImpl(const BertConfig& config) {
    self = register_module("self", BertSelfAttention(config));
    output = register_module("output", BertResidualOutput(config.hiddenSize, config));
}

at::Tensor BertAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return output(self(hidden, layout), hidden, layout);
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

at::Tensor BertLayerImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = attention(hidden, layout);
    return output(intermediate(attended), attended, layout);
}

BertEncoderImpl::BertEncoderImpl(const BertConfig& config) {
    layer = register_module("layer", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layer->push_back(BertLayer(config));
    }
}

at::Tensor BertEncoderImpl::forward(at::Tensor hidden, const TokenLayout& layout,
                                    const LayerRunner& runner, std::int64_t first,
                                    std::int64_t last) {
    const auto count = static_cast<std::int64_t>(layer->size());
    last = last < 0 ? count : std::min(last, count);
    for (std::int64_t i = first; i < last; ++i) {
        auto& block = *layer[static_cast<std::size_t>(i)]->as<BertLayerImpl>();
        hidden = runner ? runner(block, hidden, layout) : block.forward(hidden, layout);
    }
    return hidden;
}

BertPoolerImpl::BertPoolerImpl(const BertConfig& config) {
    dense = register_module("dense", torch::nn::Linear(config.hiddenSize, config.hiddenSize));
}

at::Tensor BertPoolerImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto first =
        layout.packed ? hidden.index_select(0, layout.firstTokens) : hidden.select(1, 0);
    return at::tanh(dense(first));
}

// ---- models ----------------------------------------------------------------------------------

BertModelImpl::BertModelImpl(const BertConfig& config) {
    embeddings = register_module("embeddings", BertEmbeddings(config));
    encoder = register_module("encoder", BertEncoder(config));
    pooler = register_module("pooler", BertPooler(config));
}

at::Tensor BertModelImpl::forward(const BertInputs& inputs, const LayerRunner& runner) {
    return forward(paddedTokenBatch(inputs), runner);
}

at::Tensor BertModelImpl::forward(const TokenBatch& batch, const LayerRunner& runner) {
    return encoder->forward(embeddings(batch), batch.layout, runner);
}

BertForSequenceClassificationImpl::BertForSequenceClassificationImpl(const BertConfig& config)
    : config_(config) {
    bert = register_module("bert", BertModel(config));
    dropoutProbability = config.effectiveClassifierDropout();
    classifier =
        register_module("classifier", torch::nn::Linear(config.hiddenSize, config.numLabels()));
}

at::Tensor BertForSequenceClassificationImpl::forward(const BertInputs& inputs) {
    return forward(paddedTokenBatch(inputs));
}

at::Tensor BertForSequenceClassificationImpl::forward(const TokenBatch& batch) {
    return forwardFrom(bert->embeddings(batch), batch.layout, 0);
}

at::Tensor BertForSequenceClassificationImpl::prefix(const TokenBatch& batch, std::int64_t layers) {
    return bert->encoder->forward(bert->embeddings(batch), batch.layout, layerRunner_, 0, layers);
}

at::Tensor BertForSequenceClassificationImpl::forwardFrom(const at::Tensor& hidden,
                                                          const TokenLayout& layout,
                                                          std::int64_t layers) {
    const auto top = bert->encoder->forward(hidden, layout, layerRunner_, layers);
    // The pooled rows are one per sequence in micro-batch order in both layouts: the default
    // (row-major) mask layout gives them the same dropout either way.
    return classifier(
        applyDropout(bert->pooler->forward(top, layout), dropoutProbability, is_training()));
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
