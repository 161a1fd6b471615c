// BertModel's graph (model/bert/BertModel.cpp): embeddings and post-LN layers. The heads
// (the sequence head's pooler, dense + tanh on [CLS], and classifier; the token head's
// classifier) are composed over it (model/onnx/FamilyGraph.h).

#include "model/bert/BertGraph.h"

#include <ATen/ATen.h>

#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

/// RoBERTa's create_position_ids_from_input_ids: each real token's count of real tokens up to
/// it, plus padding_idx; padding_idx itself on padding.
std::string positionsAfterPadding(EncoderGraph& graph, const std::string& inputIds) {
    auto& build = graph.builder();
    const auto pad = build.int64Scalar("pad_id", graph.config().padTokenId);
    const auto real =
        build.node("Cast", {build.node("Not", {build.node("Equal", {inputIds, pad})})},
                   {intAttribute("to", onnx::TensorProto_DataType_INT64)});
    const auto counts = build.node("CumSum", {real, build.int64Scalar("axis_1", 1)});
    return build.node("Add", {build.node("Mul", {counts, real}), pad});
}

std::string bertLayer(EncoderGraph& graph, const std::string& hidden, const std::string& mask,
                      const std::string& prefix) {
    auto& build = graph.builder();
    const auto context =
        graph.selfAttention(graph.linear(hidden, prefix + "attention.self.query"),
                            graph.linear(hidden, prefix + "attention.self.key"),
                            graph.linear(hidden, prefix + "attention.self.value"), mask);
    const auto attended = graph.layerNorm(
        build.node("Add", {graph.linear(context, prefix + "attention.output.dense"), hidden}),
        prefix + "attention.output.LayerNorm");
    const auto intermediate = graph.activation(
        graph.linear(attended, prefix + "intermediate.dense"), graph.config().activation());
    return graph.layerNorm(
        build.node("Add", {graph.linear(intermediate, prefix + "output.dense"), attended}),
        prefix + "output.LayerNorm");
}

bool takesTokenTypes(const EncoderConfig& config) {
    return config.hasTokenTypes();
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden = bertEmbeddings(graph, inputs, "bert.embeddings.", GraphPositions::FromZero);
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    return bertEncoder(graph, hidden, mask, "bert.encoder.layer.");
}

}  // namespace

std::string bertEmbeddings(EncoderGraph& graph, const GraphInputs& inputs,
                           const std::string& prefix, GraphPositions positions) {
    auto& build = graph.builder();
    // The engine's order of the sums, transformers' too: word + token type, then + position.
    auto embedded =
        build.node("Gather", {graph.weight(prefix + "word_embeddings.weight"), inputs.inputIds});
    const auto types = prefix + "token_type_embeddings.weight";
    if (graph.has(types)) {
        const auto typed = inputs.tokenTypeIds.empty()
                               ? build.weight(prefix + "token_type_embeddings.type_0",
                                              graph.parameter(types).select(0, 0))
                               : build.node("Gather", {graph.weight(types), inputs.tokenTypeIds});
        embedded = build.node("Add", {embedded, typed});
    }
    const auto ids = positions == GraphPositions::FromZero
                         ? graph.positions(inputs.inputIds)
                         : positionsAfterPadding(graph, inputs.inputIds);
    embedded = build.node(
        "Add", {embedded,
                build.node("Gather", {graph.weight(prefix + "position_embeddings.weight"), ids})});
    return graph.layerNorm(embedded, prefix + "LayerNorm");
}

std::string bertEncoder(EncoderGraph& graph, std::string hidden, const std::string& mask,
                        const std::string& prefix) {
    for (std::int64_t i = 0; i < graph.config().numHiddenLayers; ++i) {
        hidden = bertLayer(graph, hidden, mask, prefix + std::to_string(i) + ".");
    }
    return hidden;
}

const FamilyGraph& bertGraph() {
    static const FamilyGraph graph{bertFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
