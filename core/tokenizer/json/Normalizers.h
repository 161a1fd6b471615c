#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "tokenizer/json/JsonContext.h"

namespace bert::tokenizer_json {

/// One normalizer of tokenizer.json ("normalizer"): text in, text out, as the `tokenizers`
/// library's normalizer of the same type and settings (offsets are not tracked: the engine
/// needs ids only). Immutable once built.
class Normalizer {
public:
    virtual ~Normalizer() = default;
    virtual std::string normalize(std::string text) const = 0;
};

/// Builds the normalizer a JSON object describes: BertNormalizer, NFC, NFD, NFKC, NFKD,
/// Lowercase, StripAccents, Strip, Nmt, Precompiled, Replace, Prepend, ByteLevel, Sequence.
/// Throws InputError naming the file and the field for an unknown type or a bad setting.
std::unique_ptr<const Normalizer> parseNormalizer(const nlohmann::json& value,
                                                  const JsonContext& context);

}  // namespace bert::tokenizer_json
