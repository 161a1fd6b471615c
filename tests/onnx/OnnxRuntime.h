#pragma once

// ONNX Runtime, the consumer users deploy exported models with, as a test oracle: runs
// tests/onnx/onnx_runtime.py under the venv's Python.

#include <filesystem>

#include <ATen/core/Tensor.h>
#include <nlohmann/json.hpp>

#include "model/SequenceClassifier.h"

namespace bert::test {

/// Logits ONNX Runtime computes for inputs on the model file (scratch files go to workFolder);
/// its view of the graph's inputs, outputs and metadata in `described` when given. Adds a test
/// failure with the script's output and returns an undefined tensor when the script fails.
at::Tensor onnxRuntimeLogits(const std::filesystem::path& model, const PaddedInputs& inputs,
                             const std::filesystem::path& workFolder,
                             nlohmann::json* described = nullptr);

}  // namespace bert::test
