#include "model/Classifiers.h"

#include "model/FamilyTraits.h"
#include "model/bert/BertModel.h"
#include "model/distilbert/DistilBertModel.h"
#include "model/electra/ElectraModel.h"
#include "model/modernbert/ModernBertModel.h"
#include "model/roberta/RobertaModel.h"

namespace bert {

namespace {

template <typename Classifier>
std::shared_ptr<SequenceClassifier> make(const EncoderConfig& config) {
    return std::make_shared<Classifier>(config);
}

// Each family's table (model/FamilyTraits.h) and its modules, one class per head: a new family
// adds a line here and one in modelFamilies().
struct Maker {
    const FamilyTraits& (*family)();
    std::shared_ptr<SequenceClassifier> (*sequence)(const EncoderConfig&);
    std::shared_ptr<SequenceClassifier> (*token)(const EncoderConfig&);
};
constexpr Maker kMakers[] = {
    {bertFamily, make<BertForSequenceClassification>, make<BertForTokenClassification>},
    {robertaFamily, make<RobertaForSequenceClassification>, make<RobertaForTokenClassification>},
    {distilBertFamily, make<DistilBertForSequenceClassification>,
     make<DistilBertForTokenClassification>},
    {electraFamily, make<ElectraForSequenceClassification>, make<ElectraForTokenClassification>},
    {modernBertFamily, make<ModernBertForSequenceClassification>,
     make<ModernBertForTokenClassification>},
};

}  // namespace

std::shared_ptr<SequenceClassifier> createClassifier(const EncoderConfig& config) {
    const auto& family = familyOf(config.modelType);
    for (const auto& maker : kMakers) {
        if (&maker.family() == &family) {
            return config.head == HeadKind::Token ? maker.token(config) : maker.sequence(config);
        }
    }
    throw std::logic_error("no modules for the family " + family.name);
}

}  // namespace bert
