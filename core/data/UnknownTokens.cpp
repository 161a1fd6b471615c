#include "data/UnknownTokens.h"

#include <algorithm>

namespace bert {

void UnknownTokenShare::add(const std::vector<std::int32_t>& ids,
                            std::optional<std::int32_t> unknownId,
                            const std::vector<std::int32_t>& specialIds) {
    for (const auto id : ids) {
        if (id == unknownId) {
            ++unknown;
            ++tokens;
        } else if (std::find(specialIds.begin(), specialIds.end(), id) == specialIds.end()) {
            ++tokens;
        }
    }
}

void UnknownTokenShare::add(const Encoding& encoding, const Tokenizer& tokenizer) {
    add(encoding.inputIds, tokenizer.unkId(), tokenizer.specialIds());
}

double UnknownTokenShare::share() const {
    return tokens == 0 ? 0.0 : static_cast<double>(unknown) / static_cast<double>(tokens);
}

}  // namespace bert
