#include "model/TokenClassifier.h"

namespace bert {

LinearTokenClassifier::LinearTokenClassifier(const EncoderConfig& config, double dropout)
    : SequenceClassifier(config), dropout_(dropout) {}

void LinearTokenClassifier::addClassifier() {
    classifier =
        register_module("classifier", torch::nn::Linear(config().hiddenSize, config().numLabels()));
}

at::Tensor LinearTokenClassifier::classify(const at::Tensor& top, const TokenLayout& layout) {
    return classifier(dropHidden(top, dropout_, is_training(), layout));
}

std::vector<std::shared_ptr<torch::nn::Module>> LinearTokenClassifier::labelHeadModules() {
    return {classifier.ptr()};
}

}  // namespace bert
