#pragma once

// ONNX Runtime, the consumer users deploy exported models with, as a test oracle: runs
// tests/onnx/onnx_runtime.py under the venv's Python.

#include <filesystem>
#include <vector>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include "model/SequenceClassifier.h"

namespace bert::test {

/// One model file and the padded batch to run it on.
struct OnnxRuntimeJob {
    std::filesystem::path model;
    PaddedInputs inputs;
};

/// What ONNX Runtime gives for a job.
struct OnnxRuntimeResult {
    at::Tensor logits;  ///< basic graph optimisations only: the exact comparison
    /// A default session's (every graph optimisation on, fused kernels): what users get.
    at::Tensor defaultLogits;
    nlohmann::json described;  ///< the graph's inputs, outputs, metadata, producer, graph name
};

/// Runs every job in one Python process (scratch files go to workFolder). Adds a test failure
/// with the script's output and returns an empty vector when the script fails.
std::vector<OnnxRuntimeResult> runOnnxRuntime(const std::vector<OnnxRuntimeJob>& jobs,
                                              const std::filesystem::path& workFolder);

/// Logits ONNX Runtime computes for inputs on the model file (basic optimisations); its view of
/// the graph in `described` when given. Undefined (and a test failure) when the script fails.
at::Tensor onnxRuntimeLogits(const std::filesystem::path& model, const PaddedInputs& inputs,
                             const std::filesystem::path& workFolder,
                             nlohmann::json* described = nullptr);

}  // namespace bert::test
