// RobertaForSequenceClassification's graph, XLM-RoBERTa's and CamemBERT's too
// (model/roberta/RobertaModel.cpp): BERT's embeddings with positions counted after the padding
// id and every token of type 0, BERT's layers, the head (dense + tanh + out_proj on <s>), or
// the token classifier's linear classifier on every token. The
// graph takes no token_type_ids, as transformers' ONNX exports of RoBERTa take none: its
// tokenizers give none.

#include "export/onnx/RobertaGraph.h"

#include "export/onnx/BertGraph.h"
#include "export/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

std::string classifierGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden =
        bertEmbeddings(graph, inputs, "roberta.embeddings.", GraphPositions::AfterPadding);
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    hidden = bertEncoder(graph, hidden, mask, "roberta.encoder.layer.");
    if (graph.config().head == HeadKind::Token) {
        return graph.linear(hidden, "classifier");
    }
    return classificationHead(graph, hidden, "classifier", Activation::Tanh);
}

}  // namespace

std::string classificationHead(EncoderGraph& graph, const std::string& hidden,
                               const std::string& prefix, Activation activation) {
    const auto dense = graph.linear(graph.firstToken(hidden), prefix + ".dense");
    return graph.linear(graph.activation(dense, activation), prefix + ".out_proj");
}

const FamilyGraph& robertaGraph() {
    static const FamilyGraph graph{robertaFamily, takesTokenTypes, classifierGraph};
    return graph;
}

}  // namespace bert::onnx_export
