#include "task/Task.h"

#include <cstdio>

#include "Error.h"

namespace bert {

std::string Task::autoClassName() const {
    return perToken() ? "AutoModelForTokenClassification" : "AutoModelForSequenceClassification";
}

std::string Task::outputHeader(const std::vector<std::string>& labels, bool withPair,
                               bool withExpected) const {
    return std::string("text") + (withPair ? ",pair" : "") + (withExpected ? ",label" : "") +
           ",predicted" + extraHeader(labels) + "\n";
}

std::string Task::outputRow(const std::string& text, const std::string* pair,
                            const std::string* expected, const TextPrediction& prediction,
                            const PredictionContext& context) const {
    std::string row = csvField(text);
    if (pair != nullptr) {
        row += "," + csvField(*pair);
    }
    if (expected != nullptr) {
        row += "," + csvField(*expected);
    }
    return row + "," + csvField(outputPredicted(prediction, context)) + extraColumns(prediction) +
           "\n";
}

const std::vector<const Task*>& allTasks() {
#define BERT_STUDIO_TASK_ENTRY(Kind, id) &id##Task(),
    static const std::vector<const Task*> tasks = {BERT_STUDIO_TASKS(BERT_STUDIO_TASK_ENTRY)};
#undef BERT_STUDIO_TASK_ENTRY
    return tasks;
}

const Task& taskOf(TaskKind kind) {
    for (const auto* task : allTasks()) {
        if (task->kind() == kind) {
            return *task;
        }
    }
    return *allTasks().front();  // unreachable: every enumerator comes from the list
}

const Task* taskNamed(std::string_view name) {
    for (const auto* task : allTasks()) {
        if (task->id() == name) {
            return task;
        }
    }
    return nullptr;
}

// ---- TaskKind's names (task/TaskKind.h), from the tasks -----------------------------------

std::string toString(TaskKind kind) {
    return std::string(taskOf(kind).id());
}

std::optional<TaskKind> taskKindFromString(std::string_view name) {
    const auto* task = taskNamed(name);
    return task == nullptr ? std::nullopt : std::optional<TaskKind>(task->kind());
}

std::vector<TaskKind> allTaskKinds() {
    std::vector<TaskKind> kinds;
    for (const auto* task : allTasks()) {
        kinds.push_back(task->kind());
    }
    return kinds;
}

std::string problemTypeOf(TaskKind kind) {
    return std::string(taskOf(kind).problemType());
}

bool isPerToken(TaskKind kind) {
    return taskOf(kind).perToken();
}

// ---- TaskSettings (task/TaskSettings.h) ------------------------------------------------------

nlohmann::json TaskSettings::toJson() const {
    const auto& task = taskOf(kind);
    nlohmann::json json = {{"task", std::string(task.id())}};
    task.writeSettings(*this, json);
    if (longText.mode != LongTextMode::Truncate) {
        json["long_text"] = {{"strategy", longTextModeName(longText.mode)}};
        if (longText.mode == LongTextMode::HeadTail) {
            json["long_text"]["head_tokens"] = longText.headTokens;
        } else {
            json["long_text"]["stride"] = longText.stride;
            json["long_text"]["pooling"] = windowPoolingName(longText.pooling);
        }
    }
    return json;
}

TaskSettings TaskSettings::fromJson(const nlohmann::json& block,
                                    const std::filesystem::path& source) {
    const auto* task = block.is_object() && block.contains("task") && block["task"].is_string()
                           ? taskNamed(block["task"].get<std::string>())
                           : nullptr;
    if (task == nullptr) {
        throw InputError(source, std::string("has a \"") + kTaskSettingsKey +
                                     "\" block without a task BERT Studio knows");
    }
    TaskSettings settings;
    settings.kind = task->kind();
    task->readSettings(settings, block, source);
    if (block.contains("long_text")) {
        const auto& longText = block["long_text"];
        const auto count = [&](const char* key, std::size_t& into) {
            if (longText.contains(key)) {
                if (!longText[key].is_number_unsigned()) {
                    throw InputError(source, std::string("\"long_text\": \"") + key +
                                                 "\" must be a whole number");
                }
                into = longText[key].get<std::size_t>();
            }
        };
        const auto mode = longText.is_object() && longText.contains("strategy") &&
                                  longText["strategy"].is_string()
                              ? longTextModeNamed(longText["strategy"].get<std::string>())
                              : std::nullopt;
        if (!mode) {
            throw InputError(source,
                             "\"long_text\" must name a strategy: truncate, head-tail or windows");
        }
        settings.longText.mode = *mode;
        count("head_tokens", settings.longText.headTokens);
        count("stride", settings.longText.stride);
        settings.longText.pooling = task->windowPooling();
        if (longText.contains("pooling")) {
            const auto pooling = longText["pooling"].is_string()
                                     ? windowPoolingNamed(longText["pooling"].get<std::string>())
                                     : std::nullopt;
            if (!pooling || *pooling == WindowPooling::Task) {
                throw InputError(source, "\"long_text\": \"pooling\" must be mean or max");
            }
            settings.longText.pooling = *pooling;
        }
    }
    return settings;
}

// ---- shared pieces ---------------------------------------------------------------------------

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
        return text;
    }
    std::string quoted = "\"";
    for (const char c : text) {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

std::string fixedNumber(double value, const char* format) {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

nlohmann::json probabilitiesByLabel(const std::vector<double>& scores,
                                    const std::vector<std::string>& labels) {
    nlohmann::json probabilities = nlohmann::json::object();
    for (std::size_t l = 0; l < labels.size() && l < scores.size(); ++l) {
        probabilities[labels[l]] = scores[l];
    }
    return probabilities;
}

std::string replacedAll(std::string text, const std::string& from, const std::string& to) {
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string probabilityHeader(const std::vector<std::string>& labels) {
    std::string header;
    for (const auto& label : labels) {
        header += "," + csvField("p_" + label);
    }
    return header;
}

std::string probabilityColumns(const TextPrediction& prediction) {
    std::string columns;
    for (const auto value : prediction.scores) {
        columns += "," + fixedNumber(value);
    }
    return columns;
}

std::string sequenceLogitsPython(bool onnx, const TaskSettings& settings) {
    const auto& longText = settings.longText;
    const std::string tensors = onnx ? "np" : "pt";
    const std::string run =
        onnx ? "session.run([\"logits\"], {name: batch[name].astype(np.int64) for name in "
               "INPUTS})[0]"
             : "model(**batch).logits.float()";
    std::string code;
    switch (longText.mode) {
        case LongTextMode::Truncate:
            code = R"PY(
batch = tokenizer(texts, padding=True, truncation=True, return_tensors="TENSORS")
)PY";
            break;
        case LongTextMode::HeadTail:
            code = R"PY(
# The run's long texts: the first HEAD text tokens and the last ones (bert_studio_task.long_text).
room = tokenizer.model_max_length - tokenizer.num_special_tokens_to_add()
probe, a = tokenizer("a")["input_ids"], tokenizer("a", add_special_tokens=False)["input_ids"]
before = next(k for k in range(len(probe)) if probe[k:k + len(a)] == a)
after = len(probe) - before - len(a)  # the template's special tokens around a text
rows = []
for text in texts:
    whole = tokenizer(text)["input_ids"]
    inner = whole[before:len(whole) - after]
    if len(inner) > room:
        inner = inner[:HEAD] + inner[len(inner) - (room - HEAD):]
    rows.append(whole[:before] + inner + whole[len(whole) - after:])
features = {"input_ids": rows}
if "token_type_ids" in tokenizer.model_input_names:
    features["token_type_ids"] = [[0] * len(row) for row in rows]
batch = tokenizer.pad(features, return_tensors="TENSORS")
)PY";
            code = replacedAll(code, "HEAD", std::to_string(longText.headTokens));
            break;
        case LongTextMode::Windows:
            code = R"PY(
# The run's long texts: windows overlapping by STRIDE tokens, each window's logits pooled into
# its text's by POOLING (bert_studio_task.long_text).
batch = tokenizer(texts, padding=True, truncation=True, stride=STRIDE,
                  return_overflowing_tokens=True, return_tensors="TENSORS")
document = batch.pop("overflow_to_sample_mapping")
)PY";
            code = replacedAll(code, "STRIDE", std::to_string(longText.stride));
            code = replacedAll(
                code, "POOLING",
                longText.pooling == WindowPooling::Max ? "the largest per output" : "their mean");
            break;
    }
    code = replacedAll(code, "TENSORS", tensors);
    if (onnx) {
        code += "logits = " + run + "\n";
    } else {
        code += "with torch.no_grad():\n    logits = " + run + "\n";
    }
    if (longText.mode == LongTextMode::Windows) {
        const std::string pool =
            longText.pooling == WindowPooling::Max ? (onnx ? ".max(0)" : ".amax(0)") : ".mean(0)";
        code += std::string(onnx ? "logits = np.stack(" : "logits = torch.stack(") +
                "[logits[document == i]" + pool + " for i in range(len(texts))])\n";
    }
    return code;
}

}  // namespace bert
