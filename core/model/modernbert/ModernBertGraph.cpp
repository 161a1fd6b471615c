// ModernBertModel's graph (model/modernbert/ModernBertModel.cpp): token embeddings and their
// norm; pre-norm layers (layer 0's attention norm is the identity) with a fused Wqkv, rotary
// embeddings on q and k at the layer's base, attention through the padding mask, and on local
// layers through the sliding window too; a GeGLU feed-forward; the final norm (the rows'
// last step, before either head). The heads ([CLS] or masked-mean pooling for a sequence, then
// head.dense, activation, head.norm and the classifier) are composed over it
// (model/onnx/FamilyGraph.h).
// Biases and norm biases are in the graph where the model has them (the config's *_bias).

#include <map>
#include <utility>

#include <ATen/ATen.h>

#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

class ModernBertGraph {
public:
    ModernBertGraph(EncoderGraph& graph, const GraphInputs& inputs)
        : graph_(graph), build_(graph.builder()), inputs_(inputs) {}

    std::string top() {
        const auto& config = graph_.config();
        auto hidden = graph_.layerNorm(
            build_.node("Gather", {graph_.weight("model.embeddings.tok_embeddings.weight"),
                                   inputs_.inputIds}),
            "model.embeddings.norm");
        keep_ = graph_.paddingKeep(inputs_.attentionMask);
        for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
            hidden = layer(hidden, i);
        }
        return hidden;
    }

private:
    std::string layer(const std::string& hidden, std::int64_t index) {
        const auto& config = graph_.config();
        const auto prefix = "model.layers." + std::to_string(index) + ".";
        // As the engine's ModernBertAttention: the window on sliding layers (none when half of
        // local_attention is 0), the local base for their rotary embeddings.
        const bool sliding = config.isSliding(index);
        const auto halfWindow = sliding ? config.localAttention / 2 : 0;
        const auto theta = sliding ? config.localRopeTheta : config.globalRopeTheta;

        const auto normed = graph_.has(prefix + "attn_norm.weight")
                                ? graph_.layerNorm(hidden, prefix + "attn_norm")
                                : hidden;
        const auto qkv = build_.nodes("Split", {graph_.linear(normed, prefix + "attn.Wqkv")}, 3,
                                      {intAttribute("axis", -1)});
        const auto& [cosine, sine] = rotary(theta);
        const auto q = rotate(graph_.splitHeads(qkv[0], false), cosine, sine);
        const auto k = rotate(graph_.splitHeads(qkv[1], false), cosine, sine);
        const auto kT = build_.node("Transpose", {k}, {intsAttribute("perm", {0, 1, 3, 2})});
        const auto context = graph_.attend(q, kT, graph_.splitHeads(qkv[2], false),
                                           halfWindow > 0 ? localMask(halfWindow) : globalMask());
        const auto attended =
            build_.node("Add", {hidden, graph_.linear(context, prefix + "attn.Wo")});

        const auto projected =
            graph_.linear(graph_.layerNorm(attended, prefix + "mlp_norm"), prefix + "mlp.Wi");
        const auto inputAndGate = build_.nodes("Split", {projected}, 2, {intAttribute("axis", -1)});
        const auto gated = build_.node(
            "Mul", {graph_.activation(inputAndGate[0], config.activation()), inputAndGate[1]});
        return build_.node("Add", {attended, graph_.linear(gated, prefix + "mlp.Wo")});
    }

    /// cos and sin [S, head_dim] of each position's angles at base theta, made once per base.
    /// The inverse frequencies are computed here exactly as the engine's applyRotary computes
    /// them; the angles at run time, so that any sequence length works.
    const std::pair<std::string, std::string>& rotary(double theta) {
        if (const auto made = rotary_.find(theta); made != rotary_.end()) {
            return made->second;
        }
        const auto dim = graph_.config().headDim();
        const auto floats = at::TensorOptions().dtype(at::kFloat);
        const auto inverseFrequency = at::reciprocal(
            at::pow(theta, at::arange(0, dim, 2, floats) / static_cast<double>(dim)));
        const auto name = "rotary_inverse_frequency_" + std::to_string(rotary_.size());
        const auto positions = build_.node("Cast", {graph_.positions(inputs_.inputIds)},
                                           {intAttribute("to", onnx::TensorProto_DataType_FLOAT)});
        const auto frequencies = build_.node(
            "Mul", {build_.node("Unsqueeze", {positions, build_.int64s("axes_1", {1}, {1})}),
                    build_.weight(name, inverseFrequency)});
        const auto angles =
            build_.node("Concat", {frequencies, frequencies}, {intAttribute("axis", -1)});
        return rotary_[theta] = {build_.node("Cos", {angles}), build_.node("Sin", {angles})};
    }

    /// x cos + rotate_half(x) sin, x [B, heads, S, head_dim]; rotate_half(x) = (-x2, x1).
    std::string rotate(const std::string& x, const std::string& cosine, const std::string& sine) {
        const auto halves = build_.nodes("Split", {x}, 2, {intAttribute("axis", -1)});
        const auto rotated = build_.node("Concat", {build_.node("Neg", {halves[1]}), halves[0]},
                                         {intAttribute("axis", -1)});
        return build_.node("Add",
                           {build_.node("Mul", {x, cosine}), build_.node("Mul", {rotated, sine})});
    }

    std::string globalMask() {
        if (globalMask_.empty()) {
            globalMask_ = graph_.additiveMask(keep_);
        }
        return globalMask_;
    }

    /// Padding and the window |i - j| <= halfWindow: [B, 1, S, S].
    std::string localMask(std::int64_t halfWindow) {
        if (const auto made = localMasks_.find(halfWindow); made != localMasks_.end()) {
            return made->second;
        }
        const auto positions = graph_.positions(inputs_.inputIds);
        const auto distance = build_.node(
            "Abs",
            {build_.node(
                "Sub",
                {build_.node("Unsqueeze", {positions, build_.int64s("axes_1", {1}, {1})}),
                 build_.node("Unsqueeze", {positions, build_.int64s("axes_0", {0}, {1})})})});
        const auto band =
            build_.node("LessOrEqual", {distance, build_.int64Scalar("half_window", halfWindow)});
        return localMasks_[halfWindow] = graph_.additiveMask(build_.node("And", {keep_, band}));
    }

    EncoderGraph& graph_;
    GraphBuilder& build_;
    const GraphInputs& inputs_;
    std::string keep_;
    std::string globalMask_;
    std::map<std::int64_t, std::string> localMasks_;
    std::map<double, std::pair<std::string, std::string>> rotary_;
};

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    return ModernBertGraph(graph, inputs).top();
}

std::string finalNorm(EncoderGraph& graph, const std::string& rows) {
    return graph.layerNorm(rows, "model.final_norm");
}

}  // namespace

const FamilyGraph& modernBertGraph() {
    static const FamilyGraph graph{modernBertFamily, takesTokenTypes, encoderGraph, finalNorm};
    return graph;
}

}  // namespace bert::onnx_export
