#pragma once

#include <string_view>

namespace bert {

/// Whether AdamW's weight decay applies to a parameter, decided from its transformers name as
/// transformers' Trainer decides it (Trainer.get_decay_parameter_names): no decay for biases and
/// normalisation weights. On the lower-cased full name, no decay when it holds "bias",
/// "layernorm" or "rmsnorm", or when one of its dot-separated parts is "norm" or ends in "_norm".
/// Names, not module types, because every family keeps transformers' names: BERT's
/// "LayerNorm", DistilBERT's "sa_layer_norm" and "output_layer_norm", ModernBERT's
/// "embeddings.norm", "attn_norm", "mlp_norm", "final_norm" and "head.norm".
/// Why it matters: decaying a norm weight (about 1) moves it by lr x decay each step, so a rule
/// that missed ModernBERT's norms left its parity with Trainer at 2.7e-5 in weights after 50 steps.
bool takesWeightDecay(std::string_view parameterName);

}  // namespace bert
