#include "runs/RunExportReadme.h"

#include <nlohmann/json.hpp>

#include "runs/RunCompare.h"
#include "task/Task.h"
#include "train/Metrics.h"

namespace bert {

namespace {

// ---- the Python examples: header, then the task's reading of the outputs ---------------------

// Each header ends with the texts line; "FOLDER" is the folder as a Python string literal,
// "INPUTS" the ONNX graph's input names as a Python tuple.
constexpr const char* kTransformersHeader = R"PY(import json

import torch
from transformers import AUTO_CLASS, AutoTokenizer

folder = FOLDER
tokenizer = AutoTokenizer.from_pretrained(folder)
model = AUTO_CLASS.from_pretrained(folder).eval()
labels = model.config.id2label
task = getattr(model.config, "bert_studio_task", {})  # the threshold, the target's scaling
TEXTS
)PY";

constexpr const char* kOnnxHeader = R"PY(import json

import numpy as np
import onnxruntime as ort
from transformers import AutoTokenizer

folder = FOLDER
tokenizer = AutoTokenizer.from_pretrained(folder)
session = ort.InferenceSession(folder + "/model.onnx")
with open(folder + "/config.json", encoding="utf-8") as file:
    config = json.load(file)
labels = {int(i): label for i, label in config["id2label"].items()}
task = config.get("bert_studio_task", {})  # the threshold, the target's scaling
TEXTS
)PY";

std::string pythonExample(const ExportReadmeInputs& inputs) {
    const bool onnx = inputs.format == ExportFormat::Onnx;
    const auto& task = taskOf(inputs.settings.kind);
    std::string code = onnx ? kOnnxHeader : kTransformersHeader;
    code = replacedAll(code, "AUTO_CLASS", task.autoClassName());
    code += task.pythonReading(onnx, {inputs.run->labels, inputs.settings});
    // A Python tuple: ("input_ids", "attention_mask"), or ("input_ids", ) for one.
    std::string names;
    for (const auto& name : inputs.onnxInputs) {
        names += (names.empty() ? "" : ", ") + nlohmann::json(name).dump();
    }
    code = replacedAll(code, "INPUTS", "(" + names + (inputs.onnxInputs.size() == 1 ? ", )" : ")"));
    code = replacedAll(code, "TEXTS", kReadmeTextsLine);
    // A JSON string is a Python string literal too (the folder's quotes, backslashes, accents).
    return replacedAll(code, "FOLDER", nlohmann::json(inputs.folder.string()).dump());
}

}  // namespace

std::string exportReadme(const ExportReadmeInputs& inputs) {
    const auto& run = *inputs.run;
    const auto& settings = inputs.settings;
    std::string readme = "# " + run.name + "\n\nFine-tuned with BERT Studio from `" +
                         run.baseModel + "` on `" + run.datasetPath + "`.\n\n";
    const auto& task = taskOf(settings.kind);
    readme += "- Task: " + std::string(task.description()) + "\n- Labels: ";
    for (std::size_t i = 0; i < run.labels.size(); ++i) {
        readme += (i ? ", " : "") + run.labels[i];
    }
    readme += "\n";
    // Judged by the task's own metric: a regression run's best is its lowest RMSE, not an
    // accuracy it never had.
    if (const auto best = bestTaskMetric(*inputs.evaluations)) {
        readme += "- Best validation " + figureName(best->metric) + ": " +
                  fixedNumber(best->value) +
                  (best->higherIsBetter ? " (higher is better)" : " (lower is better)") + "\n";
    } else {
        readme += "- Not evaluated on validation data\n";
    }
    readme += task.describeSettings(settings);
    if (settings.longText.windows()) {
        readme += "- Long texts: cut into windows of the max length overlapping by " +
                  std::to_string(settings.longText.stride) +
                  " tokens, the windows' logits pooled by " +
                  (settings.longText.pooling == WindowPooling::Max ? "their largest per output"
                                                                   : "their mean") +
                  " into the text's (config.json's bert_studio_task; the model and its ONNX graph "
                  "read one window, the example below pools)\n";
    } else if (settings.longText.mode == LongTextMode::HeadTail) {
        readme += "- Long texts: the first " + std::to_string(settings.longText.headTokens) +
                  " text tokens and the last ones, up to the max length (config.json's "
                  "bert_studio_task)\n";
    }
    readme += "- Techniques: " + run.techniques +
              "\n- Peak memory: " + std::to_string(run.peakMemoryBytes >> 20) + " MiB on " +
              run.device + " (forecast " + std::to_string(run.forecastBytes >> 20) +
              " MiB)\n- Evaluations: " + std::to_string(inputs.evaluations->size()) + "\n\n";
    const bool onnx = inputs.format == ExportFormat::Onnx;
    if (onnx) {
        std::string names;
        for (const auto& name : inputs.onnxInputs) {
            names += (names.empty() ? "" : ", ") + name;
        }
        readme += "## Predict with ONNX Runtime\n\n`model.onnx` takes " + names +
                  " (int64) and gives `logits`; the labels are config.json's `id2label`.";
    } else {
        readme += "## Predict with transformers\n\n";
        // (Appended piece by piece: GCC 12 warns falsely of an overflow on "`" + a temporary.)
        readme += '`';
        readme += task.autoClassName();
        readme += "` loads this folder.";
    }
    readme += " For each text of `texts` this prints ";
    readme += task.predictionDescription();
    readme += ", as one JSON line with the fields `bert-studio-cli predict --json` prints:\n\n";
    readme += "```python\n" + pythonExample(inputs) + "```\n";
    readme += "\nThe full configuration and metrics are in run_card.json.\n";
    return readme;
}

}  // namespace bert
