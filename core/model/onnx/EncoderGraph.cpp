#include "model/onnx/EncoderGraph.h"

#include <cmath>
#include <limits>
#include <numbers>

#include <ATen/ATen.h>

#include "Error.h"

namespace bert::onnx_export {

namespace {

/// Coefficient of the cubic term in the tanh approximation of GELU (Hendrycks and Gimpel).
constexpr float kGeluTanhCubic = 0.044715F;

}  // namespace

EncoderGraph::EncoderGraph(onnx::GraphProto& graph, const EncoderConfig& config,
                           std::vector<std::pair<std::string, at::Tensor>> weights)
    : build_(graph), config_(config) {
    for (auto& [name, tensor] : weights) {
        weights_.emplace(name, std::move(tensor));
    }
}

const at::Tensor& EncoderGraph::parameter(const std::string& name) const {
    const auto found = weights_.find(name);
    if (found == weights_.end()) {
        throw EngineError("the ONNX export looked for a parameter the " + config_.modelType +
                          " model does not have: " + name);
    }
    return found->second;
}

std::string EncoderGraph::weight(const std::string& name) {
    if (const auto added = added_.find(name); added != added_.end()) {
        return added->second;
    }
    return added_[name] = build_.weight(name, parameter(name));
}

std::string EncoderGraph::sequenceLength(const std::string& inputIds) {
    if (sequenceLength_.empty()) {
        sequenceLength_ =
            build_.node("Gather", {build_.node("Shape", {inputIds}), build_.int64Scalar("one", 1)},
                        {intAttribute("axis", 0)});
    }
    return sequenceLength_;
}

std::string EncoderGraph::positions(const std::string& inputIds) {
    if (positions_.empty()) {
        positions_ = build_.node("Range", {build_.int64Scalar("zero", 0), sequenceLength(inputIds),
                                           build_.int64Scalar("one", 1)});
    }
    return positions_;
}

std::string EncoderGraph::linear(const std::string& input, const std::string& prefix) {
    const auto weightName = prefix + ".weight";
    auto transposed = added_.find(weightName);
    if (transposed == added_.end()) {
        transposed =
            added_.emplace(weightName, build_.weight(weightName, parameter(weightName).t())).first;
    }
    const auto product = build_.node("MatMul", {input, transposed->second});
    if (!has(prefix + ".bias")) {
        return product;
    }
    return build_.node("Add", {product, weight(prefix + ".bias")});
}

std::string EncoderGraph::layerNorm(const std::string& input, const std::string& prefix) {
    std::vector<std::string> inputs = {input, weight(prefix + ".weight")};
    if (has(prefix + ".bias")) {
        inputs.push_back(weight(prefix + ".bias"));
    }
    return build_.node("LayerNormalization", inputs,
                       {intAttribute("axis", -1),
                        floatAttribute("epsilon", static_cast<float>(config_.layerNormEps))});
}

std::string EncoderGraph::activation(const std::string& x, Activation activation) {
    switch (activation) {
        case Activation::Gelu: {
            // 0.5 x (1 + erf(x / sqrt 2)); opset 17 has no Gelu operator.
            const auto erf = build_.node(
                "Erf",
                {build_.node("Div", {x, build_.scalar("sqrt2", std::numbers::sqrt2_v<float>)})});
            return halfTimesOnePlus(x, erf);
        }
        case Activation::GeluTanh: {
            // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
            const auto cube = build_.node("Mul", {build_.node("Mul", {x, x}), x});
            const auto inner = build_.node(
                "Add",
                {x, build_.node("Mul", {cube, build_.scalar("gelu_cubic", kGeluTanhCubic)})});
            const float scale = std::sqrt(2.0F / std::numbers::pi_v<float>);
            const auto tanh = build_.node(
                "Tanh", {build_.node("Mul", {inner, build_.scalar("gelu_scale", scale)})});
            return halfTimesOnePlus(x, tanh);
        }
        case Activation::Relu:
            return build_.node("Relu", {x});
        case Activation::Silu:
            return build_.node("Mul", {x, build_.node("Sigmoid", {x})});
        case Activation::Tanh:
            return build_.node("Tanh", {x});
    }
    throw EngineError("an activation the ONNX export does not know");
}

std::string EncoderGraph::halfTimesOnePlus(const std::string& x, const std::string& term) {
    const auto onePlus = build_.node("Add", {build_.scalar("one_f", 1.0F), term});
    return build_.node("Mul", {build_.node("Mul", {x, build_.scalar("half", 0.5F)}), onePlus});
}

std::string EncoderGraph::paddingKeep(const std::string& attentionMask) {
    const auto keep =
        build_.node("Cast", {attentionMask}, {intAttribute("to", onnx::TensorProto_DataType_BOOL)});
    return build_.node("Unsqueeze", {keep, build_.int64s("axes_1_2", {1, 2}, {2})});
}

std::string EncoderGraph::additiveMask(const std::string& keep) {
    return build_.node("Where", {keep, build_.scalar("zero_f", 0.0F),
                                 build_.scalar("lowest_f", std::numeric_limits<float>::lowest())});
}

std::string EncoderGraph::splitHeads(const std::string& input, bool keysTransposed) {
    const auto split = build_.node(
        "Reshape",
        {input,
         build_.int64s("head_shape", {0, 0, config_.numAttentionHeads, config_.headDim()}, {4})});
    return build_.node(
        "Transpose", {split},
        {intsAttribute("perm", keysTransposed ? Shape{0, 2, 3, 1} : Shape{0, 2, 1, 3})});
}

std::string EncoderGraph::attend(const std::string& q, const std::string& kT, const std::string& v,
                                 const std::string& mask) {
    const auto scale = 1.0F / std::sqrt(static_cast<float>(config_.headDim()));
    const auto scores = build_.node(
        "Add", {build_.node("Mul", {build_.node("MatMul", {q, kT}), build_.scalar("scale", scale)}),
                mask});
    const auto probabilities = build_.node("Softmax", {scores}, {intAttribute("axis", -1)});
    const auto context = build_.node("Transpose", {build_.node("MatMul", {probabilities, v})},
                                     {intsAttribute("perm", {0, 2, 1, 3})});
    return build_.node("Reshape",
                       {context, build_.int64s("merge_shape", {0, 0, config_.hiddenSize}, {3})});
}

std::string EncoderGraph::selfAttention(const std::string& q, const std::string& k,
                                        const std::string& v, const std::string& mask) {
    return attend(splitHeads(q, false), splitHeads(k, true), splitHeads(v, false), mask);
}

std::string EncoderGraph::firstToken(const std::string& hidden) {
    return build_.node("Gather", {hidden, build_.int64Scalar("first", 0)},
                       {intAttribute("axis", 1)});
}

std::string EncoderGraph::maskedMean(const std::string& hidden, const std::string& attentionMask) {
    // As the engine's meanOfTokens: (hidden * mask).sum(1) / mask.sum(1).
    const auto mask = build_.node(
        "Unsqueeze", {build_.node("Cast", {attentionMask},
                                  {intAttribute("to", onnx::TensorProto_DataType_FLOAT)}),
                      build_.int64s("axes_2", {2}, {1})});
    const auto axis = build_.int64s("axes_1", {1}, {1});
    const auto sums = build_.node("ReduceSum", {build_.node("Mul", {hidden, mask}), axis},
                                  {intAttribute("keepdims", 0)});
    const auto counts = build_.node("ReduceSum", {mask, axis}, {intAttribute("keepdims", 0)});
    return build_.node("Div", {sums, counts});
}

}  // namespace bert::onnx_export
