#include "model/deberta/DebertaModel.h"

#include <cctype>
#include <cmath>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "model/Attention.h"
#include "model/Dropout.h"

namespace bert {

namespace {

bool normalisesTable(const EncoderConfig& config) {
    std::string norms = config.normRelEbd;
    for (auto& c : norms) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return norms.find("layer_norm") != std::string::npos;
}

std::int64_t maxRelativeOf(const EncoderConfig& config) {
    return config.maxRelativePositions < 1 ? config.maxPositionEmbeddings
                                           : config.maxRelativePositions;
}

}  // namespace

// ---- relative positions ----------------------------------------------------------------------

at::Tensor debertaLogBucket(const at::Tensor& relativePosition, std::int64_t bucketSize,
                            std::int64_t maxPosition) {
    // make_log_bucket_position, op for op (fp32 as torch's default dtype there): distances
    // inside +-mid exact, the rest logarithmic up to max_position, rounded up.
    const auto& rel = relativePosition;
    const std::int64_t mid = bucketSize / 2;
    const auto sign = at::sign(rel);
    const auto absPos = at::where(rel.lt(mid).logical_and(rel.gt(-mid)),
                                  at::scalar_tensor(mid - 1, rel.options()), rel.abs());
    const auto base = at::log(at::scalar_tensor(
        static_cast<double>(maxPosition - 1) / static_cast<double>(mid), at::kFloat));
    const auto logPos =
        at::ceil(at::log(at::true_divide(absPos, mid)) / base.to(rel.device()) * (mid - 1)) + mid;
    const auto bucket = at::where(absPos.le(mid), rel.to(logPos.scalar_type()), logPos * sign);
    return bucket.to(at::kLong);
}

std::int64_t debertaSpan(const EncoderConfig& config) {
    return config.positionBuckets > 0 ? config.positionBuckets : maxRelativeOf(config);
}

at::Tensor debertaRelativePosition(const EncoderConfig& config, const at::Tensor& distance) {
    const auto maxRelative = maxRelativeOf(config);
    return config.positionBuckets > 0 && maxRelative > 0
               ? debertaLogBucket(distance, config.positionBuckets, maxRelative)
               : distance;
}

DebertaRelativePositions::DebertaRelativePositions(const EncoderConfig& config,
                                                   torch::nn::Embedding table,
                                                   torch::nn::LayerNorm norm)
    : table_(std::move(table)),
      norm_(std::move(norm)),
      config_(config),
      span_(debertaSpan(config)) {}

at::Tensor DebertaRelativePositions::table() {
    const auto& weight = table_->weight;
    return norm_ ? norm_->forward(weight) : weight;
}

void DebertaRelativePositions::make(std::int64_t length, c10::Device device) {
    if (c2p_.defined() && c2p_.device() == device && c2p_.size(0) >= length) {
        return;
    }
    const torch::NoGradGuard noGrad;
    const auto ids = at::arange(length, at::TensorOptions().dtype(at::kLong).device(device));
    // q_ids[:, None] - k_ids[None, :]: query i minus key j.
    const auto relative = debertaRelativePosition(config_, ids.unsqueeze(1) - ids.unsqueeze(0));
    c2p_ = at::clamp(relative + span_, 0, 2 * span_ - 1);
    p2c_ = at::clamp(-relative + span_, 0, 2 * span_ - 1);
}

at::Tensor DebertaRelativePositions::contentToPosition(std::int64_t length, c10::Device device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    make(length, device);
    // The index depends on i - j alone: a shorter length's is the top-left corner.
    return c2p_.narrow(0, 0, length).narrow(1, 0, length);
}

at::Tensor DebertaRelativePositions::positionToContent(std::int64_t length, c10::Device device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    make(length, device);
    return p2c_.narrow(0, 0, length).narrow(1, 0, length);
}

// ---- attention -------------------------------------------------------------------------------

DebertaSelfAttentionImpl::DebertaSelfAttentionImpl(
    const EncoderConfig& config, std::shared_ptr<DebertaRelativePositions> positions)
    : positions_(std::move(positions)),
      heads_(config.numAttentionHeads),
      headDim_(config.headDim()),
      dropout_(config.attentionProbsDropoutProb),
      positionDropout_(config.hiddenDropoutProb),
      c2p_(config.contentToPosition),
      p2c_(config.positionToContent) {
    const auto h = config.hiddenSize;
    query_proj = register_module("query_proj", torch::nn::Linear(h, h));
    key_proj = register_module("key_proj", torch::nn::Linear(h, h));
    value_proj = register_module("value_proj", torch::nn::Linear(h, h));
    scaleFactor_ = 1.0 + (c2p_ ? 1.0 : 0.0) + (p2c_ ? 1.0 : 0.0);
}

at::Tensor DebertaSelfAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    // scaled_size_sqrt: sqrt(float(head_dim) * scale_factor), in fp32.
    const auto root = std::sqrt(static_cast<float>(headDim_) * static_cast<float>(scaleFactor_));
    AttentionShape shape{.heads = heads_,
                         .headDim = headDim_,
                         .dropout = dropout_,
                         .scale = 1.0 / static_cast<double>(root)};
    if (c2p_ || p2c_) {
        // The table (pos_dropout'd) through this layer's query and key projections, once for
        // every group: [heads, head_dim, 2 x span].
        const auto table = applyDropout(positions_->table(), positionDropout_, is_training());
        const auto rows = table.size(0);
        auto heads = [&](const at::Tensor& projected) {
            return projected.view({rows, heads_, headDim_}).permute({1, 2, 0});
        };
        const auto positionKeys = c2p_ ? heads(key_proj(table)) : at::Tensor();
        const auto positionQueries = p2c_ ? heads(query_proj(table)) : at::Tensor();
        shape.contentBias = [this, positionKeys, positionQueries, root](const at::Tensor& q,
                                                                        const at::Tensor& k) {
            const auto length = q.size(2);
            const std::vector<std::int64_t> pairs = {q.size(0), q.size(1), length, length};
            at::Tensor score;
            if (c2p_) {
                const auto index = positions_->contentToPosition(length, q.device());
                score = at::matmul(q, positionKeys).gather(-1, index.expand(pairs)) / root;
            }
            if (p2c_) {
                // Gathered along each key's row, then transposed: k_j . Qr[p2c(j, i)].
                const auto index = positions_->positionToContent(length, q.device());
                const auto term = at::matmul(k, positionQueries)
                                      .gather(-1, index.expand(pairs))
                                      .transpose(-1, -2) /
                                  root;
                score = score.defined() ? score + term : term;
            }
            return score;
        };
    }
    return attendLayout(query_proj(hidden), key_proj(hidden), value_proj(hidden), layout, shape,
                        is_training());
}

