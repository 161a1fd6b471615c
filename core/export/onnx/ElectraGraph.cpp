// ElectraForSequenceClassification's graph (model/electra/ElectraModel.cpp): BERT's embeddings
// of embedding_size, embeddings_project up to hidden_size when they differ, BERT's layers, and
// RoBERTa's head with GELU, or the token classifier's linear classifier on every token.

#include "export/onnx/BertGraph.h"
#include "export/onnx/FamilyGraph.h"
#include "export/onnx/RobertaGraph.h"

namespace bert::onnx_export {

namespace {

bool takesTokenTypes(const EncoderConfig& config) {
    return config.hasTokenTypes();
}

std::string classifierGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden = bertEmbeddings(graph, inputs, "electra.embeddings.", GraphPositions::FromZero);
    if (graph.has("electra.embeddings_project.weight")) {
        hidden = graph.linear(hidden, "electra.embeddings_project");
    }
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    hidden = bertEncoder(graph, hidden, mask, "electra.encoder.layer.");
    if (graph.config().head == HeadKind::Token) {
        return graph.linear(hidden, "classifier");
    }
    return classificationHead(graph, hidden, "classifier", Activation::Gelu);
}

}  // namespace

const FamilyGraph& electraGraph() {
    static const FamilyGraph graph{electraFamily, takesTokenTypes, classifierGraph};
    return graph;
}

}  // namespace bert::onnx_export
