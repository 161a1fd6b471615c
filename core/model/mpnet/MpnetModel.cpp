#include "model/mpnet/MpnetModel.h"

#include <cmath>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "model/Attention.h"

namespace bert {

// ---- relative position bias ------------------------------------------------------------------

at::Tensor mpnetRelativePositionBucket(const at::Tensor& relativePosition) {
    // transformers' relative_position_bucket(num_buckets=32, max_distance=128), op for op, so
    // that the logarithm rounds alike: half the buckets for keys before the query, half after;
    // in each half, distances below 8 exact, the rest logarithmic up to 128, clamped.
    constexpr std::int64_t kHalf = 16;
    constexpr std::int64_t kMaxExact = kHalf / 2;
    constexpr double kMaxDistance = 128.0;
    auto n = relativePosition.neg();
    auto bucket = n.lt(0).to(at::kLong) * kHalf;
    n = n.abs();
    const auto small = n.lt(kMaxExact);
    auto large = (at::log(n.to(at::kFloat) / kMaxExact) /
                  std::log(kMaxDistance / static_cast<double>(kMaxExact)) * (kHalf - kMaxExact))
                     .to(at::kLong) +
                 kMaxExact;
    large = at::minimum(large, at::full_like(large, kHalf - 1));
    return bucket + at::where(small, n, large);
}

at::Tensor MpnetRelativeBias::buckets(std::int64_t length, c10::Device device) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!buckets_.defined() || buckets_.device() != device || buckets_.size(0) < length) {
        const torch::NoGradGuard noGrad;
        const auto positions =
            at::arange(length, at::TensorOptions().dtype(at::kLong).device(device));
        // memory_position - context_position: key j minus query i.
        buckets_ = mpnetRelativePositionBucket(positions.unsqueeze(0) - positions.unsqueeze(1));
    }
    // The bucket depends on j - i alone: a shorter length's is the top-left corner.
    return buckets_.narrow(0, 0, length).narrow(1, 0, length);
}

at::Tensor MpnetRelativeBias::forward(std::int64_t length) {
    const auto& weight = table_->weight;
    // [S, S, heads] -> [1, heads, S, S]
    return table_(buckets(length, weight.device())).permute({2, 0, 1}).unsqueeze(0).contiguous();
}

// ---- attention -------------------------------------------------------------------------------

MpnetSelfAttentionImpl::MpnetSelfAttentionImpl(const EncoderConfig& config,
                                               std::shared_ptr<MpnetRelativeBias> bias)
    : bias_(std::move(bias)),
      heads_(config.numAttentionHeads),
      headDim_(config.headDim()),
      dropout_(config.attentionProbsDropoutProb) {
    const auto h = config.hiddenSize;
    q = register_module("q", torch::nn::Linear(h, h));
    k = register_module("k", torch::nn::Linear(h, h));
    v = register_module("v", torch::nn::Linear(h, h));
    o = register_module("o", torch::nn::Linear(h, h));
}

at::Tensor MpnetSelfAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto context = attendLayout(
        q(hidden), k(hidden), v(hidden), layout,
        AttentionShape{.heads = heads_,
                       .headDim = headDim_,
                       .dropout = dropout_,
                       .bias = [this](std::int64_t length) { return bias_->forward(length); }},
        is_training());
    return o(context);
}

MpnetAttentionImpl::MpnetAttentionImpl(const EncoderConfig& config,
                                       std::shared_ptr<MpnetRelativeBias> bias) {
    attn = register_module("attn", MpnetSelfAttention(config, std::move(bias)));
    LayerNorm = register_module("LayerNorm", makeLayerNorm(config.hiddenSize, config.layerNormEps));
    dropoutProbability = config.hiddenDropoutProb;
}

at::Tensor MpnetAttentionImpl::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    return LayerNorm(dropHidden(attn(hidden, layout), dropoutProbability, is_training(), layout) +
                     hidden);
}

// ---- layers, encoder, model ------------------------------------------------------------------

MpnetLayer::MpnetLayer(const EncoderConfig& config, std::shared_ptr<MpnetRelativeBias> bias) {
    attention = register_module("attention", MpnetAttention(config, std::move(bias)));
    intermediate = register_module("intermediate", BertIntermediate(config));
    output = register_module("output", BertResidualOutput(config.intermediateSize, config));
}

at::Tensor MpnetLayer::forward(const at::Tensor& hidden, const TokenLayout& layout) {
    const auto attended = attention(hidden, layout);
    return output(intermediate(attended), attended, layout);
}

MpnetEncoderImpl::MpnetEncoderImpl(const EncoderConfig& config) {
    // transformers' order of registration: the layers, then the table.
    layer = register_module("layer", torch::nn::ModuleList());
    relative_attention_bias =
        torch::nn::Embedding(config.relativeAttentionNumBuckets, config.numAttentionHeads);
    const auto bias = std::make_shared<MpnetRelativeBias>(relative_attention_bias);
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        layers.push_back(std::make_shared<MpnetLayer>(config, bias));
        layer->push_back(layers.back());
    }
    register_module("relative_attention_bias", relative_attention_bias);
}

MpnetModelImpl::MpnetModelImpl(const EncoderConfig& config) {
    embeddings = register_module("embeddings", BertEmbeddings(config, PositionIds::AfterPadding));
    encoder = register_module("encoder", MpnetEncoder(config));
}

at::Tensor MpnetModelImpl::embed(const TokenBatch& batch) {
    return embeddings(batch);
}

std::vector<std::shared_ptr<torch::nn::Module>> MpnetModelImpl::embeddingModules() {
    return {embeddings.ptr(), encoder->relative_attention_bias.ptr()};
}

std::vector<std::shared_ptr<EncoderLayer>> MpnetModelImpl::encoderLayers() {
    return {encoder->layers.begin(), encoder->layers.end()};
}

namespace {

std::shared_ptr<FamilyEncoder> makeMpnetModel(const EncoderConfig& config) {
    return std::make_shared<MpnetModelImpl>(config);
}

}  // namespace

const FamilyModules& mpnetModules() {
    static const FamilyModules modules{.family = mpnetFamily, .encoder = makeMpnetModel};
    return modules;
}

}  // namespace bert
