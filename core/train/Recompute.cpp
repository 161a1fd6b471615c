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

struct RecomputedLayer : public torch::autograd::Function<RecomputedLayer> {
    static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& hidden,
                              const at::Tensor& keepMask, const at::Tensor& anchor,
                              std::int64_t layerAddress) {
        (void)anchor;
        auto* layer = reinterpret_cast<BertLayerImpl*>(layerAddress);
        const auto device = hidden.device();
        const auto deviceType = device.type();
        ctx->saved_data["layer"] = layerAddress;
        ctx->saved_data["rng"] = getRngState(device);
        ctx->saved_data["autocast"] = at::autocast::is_autocast_enabled(deviceType);
        ctx->saved_data["autocast_dtype"] = at::autocast::get_autocast_dtype(deviceType);
        ctx->save_for_backward({hidden, keepMask});
        // Function::apply runs forward without recording a graph: only the input is kept.
        return layer->forward(hidden, keepMask);
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const auto& hidden = saved[0];
        const auto& keepMask = saved[1];
        auto* layer = reinterpret_cast<BertLayerImpl*>(ctx->saved_data["layer"].toInt());
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
            output = layer->forward(input, keepMask);
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
    return [](BertLayerImpl& layer, const at::Tensor& hidden, const at::Tensor& keepMask) {
        if (!torch::GradMode::is_enabled() || !layer.is_training()) {
            return layer.forward(hidden, keepMask);  // evaluation: nothing to save
        }
        bool trainable = hidden.requires_grad();
        for (const auto& parameter : layer.parameters()) {
            trainable = trainable || parameter.requires_grad();
        }
        if (!trainable) {
            return layer.forward(hidden,
                                 keepMask);  // a frozen layer on a frozen input saves nothing
        }
        // The anchor makes autograd run backward even when hidden needs no gradient.
        static const at::Tensor anchor = at::empty({0}).requires_grad_(true);
        return RecomputedLayer::apply(hidden, keepMask, anchor,
                                      reinterpret_cast<std::int64_t>(&layer));
    };
}

}  // namespace bert
