#pragma once

// `predict`'s predictions and output for every task (PredictTasks.cpp); Predict.cpp reads the
// arguments, the model and the texts.

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
    std::vector<std::string> pairs;     ///< each text's second text (pairs), or empty
    std::vector<std::string> expected;  ///< the file's label column, when named
    std::filesystem::path file;         ///< empty: texts from the command line or stdin
    std::filesystem::path output;       ///< --output (a file's predictions), or empty
    ProtectedPaths reads;               ///< what --output must not overwrite
    std::size_t maxLength = 0;
    std::size_t batchSize = 32;
    bool json = false;
};

/// Predicts inputs for settings' task (runs/TaskPrediction.h, as Try it does) and prints (or
/// writes) them as the task writes them (task/Task.h); returns the exit code. Sequence tasks'
/// files are written as CSV (text, label, predicted, ...), entities as JSON lines {"text",
/// "entities": [{"type", "text", "start", "end" (code points, end included), "byte_start",
/// "byte_end"}]}.
int predictTask(const TaskSettings& settings, ModelBundle& bundle, const TaskInputs& inputs,
                std::ostream& out);

}  // namespace bert::cli
