// DistilBertModel's graph (model/distilbert/DistilBertModel.cpp): BERT's embeddings without
// token types, layers of q/k/v_lin, out_lin, sa_layer_norm, ffn.lin1/lin2 and
// output_layer_norm. The heads (pre_classifier + ReLU on [CLS] and the classifier; the
// classifier alone on every token) are composed over it (model/onnx/FamilyGraph.h).

#include "model/bert/BertGraph.h"
#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

std::string layer(EncoderGraph& graph, const std::string& hidden, const std::string& mask,
                  const std::string& prefix) {
    auto& build = graph.builder();
    const auto attention = prefix + "attention.";
    const auto context = graph.selfAttention(graph.linear(hidden, attention + "q_lin"),
                                             graph.linear(hidden, attention + "k_lin"),
                                             graph.linear(hidden, attention + "v_lin"), mask);
    const auto attended =
        graph.layerNorm(build.node("Add", {graph.linear(context, attention + "out_lin"), hidden}),
                        prefix + "sa_layer_norm");
    const auto inner =
        graph.activation(graph.linear(attended, prefix + "ffn.lin1"), graph.config().activation());
    return graph.layerNorm(build.node("Add", {graph.linear(inner, prefix + "ffn.lin2"), attended}),
                           prefix + "output_layer_norm");
}

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden = bertEmbeddings(graph, inputs, "distilbert.embeddings.", GraphPositions::FromZero);
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    for (std::int64_t i = 0; i < graph.config().numHiddenLayers; ++i) {
        hidden =
            layer(graph, hidden, mask, "distilbert.transformer.layer." + std::to_string(i) + ".");
    }
    return hidden;
}

}  // namespace

const FamilyGraph& distilBertGraph() {
    static const FamilyGraph graph{distilBertFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