DebertaAttentionImpl::DebertaAttentionImpl(const EncoderConfig& config,
                                           std::shared_ptr<DebertaRelativePositions> positions) {
    self = register_module("self", DebertaSelfAttention(config, std::move(positions)));
    output = register_module("output", BertResidualOutput(config.hiddenSize, config));
}

at::Tensor DebertaAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return output(self(hidden, layout), hidden, layout);
}

DebertaLayer::DebertaLayer(const EncoderConfig& config,
                           std::shared_ptr<DebertaRelativePositions> positions) {
    attention = register_module("attention", DebertaAttention(config, std::move(positions)));
    intermediate = register_module("intermediate", BertIntermediate(config));
    output = register_module("output", BertResidualOutput(config.intermediateSize, config));
}

at::Tensor DebertaLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = attention(hidden, layout);
    return output(intermediate(attended), attended, layout);
}

// ---- embeddings, encoder, model --------------------------------------------------------------

DebertaEmbeddingsImpl::DebertaEmbeddingsImpl(const EncoderConfig& config) {
    const auto h = config.hiddenSize;
    word_embeddings = register_module(
        "word_embeddings",
        torch::nn::Embedding(
            torch::nn::EmbeddingOptions(config.vocabSize, h).padding_idx(config.padTokenId)));
    if (config.positionBiasedInput) {
        position_embeddings = register_module(
            "position_embeddings", torch::nn::Embedding(config.maxPositionEmbeddings, h));
    }
    if (config.hasTokenTypes()) {
        token_type_embeddings =
            register_module("token_type_embeddings", torch::nn::Embedding(config.typeVocabSize, h));
    }
    LayerNorm = register_module("LayerNorm", makeLayerNorm(h, config.layerNormEps));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor DebertaEmbeddingsImpl::forward(const TokenBatch& batch) {
    // transformers' order of the sums: word + position, then + token type. (Its multiplication
    // by the attention mask touches padding rows only, which no real token reads.)
    auto embedded = word_embeddings(batch.inputIds);
    if (position_embeddings) {
        const auto positions =
            batch.layout.positions.defined()
                ? batch.layout.positions
                : at::arange(batch.inputIds.size(1), batch.inputIds.options()).unsqueeze(0);
        embedded = embedded + position_embeddings(positions);
    }
    if (token_type_embeddings) {
        embedded = embedded + token_type_embeddings(batch.tokenTypeIds);
    }
    return dropHidden(LayerNorm(embedded), dropoutProbability, is_training(), batch.layout);
}

DebertaEncoderImpl::DebertaEncoderImpl(const EncoderConfig& config) {
    // transformers' order of registration: the layers, the table, its LayerNorm.
    layer = register_module("layer", torch::nn::ModuleList());
    rel_embeddings = torch::nn::Embedding(2 * debertaSpan(config), config.hiddenSize);
    if (normalisesTable(config)) {
        LayerNorm = makeLayerNorm(config.hiddenSize, config.layerNormEps);
    }
    const auto positions =
        std::make_shared<DebertaRelativePositions>(config, rel_embeddings, LayerNorm);
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layers.push_back(std::make_shared<DebertaLayer>(config, positions));
        layer->push_back(layers.back());
    }
    register_module("rel_embeddings", rel_embeddings);
    if (LayerNorm) {
        register_module("LayerNorm", LayerNorm);
    }
}

DebertaModelImpl::DebertaModelImpl(const EncoderConfig& config) {
    embeddings = register_module("embeddings", DebertaEmbeddings(config));
    encoder = register_module("encoder", DebertaEncoder(config));
}

at::Tensor DebertaModelImpl::embed(const TokenBatch& batch) {
    return embeddings(batch);
}

std::vector<std::shared_ptr<torch::nn::Module>> DebertaModelImpl::embeddingModules() {
    std::vector<std::shared_ptr<torch::nn::Module>> modules = {embeddings.ptr(),
                                                               encoder->rel_embeddings.ptr()};
    if (encoder->LayerNorm) {
        modules.push_back(encoder->LayerNorm.ptr());
    }
    return modules;
}

std::vector<std::shared_ptr<EncoderLayer>> DebertaModelImpl::encoderLayers() {
    return {encoder->layers.begin(), encoder->layers.end()};
}

namespace {

std::shared_ptr<FamilyEncoder> makeDebertaModel(const EncoderConfig& config) {
    return std::make_shared<DebertaModelImpl>(config);
}

}  // namespace

const FamilyModules& debertaModules() {
    static const FamilyModules modules{.family = debertaFamily, .encoder = makeDebertaModel};
    return modules;
}

}  // namespace bert
