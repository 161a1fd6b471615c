#include "train/DefaultPrecision.h"

#include "model/FamilyTraits.h"

namespace bert {

Precision defaultPrecision(const EncoderConfig& model, const DeviceTraits& device) {
    return familyOf(model.modelType).fp16Overflows && device.nativeBf16 ? Precision::Bf16
                                                                        : Precision::Fp32;
}

std::string defaultPrecisionReason(const EncoderConfig& model, const DeviceTraits& device) {
    if (defaultPrecision(model, device) == Precision::Fp32) {
        return {};
    }
    return "bf16 is " + familyOf(model.modelType).name +
           "'s default on a device with native bf16: fp16 overflows its attention scores "
           "(microsoft/DeBERTa issue 77), bf16 keeps fp32's range and halves the activations";
}

}  // namespace bert
