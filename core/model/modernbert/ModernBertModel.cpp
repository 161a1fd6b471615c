#include "model/modernbert/ModernBertModel.h"

#include <cmath>
#include <unordered_set>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "model/Dropout.h"

namespace bert {

namespace {

// trunc_normal_ as torch.nn.init computes it: uniform between the normal's CDF at the bounds,
// through the inverse error function, clamped.
void truncatedNormal(at::Tensor& tensor, double std, double cutoff, at::Generator& generator) {
    const double a = -cutoff;
    const double b = cutoff;
    auto cdf = [](double x) { return (1.0 + std::erf(x / std::sqrt(2.0))) / 2.0; };
    const double low = cdf(a);
    const double high = cdf(b);
    tensor.uniform_(2.0 * low - 1.0, 2.0 * high - 1.0, generator);
    tensor.erfinv_();
    tensor.mul_(std * std::sqrt(2.0));
    tensor.clamp_(a * std, b * std);
}

}  // namespace

// ---- norm and embeddings ---------------------------------------------------------------------

ModernBertNormImpl::ModernBertNormImpl(std::int64_t width, double eps, bool withBias)
    : width_(width), eps_(eps) {
    weight = register_parameter("weight", at::ones({width}));
    if (withBias) {
        bias = register_parameter("bias", at::zeros({width}));
    }
}

at::Tensor ModernBertNormImpl::forward(const at::Tensor& input) {
    return at::layer_norm(input, {width_}, weight, bias, eps_);
}

ModernBertEmbeddingsImpl::ModernBertEmbeddingsImpl(const EncoderConfig& config)
    : dropout_(config.hiddenDropoutProb) {
    tok_embeddings = register_module(
        "tok_embeddings",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabSize, config.hiddenSize)
                                 .padding_idx(config.padTokenId)));
    norm = register_module("norm",
                           ModernBertNorm(config.hiddenSize, config.layerNormEps, config.normBias));
}

at::Tensor ModernBertEmbeddingsImpl::forward(const TokenBatch& batch) {
    return dropHidden(norm(tok_embeddings(batch.inputIds)), dropout_, is_training(), batch.layout);
}

// ---- rotary embeddings and attention ---------------------------------------------------------

at::Tensor applyRotary(const at::Tensor& x, const at::Tensor& positions, double theta) {
    const auto dim = x.size(-1);
    const auto floats = at::TensorOptions().dtype(at::kFloat).device(x.device());
    const auto inverseFrequency =
        at::reciprocal(at::pow(theta, at::arange(0, dim, 2, floats) / static_cast<double>(dim)));
    // [rows..., 1, dim]: one rotation per position, shared by the heads.
    const auto frequencies = positions.to(at::kFloat).unsqueeze(-1) * inverseFrequency;
    const auto angles = at::cat({frequencies, frequencies}, -1).unsqueeze(-2);
    const auto cos = angles.cos();
    const auto sin = angles.sin();
    const auto fp32 = x.to(at::kFloat);
    const auto half = dim / 2;
    const auto rotated = at::cat({fp32.narrow(-1, half, half).neg(), fp32.narrow(-1, 0, half)}, -1);
    return (fp32 * cos + rotated * sin).to(x.scalar_type());
}

ModernBertAttentionImpl::ModernBertAttentionImpl(const EncoderConfig& config,
                                                 std::int64_t layerIndex)
    : shape_{.heads = config.numAttentionHeads,
             .headDim = config.headDim(),
             .dropout = config.attentionProbsDropoutProb,
             .halfWindow = config.isSliding(layerIndex) ? config.localAttention / 2 : 0},
      ropeTheta_(config.isSliding(layerIndex) ? config.localRopeTheta : config.globalRopeTheta) {
    const auto h = config.hiddenSize;
    Wqkv = register_module(
        "Wqkv", torch::nn::Linear(torch::nn::LinearOptions(h, 3 * h).bias(config.attentionBias)));
    Wo = register_module(
        "Wo", torch::nn::Linear(torch::nn::LinearOptions(h, h).bias(config.attentionBias)));
}

at::Tensor ModernBertAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto width = shape_.heads * shape_.headDim;
    const auto qkv = Wqkv(hidden);
    // [rows..., heads, head_dim] views of q, k and v (Wqkv's output is q | k | v).
    auto rows = qkv.sizes().vec();
    rows.pop_back();
    auto headsOf = [&](std::int64_t part) {
        auto shape = rows;
        shape.push_back(shape_.heads);
        shape.push_back(shape_.headDim);
        return qkv.narrow(-1, part * width, width).view(shape);
    };
    // Each row's position in its sequence: the layout's when packed, 0 .. S-1 across the
    // padded batch's second dimension.
    const auto positions =
        layout.packed ? layout.positions
                      : at::arange(hidden.size(1),
                                   at::TensorOptions().dtype(at::kLong).device(hidden.device()))
                            .unsqueeze(0);
    auto flat = [&](const at::Tensor& x) {
        auto shape = rows;
        shape.push_back(width);
        return x.reshape(shape);
    };
    const auto q = flat(applyRotary(headsOf(0), positions, ropeTheta_));
    const auto k = flat(applyRotary(headsOf(1), positions, ropeTheta_));
    // A copy, not a view: attention keeps v for backward, and a view would keep all of Wqkv's
    // output alive with it (3x the memory; the forecast counts v alone).
    const auto v = qkv.narrow(-1, 2 * width, width).contiguous();
    const auto context = attendLayout(q, k, v, layout, shape_, is_training());
    return dropHidden(Wo(context), shape_.dropout, is_training(), layout);
}

