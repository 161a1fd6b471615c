#include "model/FamilyTraits.h"

#include <map>

#include "Error.h"

namespace bert {

std::string FamilyTraits::architecture(const std::string& modelType, HeadKind head) const {
    // transformers' class-name stem of each model type.
    static const std::map<std::string, std::string> stems = {
        {"bert", "Bert"},
        {"roberta", "Roberta"},
        {"xlm-roberta", "XLMRoberta"},
        {"camembert", "Camembert"},
        {"distilbert", "DistilBert"},
        {"electra", "Electra"},
        {"modernbert", "ModernBert"},
    };
    const auto it = stems.find(modelType);
    const auto stem = it == stems.end() ? name : it->second;
    return stem +
           (head == HeadKind::Token ? "ForTokenClassification" : "ForSequenceClassification");
}

const std::vector<std::string>& FamilyTraits::labelHeadOf(HeadKind head) const {
    return head == HeadKind::Token ? tokenLabelHead : labelHead;
}

const std::vector<const FamilyTraits*>& modelFamilies() {
    static const std::vector<const FamilyTraits*> families = {
        &bertFamily(), &robertaFamily(), &distilBertFamily(), &electraFamily(),
        &modernBertFamily()};
    return families;
}

std::string supportedModelTypes() {
    std::string list;
    for (const auto* family : modelFamilies()) {
        for (const auto& type : family->modelTypes) {
            list += (list.empty() ? "" : ", ") + type;
        }
    }
    return list;
}

const FamilyTraits& familyOf(const std::string& modelType, const std::filesystem::path& source) {
    for (const auto* family : modelFamilies()) {
        for (const auto& type : family->modelTypes) {
            if (type == modelType) {
                return *family;
            }
        }
    }
    throw InputError(source, "model_type is \"" + modelType +
                                 "\", which BERT Studio does not train (supported: " +
                                 supportedModelTypes() + ")");
}

}  // namespace bert
