#pragma once

// The precision a run takes when nobody chose one. fp32 (transformers' default) everywhere but
// where the model's family is known to diverge under fp16 (DeBERTa: microsoft/DeBERTa issue 77)
// and the device multiplies bf16 in hardware: there bf16 is the default, because a user who
// reaches for half precision on a GPU reaches for fp16 first, and bf16 has fp32's range at
// half the activation memory (DeBERTa materialises its attention scores: they halve too). The
// command line applies it when --precision is not given (neither a flag nor a --config key),
// the studio's form when a model is loaded into an untouched fp32 setting; both say why.

#include <string>

#include "memory/DeviceTraits.h"
#include "model/EncoderConfig.h"
#include "train/TrainingConfig.h"

namespace bert {

/// bf16 for a family that fp16 makes diverge on a device with native bf16, else fp32.
Precision defaultPrecision(const EncoderConfig& model, const DeviceTraits& device);

/// Why defaultPrecision is not fp32, as a clause ("bf16 is DeBERTa-v2's default on this
/// device: ..."); empty when it is fp32.
std::string defaultPrecisionReason(const EncoderConfig& model, const DeviceTraits& device);

}  // namespace bert
