#pragma once

// The one model interface of the engine. The trainer, gradient checkpointing (train/Recompute.h),
// the frozen-prefix cache, inference, checkpoints and export see a SequenceClassifier and its
// EncoderLayers, never a family: model/Classifiers.h implements it once over each family's base
// model (model/FamilyModules.h), with transformers' names, so that state dicts move unchanged.
//
// The name is the first head's: a SequenceClassifier is an encoder with either head its
// configuration names (EncoderConfig::head). A sequence head gives one row of logits per
// sequence, a token head one per hidden row; the stages below are the same for both, so every
// technique (checkpointing, the prefix cache, unpadded batches) works on either unchanged.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <torch/nn/module.h>
#include <torch/nn/modules/normalization.h>

#include "data/TokenBatch.h"
#include "model/EncoderConfig.h"

namespace bert {

/// One encoder layer of any family: hidden states in a layout's form ([B, S, H] padded or
/// [T, H] packed) to the next layer's, in the same form.
class EncoderLayer : public torch::nn::Module {
public:
    virtual at::Tensor forward(const at::Tensor& hidden, const TokenLayout& layout) = 0;
};

/// Runs one encoder layer; the default calls it directly, gradient checkpointing replaces it.
using LayerRunner = std::function<at::Tensor(EncoderLayer& layer, const at::Tensor& hidden,
                                             const TokenLayout& layout)>;

/// A family's encoder with its classification head (sequence or token: config().head), cut in
/// the three stages every technique needs: the embedding stage (frozen by "freeze embeddings"),
/// the encoder layers (frozen from the bottom, checkpointed one by one, cached below the lowest
/// trainable one), and the head (final norm, pooling for a sequence head, classifier).
///
/// What forward and forwardFrom return, by head:
///   Sequence  [B, labels]: one row per sequence, in micro-batch order, padded or packed.
///   Token     padded [B, S, labels], padding rows included (their logits mean nothing);
///             packed [T, labels], one row per real token in the packed order (packBatch:
///             the layout's rows; packedRows() puts per-token targets in the same order).
class SequenceClassifier : public torch::nn::Module {
public:
    explicit SequenceClassifier(EncoderConfig config) : config_(std::move(config)) {}

    /// Logits of a padded or packed micro-batch (shapes above, by head).
    at::Tensor forward(const TokenBatch& batch);
    /// Logits of a padded batch.
    at::Tensor forward(const PaddedInputs& inputs);
    /// The hidden states after the embeddings and the lowest `layers` encoder layers: what a
    /// frozen prefix computes (train/PrefixCache.h).
    at::Tensor prefix(const TokenBatch& batch, std::int64_t layers);
    /// Logits from the hidden states after the lowest `layers` layers (prefix's output, or the
    /// cache's), in layout. A token head reads every row: the cache must restore all of them.
    at::Tensor forwardFrom(const at::Tensor& hidden, const TokenLayout& layout,
                           std::int64_t layers);

    std::int64_t layerCount() const { return static_cast<std::int64_t>(layers_.size()); }
    EncoderLayer& layer(std::int64_t index) { return *layers_.at(static_cast<std::size_t>(index)); }
    /// The modules of the embedding stage: what freezing the embeddings freezes and what the
    /// frozen-prefix cache keeps in eval mode.
    virtual std::vector<std::shared_ptr<torch::nn::Module>> embeddingModules() = 0;

    /// How encoder layers run (gradient checkpointing installs its own); empty: directly.
    void setLayerRunner(LayerRunner runner) { runner_ = std::move(runner); }

    /// transformers' _init_weights: normal(0, initializer_range) weights, zero biases,
    /// LayerNorm at (1, 0), the padding row of the word embeddings zero (ModernBERT: its
    /// truncated normals). Parameters must be on the CPU (the generator is a CPU one, for runs
    /// that repeat on any machine).
    virtual void initializeWeights(std::uint64_t seed);
    /// Re-initialises the parameters that follow the labels only (a base model's fresh head).
    void initializeClassifier(std::uint64_t seed);

    const EncoderConfig& config() const { return config_; }

protected:
    /// The embedding stage's output, in batch's layout.
    virtual at::Tensor embed(const TokenBatch& batch) = 0;
    /// Logits from the top layer's output: final norm, pooling (sequence head) and the head.
    virtual at::Tensor classify(const at::Tensor& top, const TokenLayout& layout) = 0;
    /// The modules whose parameters follow the labels.
    virtual std::vector<std::shared_ptr<torch::nn::Module>> labelHeadModules() = 0;
    /// Families list their layers, bottom first, once registered as modules.
    void addLayer(const std::shared_ptr<EncoderLayer>& layer) { layers_.push_back(layer.get()); }
    /// Initialises one module, at its path of names in the classifier ("bert.pooler.dense"), as
    /// transformers' default _init_weights does.
    virtual void initializeModule(const std::string& name, torch::nn::Module& module,
                                  at::Generator& generator);

private:
    EncoderConfig config_;
    std::vector<EncoderLayer*> layers_;  ///< owned as registered submodules
    LayerRunner runner_;
};

// ---- pieces the families share ------------------------------------------------------------

/// Dropout over hidden rows keyed by the layout (model/Dropout.h: the same mask for a token
/// packed or padded).
at::Tensor dropHidden(const at::Tensor& hidden, double p, bool training, const TokenLayout& layout);
/// The first token of each sequence: [B, H].
at::Tensor firstTokenRows(const at::Tensor& hidden, const TokenLayout& layout);
/// The mean of each sequence's real tokens: [B, H].
at::Tensor meanOfTokens(const at::Tensor& hidden, const TokenLayout& layout);
/// Rows of a per-token tensor in a layout's hidden-row order: padded [B, S, ...] (S at least
/// each sequence's length; labels, or transformers' logits) as the layout's rows, [B, S, ...]
/// itself for a padded layout and [T, ...] for a packed one (each real token's row, in
/// packBatch's order). What a token head's packed logits line up with.
at::Tensor packedRows(const at::Tensor& padded, const TokenLayout& layout);
at::Tensor activate(const at::Tensor& input, Activation activation);
torch::nn::LayerNorm makeLayerNorm(std::int64_t width, double eps);

}  // namespace bert
