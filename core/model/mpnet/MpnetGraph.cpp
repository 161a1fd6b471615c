// MPNetModel's graph (model/mpnet/MpnetModel.cpp): RoBERTa's embeddings without token types
// (positions counted after the padding id), then post-LN layers whose attention adds the
// relative position bias to the scores. The bias is made once for the graph: the bucket of every
// key-minus-query distance the positions allow is computed here, by the engine's own bucket
// function (so the logarithm rounds as it does in the engine and in transformers), and stored as
// an int64 table; at run time the graph looks each pair's distance up in it, then the bucket's
// row of encoder.relative_attention_bias, and joins it to the padding mask. The heads
// (classifier.dense, tanh, classifier.out_proj; or the token classifier) are composed over it
// (model/onnx/FamilyGraph.h). The graph takes no token_type_ids: MPNet has none.

#include <ATen/ATen.h>

#include "model/bert/BertGraph.h"
#include "model/mpnet/MpnetModel.h"
#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

/// [1, heads, S, S]: the relative position bias of query i and key j.
std::string relativeBias(EncoderGraph& graph, const GraphInputs& inputs) {
    auto& build = graph.builder();
    const auto span = graph.config().maxPositionEmbeddings;
    const auto distances = at::arange(-(span - 1), span, at::kLong);
    const auto table = mpnetRelativePositionBucket(distances).contiguous();
    const std::vector<std::int64_t> buckets(table.data_ptr<std::int64_t>(),
                                            table.data_ptr<std::int64_t>() + table.numel());
    const auto bucketOf = build.int64s("mpnet_bucket_of_distance", buckets, {table.numel()});
    const auto positions = graph.positions(inputs.inputIds);
    // key j minus query i, shifted to index the table: [S, S]
    const auto keys = build.node("Unsqueeze", {positions, build.int64s("axes_0", {0}, {1})});
    const auto queries = build.node("Unsqueeze", {positions, build.int64s("axes_1", {1}, {1})});
    const auto index = build.node(
        "Add", {build.node("Sub", {keys, queries}), build.int64Scalar("span_1", span - 1)});
    const auto bucket = build.node("Gather", {bucketOf, index});
    const auto values = build.node(
        "Gather", {graph.weight("mpnet.encoder.relative_attention_bias.weight"), bucket});
    return build.node("Unsqueeze",
                      {build.node("Transpose", {values}, {intsAttribute("perm", {2, 0, 1})}),
                       build.int64s("axes_0", {0}, {1})});
}

std::string mpnetLayer(EncoderGraph& graph, const std::string& hidden, const std::string& mask,
                       const std::string& prefix) {
    auto& build = graph.builder();
    const auto attn = prefix + "attention.attn.";
    const auto context =
        graph.selfAttention(graph.linear(hidden, attn + "q"), graph.linear(hidden, attn + "k"),
                            graph.linear(hidden, attn + "v"), mask);
    const auto attended =
        graph.layerNorm(build.node("Add", {graph.linear(context, attn + "o"), hidden}),
                        prefix + "attention.LayerNorm");
    const auto intermediate = graph.activation(
        graph.linear(attended, prefix + "intermediate.dense"), graph.config().activation());
    return graph.layerNorm(
        build.node("Add", {graph.linear(intermediate, prefix + "output.dense"), attended}),
        prefix + "output.LayerNorm");
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden = bertEmbeddings(graph, inputs, "mpnet.embeddings.", GraphPositions::AfterPadding);
    // The bias joined to the padding mask once, [B, heads, S, S], for every layer.
    const auto mask = graph.builder().node(
        "Add",
        {relativeBias(graph, inputs), graph.additiveMask(graph.paddingKeep(inputs.attentionMask))});
    for (std::int64_t i = 0; i < graph.config().numHiddenLayers; ++i) {
        hidden = mpnetLayer(graph, hidden, mask, "mpnet.encoder.layer." + std::to_string(i) + ".");
    }
    return hidden;
}

}  // namespace

const FamilyGraph& mpnetGraph() {
    static const FamilyGraph graph{mpnetFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
