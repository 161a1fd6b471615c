// DeBERTa-v2's base model as an ONNX graph, node for node as its modules compute
// (model/deberta/DebertaModel.cpp): word embeddings (with absolute positions and token types
// where the config has them), LayerNorm; then post-LN layers whose scores add the disentangled
// terms. The relative positions are made once for the graph: the table index of every query-key
// distance the positions allow is computed here, by the engine's own bucket function (so that the
// logarithm rounds as in the engine and in transformers), and stored as two int64 tables
// (content-to-position and position-to-content); at run time the graph looks each pair's distance
// up in them. Each layer projects the normalised relative table through its query and key
// projections, multiplies, gathers each pair's entry (GatherElements) and joins the terms to the
// padding mask. The heads (pooler.dense and the classifier, or the token classifier) are composed
// over it (model/onnx/FamilyGraph.h).

#include <cmath>

#include <ATen/ATen.h>

#include "model/deberta/DebertaModel.h"
#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

constexpr const char* kPrefix = "deberta.";

bool takesTokenTypes(const EncoderConfig& config) {
    return config.hasTokenTypes();
}

/// The distance tables' lookups of this batch: [S, S] indices into the relative table's rows.
struct RelativeIndex {
    std::string contentToPosition;
    std::string positionToContent;
};

RelativeIndex relativeIndex(EncoderGraph& graph, const GraphInputs& inputs) {
    auto& build = graph.builder();
    const auto& config = graph.config();
    const auto longest = config.maxSequenceLength();
    const auto span = debertaSpan(config);
    // Every distance i - j from -(longest - 1) to longest - 1.
    const auto distances = at::arange(-(longest - 1), longest, at::kLong);
    const auto relative = debertaRelativePosition(config, distances);
    auto table = [&](const at::Tensor& indices, const std::string& name) {
        const auto values = indices.contiguous();
        return build.int64s(
            name,
            std::vector<std::int64_t>(values.data_ptr<std::int64_t>(),
                                      values.data_ptr<std::int64_t>() + values.numel()),
            {values.numel()});
    };
    const auto c2p = table(at::clamp(relative + span, 0, 2 * span - 1), "deberta_c2p_of_distance");
    const auto p2c = table(at::clamp(-relative + span, 0, 2 * span - 1), "deberta_p2c_of_distance");
    const auto positions = graph.positions(inputs.inputIds);
    // query i minus key j, shifted to index the tables: [S, S]
    const auto queries = build.node("Unsqueeze", {positions, build.int64s("axes_1", {1}, {1})});
    const auto keys = build.node("Unsqueeze", {positions, build.int64s("axes_0", {0}, {1})});
    const auto index = build.node(
        "Add", {build.node("Sub", {queries, keys}), build.int64Scalar("longest_1", longest - 1)});
    return {build.node("Gather", {c2p, index}), build.node("Gather", {p2c, index})};
}

/// [B, heads, S, S]: the entries of scores [B, heads, S, 2 x span] at index [S, S] per row.
std::string gatherPairs(EncoderGraph& graph, const GraphInputs& inputs, const std::string& scores,
                        const std::string& index) {
    auto& build = graph.builder();
    const auto batchHeadsQueries =
        build.node("Slice", {build.node("Shape", {scores}), build.int64s("start_0", {0}, {1}),
                             build.int64s("end_3", {3}, {1})});
    const auto length = build.node(
        "Unsqueeze", {graph.sequenceLength(inputs.inputIds), build.int64s("axes_0", {0}, {1})});
    const auto shape = build.node("Concat", {batchHeadsQueries, length}, {intAttribute("axis", 0)});
    return build.node("GatherElements", {scores, build.node("Expand", {index, shape})},
                      {intAttribute("axis", 3)});
}

