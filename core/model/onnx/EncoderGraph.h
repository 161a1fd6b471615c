#pragma once

// What every family's ONNX graph is made of, over one model's weights (eval mode: dropout is
// the identity): linear layers and LayerNorms whose biases are optional, the activations we
// implement, multi-head attention with an additive mask, pooling. Each family's file
// (model/<family>/<Family>Graph.cpp) assembles these as its modules compute; the heads are
// composed once (model/onnx/FamilyGraph.h). Only the ONNX export's files include this (they are
// compiled with ONNX's definitions, see core/CMakeLists.txt).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>

#include "model/EncoderConfig.h"
#include "model/onnx/GraphBuilder.h"

namespace bert::onnx_export {

/// The graph's inputs, as values a family's graph starts from.
struct GraphInputs {
    std::string inputIds;       ///< int64 [B, S]
    std::string attentionMask;  ///< int64 [B, S], 1 on real tokens, 0 on padding
    std::string tokenTypeIds;   ///< int64 [B, S]; empty when the family's graph takes none
};

class EncoderGraph {
public:
    /// Over a model's configuration and its state dict (hf/ModelFolder.h stateDict).
    EncoderGraph(onnx::GraphProto& graph, const EncoderConfig& config,
                 std::vector<std::pair<std::string, at::Tensor>> weights);

    GraphBuilder& builder() { return build_; }
    const EncoderConfig& config() const { return config_; }

    /// Whether the model has a parameter of this (transformers') name.
    bool has(const std::string& name) const { return weights_.count(name) != 0; }
    /// A parameter as stored; EngineError when the model has none of that name.
    const at::Tensor& parameter(const std::string& name) const;
    /// The parameter as a graph weight of the same name (added once, however often asked).
    std::string weight(const std::string& name);

    /// The sequence length S of input_ids, an int64 scalar.
    std::string sequenceLength(const std::string& inputIds);
    /// 0 .. S-1, int64 [S].
    std::string positions(const std::string& inputIds);

    /// x @ W^T (+ b when the model has prefix.bias), W stored transposed ([in, out]) so that
    /// MatMul needs no Transpose node.
    std::string linear(const std::string& input, const std::string& prefix);
    /// LayerNormalization over the last axis with prefix.weight (and prefix.bias when the
    /// model has one) and the configuration's epsilon.
    std::string layerNorm(const std::string& input, const std::string& prefix);
    std::string activation(const std::string& x, Activation activation);

    /// The attention mask as a keep-mask, bool [B, 1, 1, S].
    std::string paddingKeep(const std::string& attentionMask);
    /// A keep-mask (broadcasting to [B, heads, S, S]) as the additive mask the engine uses
    /// (model/Attention.h): 0 where kept, the lowest finite float where masked.
    std::string additiveMask(const std::string& keep);

    /// [B, S, H] -> [B, heads, S, head_dim], or [B, heads, head_dim, S] for keys.
    std::string splitHeads(const std::string& input, bool keysTransposed);
    /// softmax(q kT / sqrt(head_dim) + mask) v, q and v [B, heads, S, head_dim], kT
    /// [B, heads, head_dim, S]; the context merged back to [B, S, H].
    std::string attend(const std::string& q, const std::string& kT, const std::string& v,
                       const std::string& mask);
    /// attend() over projections q, k, v in [B, S, H].
    std::string selfAttention(const std::string& q, const std::string& k, const std::string& v,
                              const std::string& mask);

    /// The first token's hidden state: [B, S, H] -> [B, H].
    std::string firstToken(const std::string& hidden);
    /// The mean of the real tokens' hidden states: [B, S, H] -> [B, H].
    std::string maskedMean(const std::string& hidden, const std::string& attentionMask);

private:
    std::string halfTimesOnePlus(const std::string& x, const std::string& term);

    GraphBuilder build_;
    const EncoderConfig& config_;
    std::map<std::string, at::Tensor> weights_;
    std::map<std::string, std::string> added_;  ///< parameter name -> its graph weight
    std::string sequenceLength_;
    std::string positions_;
};

}  // namespace bert::onnx_export
