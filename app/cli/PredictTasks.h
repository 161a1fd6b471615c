#pragma once

// `predict` for multi-label, regression and token classification (PredictTasks.cpp); the
// single-label path stays in Predict.cpp.

#include <cstddef>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "Commands.h"
#include "hf/ModelFolder.h"
#include "runs/OutputPaths.h"
#include "runs/RunTask.h"

namespace bert::cli {

/// What predict read and decided before the model runs.
struct TaskInputs {
    std::vector<std::string> texts;
    std::vector<std::string> expected;  ///< the file's label column, when named
    std::filesystem::path file;         ///< empty: texts from the command line or stdin
    std::filesystem::path output;       ///< --output (a file's predictions), or empty
    ProtectedPaths reads;               ///< what --output must not overwrite
    std::size_t maxLength = 0;
    std::size_t batchSize = 32;
    bool json = false;
};

/// A field for a CSV line, quoted when it must be.
std::string csvField(const std::string& text);
/// A score or value as predict prints it: 4 decimals.
std::string csvNumber(double value);

/// Predicts inputs for settings' task (runs/TaskPrediction.h, as Try it does) and prints (or
/// writes) them; returns the exit code. Multi-label and regression files are written as CSV
/// (text, label, predicted, ...), entities as JSON lines {"text", "entities": [{"type", "text",
/// "start", "end" (code points, end included), "byte_start", "byte_end"}]}.
int predictTask(const TaskSettings& settings, ModelBundle& bundle, const TaskInputs& inputs,
                std::ostream& out);

}  // namespace bert::cli
