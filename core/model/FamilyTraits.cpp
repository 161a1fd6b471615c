#include "model/FamilyTraits.h"

#include <map>

#include "Error.h"

namespace bert {

std::string FamilyTraits::architecture(const std::string& modelType) const {
    static const std::map<std::string, std::string> classes = {
        {"bert", "BertForSequenceClassification"},
        {"roberta", "RobertaForSequenceClassification"},
        {"xlm-roberta", "XLMRobertaForSequenceClassification"},
        {"camembert", "CamembertForSequenceClassification"},
        {"distilbert", "DistilBertForSequenceClassification"},
        {"electra", "ElectraForSequenceClassification"},
        {"modernbert", "ModernBertForSequenceClassification"},
    };
    const auto it = classes.find(modelType);
    return it == classes.end() ? name + "ForSequenceClassification" : it->second;
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
