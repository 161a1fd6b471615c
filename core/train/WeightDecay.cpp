#include "train/WeightDecay.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace bert {

bool takesWeightDecay(std::string_view parameterName) {
    std::string name(parameterName);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* word : {"bias", "layernorm", "rmsnorm"}) {
        if (name.find(word) != std::string::npos) {
            return false;
        }
    }
    constexpr std::string_view kNorm = "norm";
    constexpr std::string_view kUnderscoreNorm = "_norm";
    std::string_view rest(name);
    while (!rest.empty()) {
        const auto dot = rest.find('.');
        const auto part = rest.substr(0, dot);
        if (part == kNorm ||
            (part.size() >= kUnderscoreNorm.size() &&
             part.substr(part.size() - kUnderscoreNorm.size()) == kUnderscoreNorm)) {
            return false;
        }
        rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    return true;
}

}  // namespace bert
