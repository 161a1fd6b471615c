#pragma once

// One family's ONNX graph: which inputs it takes and how its classifier (either head) computes
// logits, in eval mode, over the model's own weights. Each family has a file
// (export/onnx/<Family>Graph.cpp) that assembles EncoderGraph's pieces as its modules
// (model/<family>/) compute; a new family adds its file and a line in FamilyGraph.cpp's table.

#include <string>

#include "export/onnx/EncoderGraph.h"
#include "model/FamilyTraits.h"

namespace bert::onnx_export {

struct FamilyGraph {
    /// The family (model/FamilyTraits.h) whose classifiers this graph computes.
    const FamilyTraits& (*family)();
    /// Whether the graph takes token_type_ids: only where the model reads them, so that a
    /// tokenizer that gives none (RoBERTa's, DistilBERT's, ModernBERT's) feeds the graph as is.
    bool (*takesTokenTypes)(const EncoderConfig& config);
    /// Adds the nodes from the inputs to the logits, [B, labels] for a sequence head and
    /// [B, S, labels] for a token head (config().head); returns the logits' value.
    std::string (*build)(EncoderGraph& graph, const GraphInputs& inputs);
};

/// The graph of config's family; EngineError when a family has no graph (a bug of ours).
const FamilyGraph& familyGraphOf(const EncoderConfig& config);

// The families' graphs (export/onnx/<Family>Graph.cpp).
const FamilyGraph& bertGraph();
const FamilyGraph& robertaGraph();
const FamilyGraph& distilBertGraph();
const FamilyGraph& electraGraph();
const FamilyGraph& modernBertGraph();

}  // namespace bert::onnx_export
