#include "onnx/OnnxRuntime.h"

#include <string>

#include <gtest/gtest.h>

#include "hf/SafeTensors.h"
#include "support/TestSupport.h"

namespace bert::test {

std::vector<OnnxRuntimeResult> runOnnxRuntime(const std::vector<OnnxRuntimeJob>& jobs,
                                              const std::filesystem::path& workFolder) {
    std::vector<std::string> arguments;
    std::vector<std::filesystem::path> outputs;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const auto& inputs = jobs[i].inputs;
        const auto tag = std::to_string(i);
        const auto inputFile = workFolder / ("onnx_inputs_" + tag + ".safetensors");
        outputs.push_back(workFolder / ("onnx_logits_" + tag + ".safetensors"));
        writeSafeTensors(inputFile, {{"input_ids", inputs.inputIds},
                                     {"attention_mask", inputs.attentionMask},
                                     {"token_type_ids", inputs.tokenTypeIds}});
        arguments.insert(arguments.end(),
                         {jobs[i].model.string(), inputFile.string(), outputs.back().string()});
    }
    const auto log = workFolder / "onnx_runtime.log";
    if (runPythonScript("tests/onnx/onnx_runtime.py", arguments, log) != 0) {
        ADD_FAILURE() << "onnx_runtime.py failed:\n" << readFile(log);
        return {};
    }
    std::vector<OnnxRuntimeResult> results;
    for (const auto& output : outputs) {
        const auto tensors = readSafeTensors(output);
        results.push_back({tensors.find("logits"), tensors.find("logits_default"),
                           nlohmann::json::parse(readFile(output.string() + ".json"))});
    }
    return results;
}

at::Tensor onnxRuntimeLogits(const std::filesystem::path& model, const PaddedInputs& inputs,
                             const std::filesystem::path& workFolder, nlohmann::json* described) {
    const auto results = runOnnxRuntime({{model, inputs}}, workFolder);
    if (results.empty()) {
        return {};
    }
    if (described != nullptr) {
        *described = results.front().described;
    }
    return results.front().logits;
}

}  // namespace bert::test