ModernBertMlpImpl::ModernBertMlpImpl(const EncoderConfig& config)
    : activation_(config.activation()), dropout_(config.mlpDropout) {
    const auto h = config.hiddenSize;
    const auto i = config.intermediateSize;
    Wi = register_module(
        "Wi", torch::nn::Linear(torch::nn::LinearOptions(h, 2 * i).bias(config.mlpBias)));
    Wo = register_module("Wo",
                         torch::nn::Linear(torch::nn::LinearOptions(i, h).bias(config.mlpBias)));
}

at::Tensor ModernBertMlpImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto projected = Wi(hidden);
    const auto half = projected.size(-1) / 2;
    const auto gated =
        activate(projected.narrow(-1, 0, half), activation_) * projected.narrow(-1, half, half);
    return Wo(dropHidden(gated, dropout_, is_training(), layout));
}

ModernBertLayer::ModernBertLayer(const EncoderConfig& config, std::int64_t layerIndex) {
    if (layerIndex > 0) {
        attn_norm = register_module(
            "attn_norm", ModernBertNorm(config.hiddenSize, config.layerNormEps, config.normBias));
    }
    attn = register_module("attn", ModernBertAttention(config, layerIndex));
    mlp_norm = register_module(
        "mlp_norm", ModernBertNorm(config.hiddenSize, config.layerNormEps, config.normBias));
    mlp = register_module("mlp", ModernBertMlp(config));
}

at::Tensor ModernBertLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = hidden + attn(attn_norm ? attn_norm(hidden) : hidden, layout);
    return attended + mlp(mlp_norm(attended), layout);
}

ModernBertModelImpl::ModernBertModelImpl(const EncoderConfig& config) {
    embeddings = register_module("embeddings", ModernBertEmbeddings(config));
    layers = register_module("layers", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layerList.push_back(std::make_shared<ModernBertLayer>(config, i));
        layers->push_back(layerList.back());
    }
    final_norm = register_module(
        "final_norm", ModernBertNorm(config.hiddenSize, config.layerNormEps, config.normBias));
}

at::Tensor ModernBertModelImpl::embed(const TokenBatch& batch) {
    return embeddings(batch);
}

std::vector<std::shared_ptr<torch::nn::Module>> ModernBertModelImpl::embeddingModules() {
    return {embeddings.ptr()};
}

std::vector<std::shared_ptr<EncoderLayer>> ModernBertModelImpl::encoderLayers() {
    return {layerList.begin(), layerList.end()};
}

at::Tensor ModernBertModelImpl::finish(const at::Tensor& rows) {
    return final_norm(rows);
}

std::shared_ptr<RowModule> ModernBertModelImpl::makeHeadNorm(const EncoderConfig& config) const {
    return std::make_shared<ModernBertNormImpl>(config.hiddenSize, config.layerNormEps,
                                                config.normBias);
}

// ---- initialisation and registration ---------------------------------------------------------

namespace {

bool endsWith(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() &&
           text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// ModernBERT's _init_weights: truncated normals (at initializer_cutoff_factor standard
/// deviations), the output projections' (attn.Wo, mlp.Wo, head.dense) scaled by
/// 1 / sqrt(2 x layers), the classifier's at hidden_size^-0.5.
void initializeModernBertModule(const std::string& name, torch::nn::Module& module,
                                const EncoderConfig& c, at::Generator& generator) {
    const torch::NoGradGuard noGrad;
    const double cutoff = c.initializerCutoffFactor;
    if (auto* norm = module.as<ModernBertNormImpl>()) {
        norm->weight.fill_(1.0);
        if (norm->bias.defined()) {
            norm->bias.zero_();
        }
    } else if (auto* embedding = module.as<torch::nn::EmbeddingImpl>()) {
        truncatedNormal(embedding->weight, c.initializerRange, cutoff, generator);
    } else if (auto* linear = module.as<torch::nn::LinearImpl>()) {
        double std = c.initializerRange;
        if (name == "classifier") {
            std = 1.0 / std::sqrt(static_cast<double>(c.hiddenSize));
        } else if (name == "head.dense" || endsWith(name, ".attn.Wo") ||
                   endsWith(name, ".mlp.Wo")) {
            std = c.initializerRange / std::sqrt(2.0 * static_cast<double>(c.numHiddenLayers));
        }
        truncatedNormal(linear->weight, std, cutoff, generator);
        if (linear->bias.defined()) {
            linear->bias.zero_();
        }
    }
}

std::shared_ptr<FamilyEncoder> makeModernBertModel(const EncoderConfig& config) {
    return std::make_shared<ModernBertModelImpl>(config);
}

}  // namespace

const FamilyModules& modernBertModules() {
    static const FamilyModules modules{.family = modernBertFamily,
                                       .encoder = makeModernBertModel,
                                       .initializeModule = initializeModernBertModule};
    return modules;
}

}  // namespace bert
