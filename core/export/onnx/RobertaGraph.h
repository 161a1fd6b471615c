#pragma once

// RoBERTa's classification head, shared with ELECTRA as the modules share it
// (model/roberta/RobertaModel.h ClassificationHead).

#include <string>

#include "export/onnx/EncoderGraph.h"

namespace bert::onnx_export {

/// On the first token: prefix.dense, activation, prefix.out_proj; [B, S, H] -> [B, labels].
std::string classificationHead(EncoderGraph& graph, const std::string& hidden,
                               const std::string& prefix, Activation activation);

}  // namespace bert::onnx_export
