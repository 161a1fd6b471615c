#include "data/UnknownTokens.h"

#include <algorithm>
#include <cstdio>

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
    const auto unkId = tokenizer.unkId();
    if (unkId && unknownToken.empty()) {
        unknownToken = tokenizer.tokenString(*unkId);
    }
    add(encoding.inputIds, unkId, tokenizer.specialIds());
}

std::string unknownTokenWarning(const UnknownTokenShare& share) {
    if (!share.warns()) {
        return {};
    }
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100.0 * share.share());
    const std::string token = share.unknownToken.empty() ? "" : " (" + share.unknownToken + ")";
    const std::string head =
        std::string(percent) + " of the tokens are unknown to the model's vocabulary" + token;
    constexpr double kMost = 0.5;
    constexpr double kLarge = 0.1;
    if (share.share() > kMost) {
        return head +
               ": it cannot read this text, and a run would learn little beyond chance; "
               "choose a model for this language";
    }
    if (share.share() > kLarge) {
        return head +
               ": a run learns from the rest of the text only; a model for this "
               "language would read all of it";
    }
    return head + ": some words are lost to it; a model for this language would read more of it";
}

double UnknownTokenShare::share() const {
    return tokens == 0 ? 0.0 : static_cast<double>(unknown) / static_cast<double>(tokens);
}

}  // namespace bert
