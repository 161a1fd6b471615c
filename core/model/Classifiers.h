#pragma once

#include <memory>

#include "model/SequenceClassifier.h"

namespace bert {

/// A freshly constructed (not initialised) classifier of config's family with config.head's
/// head (<Family>ForSequenceClassification or <Family>ForTokenClassification), on the CPU in
/// fp32. Throws InputError for a model type no family implements.
std::shared_ptr<SequenceClassifier> createClassifier(const EncoderConfig& config);

}  // namespace bert
