#include "DefaultModel.h"

#include <cstdlib>

namespace bert {

std::filesystem::path defaultModelFolder() {
    if (const char* overridden = std::getenv("BERT_STUDIO_DEFAULT_MODEL");
        overridden != nullptr && *overridden != '\0') {
        return overridden;
    }
#ifdef BERT_STUDIO_DEFAULT_MODEL_DIR
    if (std::filesystem::exists(std::filesystem::path(BERT_STUDIO_DEFAULT_MODEL_DIR) / "config.json")) {
        return BERT_STUDIO_DEFAULT_MODEL_DIR;
    }
#endif
    return {};
}

}  // namespace bert
