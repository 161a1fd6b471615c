#pragma once

// ONNX export of a classifier (sequence or token head), built with the ONNX protobuf library
// (libonnx-dev) and
// validated by its checker, so that ONNX Runtime and other ONNX consumers run what we trained.
//
// The graph (opset 17, fp32, inference: dropout is the identity) of every family
// (model/FamilyTraits.h), each family's base model built by its own file
// (model/<family>/<Family>Graph.cpp) as its modules compute, the heads composed once over it
// (model/onnx/FamilyGraph.h):
//   inputs  input_ids, attention_mask   int64 [batch, sequence]
//           token_type_ids              the same, only for families that read token types
//                                       (BERT, ELECTRA); RoBERTa, XLM-R, CamemBERT, DistilBERT
//                                       and ModernBERT take none, as their tokenizers give none
//   output  logits                      float [batch, num_labels] (sequence head), or
//                                       float [batch, sequence, num_labels] (token head:
//                                       every position, padding included, as transformers')
// Batch and sequence are dynamic axes; the labels are metadata (id2label.<i>).

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/SequenceClassifier.h"

namespace bert {

/// The opset of the default domain we write: the first with LayerNormalization.
inline constexpr std::int64_t kOnnxOpset = 17;
/// Weights above this total go to an external data file: one protobuf message cannot exceed
/// 2 GiB, so ONNX requires external data for larger models. Kept below the limit for the graph.
inline constexpr std::int64_t kOnnxExternalDataThreshold = (std::int64_t{2} << 30) - (64 << 20);

struct OnnxExportOptions {
    /// Total initializer bytes above which every weight goes to "<file name>.data".
    std::int64_t externalDataThresholdBytes = kOnnxExternalDataThreshold;
};

/// What writeOnnxModel wrote.
struct OnnxModelSummary {
    /// The graph's inputs, in order: input_ids, attention_mask, then token_type_ids for the
    /// families that read them.
    std::vector<std::string> inputNames;
    bool externalData = false;  ///< the weights are in file + ".data"
};

/// Whether this build can write ONNX (it was built with libonnx-dev).
bool onnxExportAvailable();
/// The families (model/FamilyTraits.h, by name) this build's export has a graph for, in
/// model/FamilyList.h's order; empty without ONNX.
std::vector<std::string> onnxExportFamilies();

/// Writes model's graph and weights (fp32) to file, plus file + ".data" when the weights exceed
/// the threshold, and checks the written model with onnx::checker. The model is not changed.
/// Throws InputError when this build has no ONNX support, StoreError when the file cannot be
/// written, EngineError when the checker rejects the graph (a bug of ours, never the user's).
OnnxModelSummary writeOnnxModel(const std::filesystem::path& file, const SequenceClassifier& model,
                                const OnnxExportOptions& options = {});

}  // namespace bert
