#include "model/onnx/FamilyGraph.h"

#include "Error.h"

namespace bert::onnx_export {

const std::vector<const FamilyGraph*>& familyGraphs() {
#define BERT_STUDIO_FAMILY_GRAPH(id) &id##Graph(),
    static const std::vector<const FamilyGraph*> graphs = {
        BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_GRAPH)};
#undef BERT_STUDIO_FAMILY_GRAPH
    return graphs;
}

const FamilyGraph& familyGraphOf(const EncoderConfig& config) {
    const auto& family = familyOf(config.modelType);
    for (const auto* graph : familyGraphs()) {
        if (&graph->family() == &family) {
            return *graph;
        }
    }
    throw EngineError("the ONNX export has no graph for the " + family.name + " family");
}

std::string classifierGraph(EncoderGraph& graph, const GraphInputs& inputs,
                            const FamilyGraph& family) {
    // As FamilyClassifier::classify (model/Classifiers.cpp), without the dropouts.
    const auto& config = graph.config();
    const auto& head = family.family().headOf(config.head);
    const auto hidden = family.encoder(graph, inputs);
    auto finish = [&](const std::string& rows) {
        return family.finish != nullptr ? family.finish(graph, rows) : rows;
    };
    std::string rows;
    const bool late = config.head == HeadKind::Sequence && config.pooling == Pooling::Late;
    if (config.head == HeadKind::Token || late) {
        rows = finish(hidden);
    } else if (config.pooling == Pooling::Mean) {
        rows = graph.maskedMean(finish(hidden), inputs.attentionMask);
    } else {
        // The last step works row by row: with first-token pooling only that row needs it.
        rows = finish(graph.firstToken(hidden));
    }
    if (!head.dense.empty()) {
        rows = graph.activation(graph.linear(rows, head.dense), head.activationOf(config));
    }
    if (!head.norm.empty()) {
        rows = graph.layerNorm(rows, head.norm);
    }
    const auto logits = graph.linear(rows, head.classifier);
    // Late pooling: the mean of the real tokens' logits.
    return late ? graph.maskedMean(logits, inputs.attentionMask) : logits;
}

}  // namespace bert::onnx_export
