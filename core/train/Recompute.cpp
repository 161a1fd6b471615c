#include "train/Recompute.h"

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "train/MixedPrecision.h"
#include "train/RandomState.h"

namespace bert {

namespace {

// The micro-batch's layout goes to backward in saved_data, as a list of its numbers and
// tensors (index tensors and masks: none of them needs a gradient).
constexpr std::size_t kLayoutHead = 5;  // sequences, packed, firstTokens, maskRows, positions
constexpr std::size_t kGroupFields =
    6;  // length, firstToken, tokens, sequences, keepMask, gridRows

c10::IValue savedLayout(const TokenLayout& layout) {
    c10::impl::GenericList list(c10::AnyType::get());
    list.reserve(kLayoutHead + kGroupFields * layout.groups.size());
    list.push_back(layout.sequences);
    list.push_back(layout.packed);
    list.push_back(layout.firstTokens);
    list.push_back(layout.maskRows);
    list.push_back(layout.positions);
    for (const auto& group : layout.groups) {
        list.push_back(group.length);
        list.push_back(group.firstToken);
        list.push_back(group.tokens);
        list.push_back(group.sequences);
        list.push_back(group.keepMask);
        list.push_back(group.gridRows);
    }
    return list;
}

TokenLayout restoredLayout(const c10::IValue& saved) {
    const auto list = saved.toList();
    TokenLayout layout;
    layout.sequences = list.get(0).toInt();
    layout.packed = list.get(1).toBool();
    layout.firstTokens = list.get(2).toTensor();
    layout.maskRows = list.get(3).toTensor();
    layout.positions = list.get(4).toTensor();
    for (std::size_t i = kLayoutHead; i + kGroupFields <= list.size(); i += kGroupFields) {
        AttentionGroup group;
        group.length = list.get(i).toInt();
        group.firstToken = list.get(i + 1).toInt();
        group.tokens = list.get(i + 2).toInt();
        group.sequences = list.get(i + 3).toTensor();
        group.keepMask = list.get(i + 4).toTensor();
        group.gridRows = list.get(i + 5).toTensor();
        layout.groups.push_back(std::move(group));
    }
    return layout;
}

struct RecomputedLayer : public torch::autograd::Function<RecomputedLayer> {
    static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& hidden,
                              const TokenLayout& layout, const at::Tensor& anchor,
                              std::int64_t layerAddress) {
        (void)anchor;
        auto* layer = reinterpret_cast<EncoderLayer*>(layerAddress);
        const auto device = hidden.device();
        const auto deviceType = device.type();
        ctx->saved_data["layer"] = layerAddress;
        ctx->saved_data["layout"] = savedLayout(layout);
        ctx->saved_data["rng"] = getRngState(device);
        ctx->saved_data["autocast"] = at::autocast::is_autocast_enabled(deviceType);
        ctx->saved_data["autocast_dtype"] = at::autocast::get_autocast_dtype(deviceType);
        ctx->save_for_backward({hidden});
        // Function::apply runs forward without recording a graph: only the input is kept.
        return layer->forward(hidden, layout);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const auto& hidden = saved[0];
        const auto layout = restoredLayout(ctx->saved_data["layout"]);
        auto* layer = reinterpret_cast<EncoderLayer*>(ctx->saved_data["layer"].toInt());
        const auto device = hidden.device();

        // Replay the forward pass's dropout masks, then put the current RNG stream back.
        const auto currentRng = getRngState(device);
        setRngState(device, ctx->saved_data["rng"].toTensor());
        at::Tensor input;
        at::Tensor output;
        {
            const AutocastGuard autocast(device.type(), ctx->saved_data["autocast"].toBool(),
                                         ctx->saved_data["autocast_dtype"].toScalarType());
            const torch::AutoGradMode enableGrad(true);
            input = hidden.detach().requires_grad_(hidden.requires_grad());
            output = layer->forward(input, layout);
        }
        setRngState(device, currentRng);
        {
            const torch::AutoGradMode enableGrad(true);
            torch::autograd::backward({output}, {gradOutputs[0]});
        }
        return {input.requires_grad() ? input.grad() : at::Tensor(), at::Tensor(), at::Tensor(),
                at::Tensor()};
    }
};

}  // namespace

LayerRunner recomputingLayerRunner() {
    return [](EncoderLayer& layer, const at::Tensor& hidden, const TokenLayout& layout) {
        if (!torch::GradMode::is_enabled() || !layer.is_training()) {
            return layer.forward(hidden, layout);  // evaluation: nothing to save
        }
        bool trainable = hidden.requires_grad();
        for (const auto& parameter : layer.parameters()) {
            trainable = trainable || parameter.requires_grad();
        }
        if (!trainable) {
            return layer.forward(hidden, layout);  // a frozen layer on a frozen input saves nothing
        }
        // The anchor makes autograd run backward even when hidden needs no gradient.
        static const at::Tensor anchor = at::empty({0}).requires_grad_(true);
        return RecomputedLayer::apply(hidden, layout, anchor,
                                      reinterpret_cast<std::int64_t>(&layer));
    };
}

}  // namespace bert
