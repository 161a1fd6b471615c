// RobertaModel's graph, XLM-RoBERTa's and CamemBERT's too (model/roberta/RobertaModel.cpp):
// BERT's embeddings with positions counted after the padding id and every token of type 0, and
// BERT's layers; the heads are composed over it (model/onnx/FamilyGraph.h). The
// graph takes no token_type_ids, as transformers' ONNX exports of RoBERTa take none: its
// tokenizers give none.

#include "model/bert/BertGraph.h"
#include "model/onnx/FamilyGraph.h"

namespace bert::onnx_export {

namespace {

bool takesTokenTypes(const EncoderConfig&) {
    return false;
}

std::string encoderGraph(EncoderGraph& graph, const GraphInputs& inputs) {
    auto hidden =
        bertEmbeddings(graph, inputs, "roberta.embeddings.", GraphPositions::AfterPadding);
    const auto mask = graph.additiveMask(graph.paddingKeep(inputs.attentionMask));
    return bertEncoder(graph, hidden, mask, "roberta.encoder.layer.");
}

}  // namespace

const FamilyGraph& robertaGraph() {
    static const FamilyGraph graph{robertaFamily, takesTokenTypes, encoderGraph};
    return graph;
}

}  // namespace bert::onnx_export
