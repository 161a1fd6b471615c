#include "model/eurobert/EuroBertModel.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "model/modernbert/ModernBertModel.h"

namespace bert {

// ---- norm ------------------------------------------------------------------------------------

EuroBertRmsNormImpl::EuroBertRmsNormImpl(std::int64_t width, double eps) : eps_(eps) {
    weight = register_parameter("weight", at::ones({width}));
}

at::Tensor EuroBertRmsNormImpl::forward(const at::Tensor& input) {
    const auto fp32 = input.to(at::kFloat);
    const auto variance = fp32.pow(2).mean(-1, /*keepdim=*/true);
    return weight * (fp32 * at::rsqrt(variance + eps_)).to(input.scalar_type());
}

// ---- attention and feed-forward --------------------------------------------------------------

EuroBertAttentionImpl::EuroBertAttentionImpl(const EncoderConfig& config)
    : shape_{.heads = config.numAttentionHeads,
             .headDim = config.headDim(),
             .dropout = config.attentionProbsDropoutProb},
      keyValueHeads_(config.keyValueHeads()),
      ropeTheta_(config.globalRopeTheta) {
    const auto h = config.hiddenSize;
    const auto kv = keyValueHeads_ * config.headDim();
    auto linear = [&](const char* name, std::int64_t in, std::int64_t out) {
        return register_module(
            name, torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(config.attentionBias)));
    };
    q_proj = linear("q_proj", h, h);
    k_proj = linear("k_proj", h, kv);
    v_proj = linear("v_proj", h, kv);
    o_proj = linear("o_proj", h, h);
}

at::Tensor EuroBertAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto heads = shape_.heads;
    const auto headDim = shape_.headDim;
    auto rows = hidden.sizes().vec();
    rows.pop_back();
    auto split = [&](const at::Tensor& x, std::int64_t count) {
        auto shape = rows;
        shape.push_back(count);
        shape.push_back(headDim);
        return x.view(shape);
    };
    // [rows..., heads, head_dim] -> [rows..., heads x head_dim], the key-value heads repeated
    // for their group of query heads (head j serves query heads j x group .. (j + 1) x group - 1,
    // as repeat_kv).
    auto flat = [&](const at::Tensor& x) {
        auto shape = rows;
        shape.push_back(heads * headDim);
        return x.reshape(shape);
    };
    auto expand = [&](const at::Tensor& x) {
        if (keyValueHeads_ == heads) {
            return flat(x);
        }
        auto grouped = x.sizes().vec();
        grouped.insert(grouped.end() - 1, heads / keyValueHeads_);
        return flat(x.unsqueeze(-2).expand(grouped));
    };
    // Each row's position in its sequence: the layout's when packed, 0 .. S-1 across the
    // padded batch's second dimension.
    const auto positions =
        layout.packed ? layout.positions
                      : at::arange(hidden.size(1),
                                   at::TensorOptions().dtype(at::kLong).device(hidden.device()))
                            .unsqueeze(0);
    const auto q = flat(applyRotary(split(q_proj(hidden), heads), positions, ropeTheta_));
    const auto k =
        expand(applyRotary(split(k_proj(hidden), keyValueHeads_), positions, ropeTheta_));
    const auto v = expand(split(v_proj(hidden), keyValueHeads_));
    return o_proj(attendLayout(q, k, v, layout, shape_, is_training()));
}

EuroBertMlpImpl::EuroBertMlpImpl(const EncoderConfig& config) : activation_(config.activation()) {
    const auto h = config.hiddenSize;
    const auto i = config.intermediateSize;
    auto linear = [&](const char* name, std::int64_t in, std::int64_t out) {
        return register_module(
            name, torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(config.mlpBias)));
    };
    gate_proj = linear("gate_proj", h, i);
    up_proj = linear("up_proj", h, i);
    down_proj = linear("down_proj", i, h);
}

at::Tensor EuroBertMlpImpl::forward(const at::Tensor& hidden) {
    return down_proj(activate(gate_proj(hidden), activation_) * up_proj(hidden));
}

// ---- layers and model ------------------------------------------------------------------------

EuroBertLayer::EuroBertLayer(const EncoderConfig& config) {
    input_layernorm =
        register_module("input_layernorm", EuroBertRmsNorm(config.hiddenSize, config.layerNormEps));
    self_attn = register_module("self_attn", EuroBertAttention(config));
    post_attention_layernorm = register_module(
        "post_attention_layernorm", EuroBertRmsNorm(config.hiddenSize, config.layerNormEps));
    mlp = register_module("mlp", EuroBertMlp(config));
}

at::Tensor EuroBertLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = hidden + self_attn(input_layernorm(hidden), layout);
    return attended + mlp(post_attention_layernorm(attended));
}

EuroBertModelImpl::EuroBertModelImpl(const EncoderConfig& config) {
    embed_tokens = register_module(
        "embed_tokens",
        torch::nn::Embedding(torch::nn::EmbeddingOptions(config.vocabSize, config.hiddenSize)
                                 .padding_idx(config.padTokenId)));
    layers = register_module("layers", torch::nn::ModuleList());
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layerList.push_back(std::make_shared<EuroBertLayer>(config));
        layers->push_back(layerList.back());
    }
    norm = register_module("norm", EuroBertRmsNorm(config.hiddenSize, config.layerNormEps));
}

at::Tensor EuroBertModelImpl::embed(const TokenBatch& batch) {
    return embed_tokens(batch.inputIds);
}

std::vector<std::shared_ptr<torch::nn::Module>> EuroBertModelImpl::embeddingModules() {
    return {embed_tokens.ptr()};
}

std::vector<std::shared_ptr<EncoderLayer>> EuroBertModelImpl::encoderLayers() {
    return {layerList.begin(), layerList.end()};
}

at::Tensor EuroBertModelImpl::finish(const at::Tensor& rows) {
    return norm(rows);
}

// ---- registration ----------------------------------------------------------------------------

namespace {

std::shared_ptr<FamilyEncoder> makeEuroBertModel(const EncoderConfig& config) {
    return std::make_shared<EuroBertModelImpl>(config);
}

}  // namespace

const FamilyModules& euroBertModules() {
    // transformers' default _init_weights: normals for the linears and the embedding (its
    // padding row zeroed), the norms at one as made.
    static const FamilyModules modules{.family = euroBertFamily, .encoder = makeEuroBertModel};
    return modules;
}

}  // namespace bert
