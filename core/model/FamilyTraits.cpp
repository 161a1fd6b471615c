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

std::string fp16Caution(const EncoderConfig& model) {
    const auto& family = familyOf(model.modelType);
    if (!family.fp16Overflows) {
        return {};
    }
    return "fp16 is known to make " + family.name +
           " training diverge: its attention scores overflow fp16's range (microsoft/DeBERTa "
           "issue 77); bf16 has fp32's range: choose bf16, or fp32";
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
