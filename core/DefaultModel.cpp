#include "DefaultModel.h"

#include <cstdlib>

namespace bert {

namespace {

bool isModelFolder(const std::filesystem::path& folder) {
    std::error_code error;
    return std::filesystem::is_regular_file(folder / "config.json", error);
}

}  // namespace

std::filesystem::path defaultModelFolder() {
    if (const char* overridden = std::getenv("BERT_STUDIO_DEFAULT_MODEL");
        overridden != nullptr && *overridden != '\0') {
        return overridden;
    }
    // An installed program: the model of the runtime package, found from the program itself so
    // that a package extracted anywhere (or relocated) still finds it.
    std::error_code error;
    const auto program = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const auto installed = (program.parent_path() / kInstalledDefaultModel).lexically_normal();
        if (isModelFolder(installed)) {
            return installed;
        }
    }
#ifdef BERT_STUDIO_DEFAULT_MODEL_DIR
    if (isModelFolder(BERT_STUDIO_DEFAULT_MODEL_DIR)) {
        return BERT_STUDIO_DEFAULT_MODEL_DIR;
    }
#endif
    return {};
}

}  // namespace bert
