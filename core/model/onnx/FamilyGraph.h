#pragma once

// One family's ONNX graph: which inputs it takes and how its base model computes the top layer's
// hidden states, in eval mode, over the model's own weights. Each family has a file
// (model/<family>/<Family>Graph.cpp) that assembles EncoderGraph's pieces as its modules compute
// and defines id##Graph() (model/FamilyList.h). The heads are composed once over any family's
// graph (classifierGraph), from the family's table (model/FamilyTraits.h HeadParts), as the
// modules' heads are (model/Classifiers.h).

#include <string>
#include <vector>

#include "model/FamilyTraits.h"
#include "model/onnx/EncoderGraph.h"

namespace bert::onnx_export {

struct FamilyGraph {
    /// The family (model/FamilyTraits.h) whose base model this graph computes.
    const FamilyTraits& (*family)();
    /// Whether the graph takes token_type_ids: only where the model reads them, so that a
    /// tokenizer that gives none (RoBERTa's, DistilBERT's, ModernBERT's) feeds the graph as is.
    bool (*takesTokenTypes)(const EncoderConfig& config);
    /// Adds the nodes from the inputs to the top layer's hidden states [B, S, H]; returns their
    /// value.
    std::string (*encoder)(EncoderGraph& graph, const GraphInputs& inputs);
    /// What every row goes through before either head (FamilyEncoder::finish: ModernBERT's
    /// final_norm), row by row; null: nothing.
    std::string (*finish)(EncoderGraph& graph, const std::string& rows) = nullptr;
};

/// Every family's graph, in model/FamilyList.h's order.
const std::vector<const FamilyGraph*>& familyGraphs();
/// The graph of config's family; EngineError when a family has no graph (a bug of ours).
const FamilyGraph& familyGraphOf(const EncoderConfig& config);

/// The classifier's logits, [B, labels] for a sequence head and [B, S, labels] for a token head
/// (config().head): family's base model, then the head the family's table describes.
std::string classifierGraph(EncoderGraph& graph, const GraphInputs& inputs,
                            const FamilyGraph& family);

// The families' graphs (model/<family>/<Family>Graph.cpp): bertGraph(), ...
#define BERT_STUDIO_FAMILY_GRAPH(id) const FamilyGraph& id##Graph();
BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_GRAPH)
#undef BERT_STUDIO_FAMILY_GRAPH

}  // namespace bert::onnx_export
