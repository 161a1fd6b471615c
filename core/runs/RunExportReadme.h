#pragma once

// The README.md of an exported folder: the run in a few lines (its task, labels, best figure by
// the task's own metric, the threshold or target scaling it predicts with) and a Python example
// that predicts with that very folder, in transformers or ONNX Runtime, as the run does:
// softmax and the most likely label (single-label), a sigmoid per label and every label at or
// above the run's threshold (multi-label), the output with the target's standardisation undone
// (regression), each word's first token's tag read into entities with their offsets in the
// text (token classification). Each example prints one JSON line per text with the fields
// `bert-studio-cli predict --json` prints (tests/cli/CliExportReadmeTest.cpp runs them).

#include <filesystem>
#include <string>
#include <vector>

#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"

namespace bert {

/// The example's line that holds the texts to predict ("texts = [...]"); a user edits it, and
/// the tests replace it with their own texts.
inline constexpr const char* kReadmeTextsLine = "texts = [\"Some text to predict\"]";

/// What exportReadme describes.
struct ExportReadmeInputs {
    const RunRecord* run = nullptr;
    const std::vector<EvalMetrics>* evaluations = nullptr;
    TaskSettings settings;
    std::filesystem::path folder;  ///< where the export will stand (the example loads it)
    ExportFormat format = ExportFormat::Transformers;
    std::vector<std::string> onnxInputs;  ///< the ONNX graph's input names, in order
};

/// The README.md text of an export.
std::string exportReadme(const ExportReadmeInputs& inputs);

}  // namespace bert
