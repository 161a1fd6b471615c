// EuroBertModel's graph (model/eurobert/EuroBertModel.cpp): token embeddings; pre-norm layers
// with RMSNorm, q/k/v projections whose keys and values (num_key_value_heads heads) are
// repeated for their group of query heads, rotary embeddings on q and k, attention through the
// padding mask, o_proj, a SwiGLU feed-forward; the final norm (the rows' last step, before either
// head). The heads are composed over it (model/onnx/FamilyGraph.h).

#include <utility>

#include <ATen/ATen.h>

#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

/// x / sqrt(mean(x^2) + eps) * weight over the last axis (opset 17 has no RMSNormalization).
std::string rmsNorm(EncoderGraph& graph, const std::string& x, const std::string& prefix) {
    auto& build = graph.builder();
    const auto meanSquare = build.node("ReduceMean", {build.node("Mul", {x, x})},
                                       {intsAttribute("axes", {-1}), intAttribute("keepdims", 1)});
    const auto rms = build.node(
        "Sqrt",
        {build.node("Add",
                    {meanSquare, build.scalar("rms_norm_eps",
                                              static_cast<float>(graph.config().layerNormEps))})});
    return build.node("Mul", {build.node("Div", {x, rms}), graph.weight(prefix + ".weight")});
}

class EuroBertGraph {
public:
    EuroBertGraph(EncoderGraph& graph, const GraphInputs& inputs)
        : graph_(graph), build_(graph.builder()), inputs_(inputs) {}

    std::string top() {
        const auto& config = graph_.config();
        auto hidden =
            build_.node("Gather", {graph_.weight("model.embed_tokens.weight"), inputs_.inputIds});
        mask_ = graph_.additiveMask(graph_.paddingKeep(inputs_.attentionMask));
        rotary();
        for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
            hidden = layer(hidden, i);
        }
        return hidden;
    }

private:
    std::string layer(const std::string& hidden, std::int64_t index) {
        const auto& config = graph_.config();
        const auto prefix = "model.layers." + std::to_string(index) + ".";
        const auto normed = rmsNorm(graph_, hidden, prefix + "input_layernorm");
        const auto q =
            rotate(graph_.splitHeads(graph_.linear(normed, prefix + "self_attn.q_proj"), false));
        const auto k = rotate(
            graph_.splitHeads(expand(graph_.linear(normed, prefix + "self_attn.k_proj")), false));
        const auto v =
            graph_.splitHeads(expand(graph_.linear(normed, prefix + "self_attn.v_proj")), false);
        const auto kT = build_.node("Transpose", {k}, {intsAttribute("perm", {0, 1, 3, 2})});
        const auto context = graph_.attend(q, kT, v, mask_);
        const auto attended =
            build_.node("Add", {hidden, graph_.linear(context, prefix + "self_attn.o_proj")});

        const auto mlpIn = rmsNorm(graph_, attended, prefix + "post_attention_layernorm");
        const auto gated = build_.node(
            "Mul",
            {graph_.activation(graph_.linear(mlpIn, prefix + "mlp.gate_proj"), config.activation()),
             graph_.linear(mlpIn, prefix + "mlp.up_proj")});
        return build_.node("Add", {attended, graph_.linear(gated, prefix + "mlp.down_proj")});
    }

    /// [B, S, kv_heads x head_dim] -> [B, S, heads x head_dim], each key-value head repeated for
    /// its group of query heads (repeat_kv).
    std::string expand(const std::string& x) {
        const auto& config = graph_.config();
        const auto kvHeads = config.keyValueHeads();
        if (kvHeads == config.numAttentionHeads) {
            return x;
        }
        const auto group = config.numAttentionHeads / kvHeads;
        const auto dim = config.headDim();
        const auto grouped = build_.node(
            "Reshape", {x, build_.int64s("kv_group_shape", {0, 0, kvHeads, 1, dim}, {5})});
        const auto repeated = build_.node(
            "Expand", {grouped, build_.int64s("kv_repeat", {1, 1, kvHeads, group, dim}, {5})});
        return build_.node(
            "Reshape", {repeated, build_.int64s("kv_merge_shape", {0, 0, config.hiddenSize}, {3})});
    }

    /// cos and sin [S, head_dim] of each position's angles, the inverse frequencies computed as
    /// the engine's applyRotary computes them; the angles at run time.
    void rotary() {
        const auto dim = graph_.config().headDim();
        const auto theta = graph_.config().globalRopeTheta;
        const auto floats = at::TensorOptions().dtype(at::kFloat);
        const auto inverseFrequency = at::reciprocal(
            at::pow(theta, at::arange(0, dim, 2, floats) / static_cast<double>(dim)));
        const auto positions = build_.node("Cast", {graph_.positions(inputs_.inputIds)},
                                           {intAttribute("to", onnx::TensorProto_DataType_FLOAT)});
        const auto frequencies = build_.node(
            "Mul", {build_.node("Unsqueeze", {positions, build_.int64s("axes_1", {1}, {1})}),
                    build_.weight("rotary_inverse_frequency", inverseFrequency)});
        const auto angles =
            build_.node("Concat", {frequencies, frequencies}, {intAttribute("axis", -1)});
        cosine_ = build_.node("Cos", {angles});
        sine_ = build_.node("Sin", {angles});
    }

    /// x cos + rotate_half(x) sin, x [B, heads, S, head_dim]; rotate_half(x) = (-x2, x1).
    std::string rotate(const std::string& x) {
        const auto halves = build_.nodes("Split", {x}, 2, {intAttribute("axis", -1)});
        const auto rotated = build_.node("Concat", {build_.node("Neg", {halves[1]}), halves[0]},
                                         {intAttribute("axis", -1)});
        return build_.node(
            "Add", {build_.node("Mul", {x, cosine_}), build_.node("Mul", {rotated, sine_})});
    }

    EncoderGraph& graph_;
    GraphBuilder& build_;
    const GraphInputs& inputs_;
    std::string mask_;
    std::string cosine_;
    std::string sine_;
};

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    return EuroBertGraph(graph, inputs).top();
}

std::string finalNorm(EncoderGraph& graph, const std::string& rows) {
    return rmsNorm(graph, rows, "model.norm");
}

}  // namespace

const FamilyGraph& euroBertGraph() {
    static const FamilyGraph graph{euroBertFamily, takesTokenTypes, encoderGraph, finalNorm};
    return graph;
}

}  // namespace bert::onnx_export
