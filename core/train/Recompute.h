#pragma once

#include "model/SequenceClassifier.h"

namespace bert {

/// Gradient checkpointing, called "recompute" in the code so that "checkpoint" means only a saved
/// training state (train/TrainingState.h). A LayerRunner for each encoder layer: the forward
/// pass keeps only the layer's input; backward recomputes the layer with the random-number state
/// (dropout masks) and autocast state of the forward pass, then back-propagates through the
/// recomputation. LibTorch has no torch.utils.checkpoint (pytorch #52744); this is the reentrant
/// form built on torch::autograd::Function.
///
/// A frozen input (embeddings frozen: the hidden states need no gradient) would make autograd
/// skip the whole block and leave the encoder untrained (transformers #21381, #26221). The
/// runner therefore passes a tensor that requires grad into every block, so backward always
/// runs and the layer's parameters get their gradients.
LayerRunner recomputingLayerRunner();

}  // namespace bert
