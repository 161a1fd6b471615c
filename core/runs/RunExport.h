#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "runs/RunStore.h"

namespace bert {

/// The checkpoint folder a run's model is best taken from (best, else the last), or empty when
/// none of its recorded checkpoints is on disk.
std::filesystem::path modelCheckpointOfRun(RunStore& store, std::int64_t runId,
                                           bool preferBest = true);

/// modelCheckpointOfRun, or InputError saying why there is none: the run stopped before its
/// first checkpoint, or its checkpoints are not where the database recorded them (a database
/// moved without its runs folder).
std::filesystem::path requireModelCheckpoint(RunStore& store, std::int64_t runId,
                                             bool preferBest = true);

/// What an export writes beside the tokenizer files, config.json and the run card.
enum class ExportFormat {
    Transformers,  ///< model.safetensors: transformers' Auto classes load the folder
    Onnx,          ///< model.onnx (export/OnnxExport.h): ONNX Runtime runs it
};

/// "transformers" or "onnx"; nullopt for anything else.
std::optional<ExportFormat> parseExportFormat(const std::string& name);

/// Writes a run's model (best checkpoint, else last) as a transformers folder, or as model.onnx
/// with the same tokenizer files and config.json (its id2label is the label map), plus a run
/// card (README.md and run_card.json: configuration, labels, metrics, memory). Returns the folder.
///
/// Never destroys: the target is resolved (symbolic links too), the folder is written beside it
/// and renamed into place, so a failure part-way leaves the target as it was. A target that is
/// or holds a runs folder (any database's), the run database, the run's base model or its data
/// is refused, force or not. An existing non-empty target is refused unless force, and force
/// replaces only a folder an earlier export wrote (its .bert-studio-export lists its files)
/// holding nothing else: it never deletes other files.
/// Throws InputError for a run that does not exist or has no saved model and for a refused
/// target, StoreError when the target cannot be written.
std::filesystem::path exportRun(RunStore& store, std::int64_t runId,
                                const std::filesystem::path& target, bool preferBest = true,
                                bool force = false,
                                ExportFormat format = ExportFormat::Transformers);

}  // namespace bert
