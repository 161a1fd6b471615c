#pragma once

// BERT's graph pieces, shared as the modules are (model/bert/BertModel.h): RoBERTa and ELECTRA
// take BERT's embeddings and layers, DistilBERT its embeddings.

#include <string>

#include "model/onnx/EncoderGraph.h"

namespace bert::onnx_export {

/// How the embeddings number positions (model/bert/BertModel.h PositionIds).
enum class GraphPositions {
    FromZero,      ///< 0, 1, 2, ... (BERT, DistilBERT, ELECTRA)
    AfterPadding,  ///< RoBERTa: cumsum of the non-padding tokens + padding_idx; padding_idx on
                   ///< padding
};

/// BertEmbeddings under prefix ("bert.embeddings."): word (+ token type) + position,
/// LayerNorm; [B, S, embedding width]. Token types come from inputs.tokenTypeIds when the graph
/// takes them, else every token is type 0 (RoBERTa); none without token_type_embeddings.
std::string bertEmbeddings(EncoderGraph& graph, const GraphInputs& inputs,
                           const std::string& prefix, GraphPositions positions);

/// The layers of BertEncoder under prefix ("bert.encoder.layer."), each BertLayer: attention,
/// dense + residual LayerNorm, feed-forward, dense + residual LayerNorm.
std::string bertEncoder(EncoderGraph& graph, std::string hidden, const std::string& mask,
                        const std::string& prefix);

}  // namespace bert::onnx_export
