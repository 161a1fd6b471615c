// RoBERTa's base model (XLM-RoBERTa's and CamemBERT's: the same code in transformers):
// BERT's embeddings and layers (model/bert/BertModel.h) under roberta.*, with position ids that
// start after the padding id and every token of type 0. No pooler: the sequence head reads <s>
// itself (classifier.dense, classifier.out_proj: model/FamilyTraits.h HeadParts).

#include "model/bert/BertModel.h"

namespace bert {

namespace {

std::shared_ptr<FamilyEncoder> makeRobertaModel(const EncoderConfig& config) {
    return std::make_shared<BertModelImpl>(config, PositionIds::AfterPadding);
}

}  // namespace

const FamilyModules& robertaModules() {
    static const FamilyModules modules{.family = robertaFamily, .encoder = makeRobertaModel};
    return modules;
}

}  // namespace bert