std::string debertaLayer(EncoderGraph& graph, const GraphInputs& inputs, const std::string& hidden,
                         const std::string& mask, const std::string& table,
                         const RelativeIndex& index, const std::string& prefix) {
    auto& build = graph.builder();
    const auto& config = graph.config();
    const auto self = prefix + "attention.self.";
    const bool c2p = config.contentToPosition;
    const bool p2c = config.positionToContent;
    const float scaleFactor = 1.0F + (c2p ? 1.0F : 0.0F) + (p2c ? 1.0F : 0.0F);
    const float root = std::sqrt(static_cast<float>(config.headDim()) * scaleFactor);
    const auto queries = graph.splitHeads(graph.linear(hidden, self + "query_proj"), false);
    const auto keyRows = graph.linear(hidden, self + "key_proj");
    const auto keys = graph.splitHeads(keyRows, false);
    auto layerMask = mask;
    auto positionHeads = [&](const std::string& projection) {
        // [2 x span, H] -> [heads, head_dim, 2 x span]
        const auto split = build.node(
            "Reshape",
            {graph.linear(table, self + projection),
             build.int64s("table_heads", {0, config.numAttentionHeads, config.headDim()}, {3})});
        return build.node("Transpose", {split}, {intsAttribute("perm", {1, 2, 0})});
    };
    const auto rootValue = build.scalar("deberta_root", root);
    if (c2p) {
        const auto scores = build.node("MatMul", {queries, positionHeads("key_proj")});
        layerMask = build.node(
            "Add", {layerMask,
                    build.node("Div", {gatherPairs(graph, inputs, scores, index.contentToPosition),
                                       rootValue})});
    }
    if (p2c) {
        const auto scores = build.node("MatMul", {keys, positionHeads("query_proj")});
        const auto gathered =
            build.node("Transpose", {gatherPairs(graph, inputs, scores, index.positionToContent)},
                       {intsAttribute("perm", {0, 1, 3, 2})});
        layerMask = build.node("Add", {layerMask, build.node("Div", {gathered, rootValue})});
    }
    // q.k / root through the kernel's 1 / sqrt(head_dim): the queries times sqrt(head_dim) / root.
    const auto scaledQueries = build.node(
        "Mul", {queries, build.scalar("deberta_query_scale",
                                      std::sqrt(static_cast<float>(config.headDim())) / root)});
    const auto context =
        graph.attend(scaledQueries, graph.splitHeads(keyRows, true),
                     graph.splitHeads(graph.linear(hidden, self + "value_proj"), false), layerMask);
    const auto attended = graph.layerNorm(
        build.node("Add", {graph.linear(context, prefix + "attention.output.dense"), hidden}),
        prefix + "attention.output.LayerNorm");
    const auto intermediate = graph.activation(
        graph.linear(attended, prefix + "intermediate.dense"), config.activation());
    return graph.layerNorm(
        build.node("Add", {graph.linear(intermediate, prefix + "output.dense"), attended}),
        prefix + "output.LayerNorm");
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto& build = graph.builder();
    const auto& config = graph.config();
    const std::string embeddings = std::string(kPrefix) + "embeddings.";
    auto hidden = build.node(
        "Gather", {graph.weight(embeddings + "word_embeddings.weight"), inputs.inputIds});
    if (config.positionBiasedInput) {
        hidden = build.node(
            "Add",
            {hidden, build.node("Gather", {graph.weight(embeddings + "position_embeddings.weight"),
                                           graph.positions(inputs.inputIds)})});
    }
    if (config.hasTokenTypes()) {
        hidden = build.node(
            "Add", {hidden,
                    build.node("Gather", {graph.weight(embeddings + "token_type_embeddings.weight"),
                                          inputs.tokenTypeIds})});
    }
    hidden = graph.layerNorm(hidden, embeddings + "LayerNorm");
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    const std::string encoder = std::string(kPrefix) + "encoder.";
    auto table = graph.weight(encoder + "rel_embeddings.weight");
    if (graph.has(encoder + "LayerNorm.weight")) {
        table = graph.layerNorm(table, encoder + "LayerNorm");
    }
    const auto index = relativeIndex(graph, inputs);
    for (std::int64_t i = 0; i < config.numHiddenLayers; ++i) {
        hidden = debertaLayer(graph, inputs, hidden, mask, table, index,
                              encoder + "layer." + std::to_string(i) + ".");
    }
    return hidden;
}

}  // namespace

const FamilyGraph& debertaGraph() {
    static const FamilyGraph graph{debertaFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
