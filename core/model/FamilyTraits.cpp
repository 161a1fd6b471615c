#include "model/FamilyTraits.h"

#include "Error.h"

namespace bert {

Activation HeadParts::activationOf(const EncoderConfig& config) const {
    return activation ? *activation : parseActivation(config.classifierActivation).value();
}

std::string FamilyTraits::architecture(const std::string& modelType, HeadKind head) const {
    std::string stem = name;
    for (const auto& type : modelTypes) {
        if (type.name == modelType) {
            stem = type.classStem;
        }
    }
    return stem +
           (head == HeadKind::Token ? "ForTokenClassification" : "ForSequenceClassification");
}

std::vector<std::string> FamilyTraits::labelHeadOf(HeadKind head) const {
    return {headOf(head).classifier + "."};
}

const std::vector<const FamilyTraits*>& modelFamilies() {
#define BERT_STUDIO_FAMILY_TABLE(id) &id##Family(),
    static const std::vector<const FamilyTraits*> families = {
        BERT_STUDIO_FAMILIES(BERT_STUDIO_FAMILY_TABLE)};
#undef BERT_STUDIO_FAMILY_TABLE
    return families;
}

std::string supportedModelTypes() {
    std::string list;
    for (const auto* family : modelFamilies()) {
        for (const auto& type : family->modelTypes) {
            list += (list.empty() ? "" : ", ") + type.name;
        }
    }
    return list;
}

const FamilyTraits& familyOf(const std::string& modelType, const std::filesystem::path& source) {
    for (const auto* family : modelFamilies()) {
        for (const auto& type : family->modelTypes) {
            if (type.name == modelType) {
                return *family;
            }
        }
    }
    throw InputError(source, "model_type is \"" + modelType +
                                 "\", which BERT Studio does not train (supported: " +
                                 supportedModelTypes() + ")");
}

}  // namespace bert
