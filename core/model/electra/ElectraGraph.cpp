// ElectraModel's graph (model/electra/ElectraModel.cpp): BERT's embeddings of embedding_size,
// embeddings_project up to hidden_size when they differ, and BERT's layers; the heads (RoBERTa's
// with GELU, or a linear classifier on every token) are composed over it
// (model/onnx/FamilyGraph.h).

#include "model/bert/BertGraph.h"
#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

bool takesTokenTypes(const EncoderConfig& config) {
    return config.hasTokenTypes();
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden = bertEmbeddings(graph, inputs, "electra.embeddings.", GraphPositions::FromZero);
    if (graph.has("electra.embeddings_project.weight")) {
        hidden = graph.linear(hidden, "electra.embeddings_project");
    }
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    return bertEncoder(graph, hidden, mask, "electra.encoder.layer.");
}

}  // namespace

const FamilyGraph& electraGraph() {
    static const FamilyGraph graph{electraFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
