#include "model/SequenceClassifier.h"

#include <algorithm>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>

#include "data/Batch.h"
#include "model/Dropout.h"

namespace bert {

at::Tensor SequenceClassifier::forward(const TokenBatch& batch) {
    return forwardFrom(embed(batch), batch.layout, 0);
}

at::Tensor SequenceClassifier::forward(const PaddedInputs& inputs) {
    return forward(paddedTokenBatch(inputs));
}

at::Tensor SequenceClassifier::prefix(const TokenBatch& batch, std::int64_t layers) {
    auto hidden = embed(batch);
    for (std::int64_t i = 0; i < std::min(layers, layerCount()); ++i) {
        hidden = runner_ ? runner_(layer(i), hidden, batch.layout)
                         : layer(i).forward(hidden, batch.layout);
    }
    return hidden;
}

at::Tensor SequenceClassifier::forwardFrom(const at::Tensor& hidden, const TokenLayout& layout,
                                           std::int64_t layers) {
    auto top = hidden;
    for (std::int64_t i = layers; i < layerCount(); ++i) {
        top = runner_ ? runner_(layer(i), top, layout) : layer(i).forward(top, layout);
    }
    return classify(top, layout);
}

void SequenceClassifier::initializeModule(const std::string& /*name*/, torch::nn::Module& module,
                                          at::Generator& generator) {
    const torch::NoGradGuard noGrad;
    const double range = config_.initializerRange;
    if (auto* linear = module.as<torch::nn::LinearImpl>()) {
        linear->weight.normal_(0.0, range, generator);
        if (linear->bias.defined()) {
            linear->bias.zero_();
        }
    } else if (auto* embedding = module.as<torch::nn::EmbeddingImpl>()) {
        embedding->weight.normal_(0.0, range, generator);
        if (const auto& pad = embedding->options.padding_idx(); pad && *pad == config_.padTokenId) {
            embedding->weight[*pad].zero_();
        }
    } else if (auto* norm = module.as<torch::nn::LayerNormImpl>()) {
        norm->weight.fill_(1.0);
        if (norm->bias.defined()) {
            norm->bias.zero_();
        }
    }
}

void SequenceClassifier::initializeWeights(std::uint64_t seed) {
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    for (const auto& item : named_modules(/*name_prefix=*/"", /*include_self=*/false)) {
        initializeModule(item.key(), *item.value(), generator);
    }
}

void SequenceClassifier::initializeClassifier(std::uint64_t seed) {
    auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
    const auto heads = labelHeadModules();
    for (const auto& item : named_modules(/*name_prefix=*/"", /*include_self=*/false)) {
        if (std::find(heads.begin(), heads.end(), item.value()) != heads.end()) {
            initializeModule(item.key(), *item.value(), generator);
        }
    }
}

// ---- shared pieces ---------------------------------------------------------------------------

at::Tensor dropHidden(const at::Tensor& hidden, double p, bool training,
                      const TokenLayout& layout) {
    return applyDropout(hidden, p, training, MaskLayout{layout.maskRows, hidden.size(-1)});
}

at::Tensor firstTokenRows(const at::Tensor& hidden, const TokenLayout& layout) {
    return layout.packed ? hidden.index_select(0, layout.firstTokens) : hidden.select(1, 0);
}

namespace {

/// Packed: [T] int64 on the device, the micro-batch sequence of each row, made from the
/// layout's device tensors alone: a row's sequence starts at its row minus its position, and
/// firstTokens says which sequence starts where. (From maskRows, which stays on the host for
/// dropout's keys, it cost a pageable copy to the device, a wait for the GPU, every forward.)
at::Tensor sequenceOfEachRow(const TokenLayout& layout) {
    const auto options = layout.positions.options();
    const auto rows = layout.positions.size(0);
    const auto startRow = at::arange(rows, options) - layout.positions;
    auto sequenceStartingAt = at::zeros({rows}, options);
    sequenceStartingAt.index_put_({layout.firstTokens}, at::arange(layout.sequences, options));
    return sequenceStartingAt.index_select(0, startRow);
}

}  // namespace

at::Tensor meanOfTokens(const at::Tensor& hidden, const TokenLayout& layout) {
    if (!layout.packed) {
        const auto& keep = layout.groups.front().keepMask;
        if (!keep.defined()) {
            return hidden.mean(1);
        }
        const auto mask = keep.view({hidden.size(0), hidden.size(1), 1}).to(hidden.scalar_type());
        return (hidden * mask).sum(1) / mask.sum(1);
    }
    // Packed: each sequence's tokens are rows of their own; sum them by sequence.
    const auto sequenceOfRow = sequenceOfEachRow(layout);
    const auto sums = at::zeros({layout.sequences, hidden.size(1)}, hidden.options())
                          .index_add(0, sequenceOfRow, hidden);
    const auto counts =
        at::zeros({layout.sequences}, hidden.options())
            .index_add(0, sequenceOfRow, at::ones({hidden.size(0)}, hidden.options()));
    return sums / counts.unsqueeze(1);
}

at::Tensor packedRows(const at::Tensor& padded, const TokenLayout& layout) {
    if (!layout.packed) {
        return padded;
    }
    // A packed row of sequence b at position s is row b x S + s of the flattened [B x S] grid.
    const auto length = padded.size(1);
    const auto rows = (sequenceOfEachRow(layout) * length + layout.positions).to(padded.device());
    auto flat = padded.flatten(0, 1);
    return flat.index_select(0, rows);
}

at::Tensor activate(const at::Tensor& input, Activation activation) {
    switch (activation) {
        case Activation::Gelu:
            return at::gelu(input);
        case Activation::GeluTanh:
            return at::gelu(input, "tanh");
        case Activation::Relu:
            return at::relu(input);
        case Activation::Silu:
            return at::silu(input);
        case Activation::Tanh:
            return at::tanh(input);
    }
    return input;
}

torch::nn::LayerNorm makeLayerNorm(std::int64_t width, double eps) {
    return torch::nn::LayerNorm(torch::nn::LayerNormOptions({width}).eps(eps));
}

}  // namespace bert
