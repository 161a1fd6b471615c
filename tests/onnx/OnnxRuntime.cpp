#include "onnx/OnnxRuntime.h"

#include <gtest/gtest.h>

#include "hf/SafeTensors.h"
#include "support/TestSupport.h"

namespace bert::test {

at::Tensor onnxRuntimeLogits(const std::filesystem::path& model, const PaddedInputs& inputs,
                             const std::filesystem::path& workFolder, nlohmann::json* described) {
    const auto inputFile = workFolder / "onnx_inputs.safetensors";
    const auto outputFile = workFolder / "onnx_logits.safetensors";
    writeSafeTensors(inputFile, {{"input_ids", inputs.inputIds},
                                 {"attention_mask", inputs.attentionMask},
                                 {"token_type_ids", inputs.tokenTypeIds}});
    const auto log = workFolder / "onnx_runtime.log";
    const int status =
        runPythonScript("tests/onnx/onnx_runtime.py",
                        {model.string(), inputFile.string(), outputFile.string()}, log);
    if (status != 0) {
        ADD_FAILURE() << "onnx_runtime.py failed:\n" << readFile(log);
        return {};
    }
    if (described != nullptr) {
        *described = nlohmann::json::parse(readFile(outputFile.string() + ".json"));
    }
    return readSafeTensors(outputFile).find("logits");
}

}  // namespace bert::test
