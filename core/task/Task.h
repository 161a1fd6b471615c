#pragma once

// What a task is, on the host: the one interface each task implements in its folder
// (task/<kind>/<Kind>Task.cpp) and everything outside task/ asks instead of switching on the
// kind. Its LibTorch side (loss, evaluation) is task/TaskObjective.h; its studio side is
// ui/task/. The tasks are listed once, in task/TaskList.h; taskOf finds one.
//
// A task answers for:
//   - its names: the id a user types, transformers' problem_type and Auto class, a sentence for
//     the export's README, the figure a run is judged by;
//   - its data: what a dataset's rows become (TrainingData), the warnings they deserve;
//   - the settings a run keeps for prediction (TaskSettings: threshold, scaling, word split), as
//     the run stored them, as config.json holds them, as the README says them;
//   - a prediction: deciding it from the model's scores, and writing it as predict prints it
//     (a JSON object, a line, a row of --output) and as the README's Python example reads it;
//   - how well predictions match a file's labels (predict --file --label-column).

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/LongText.h"
#include "task/TaskKind.h"
#include "task/TaskSettings.h"
#include "task/TextPrediction.h"

namespace bert {

struct DataRequest;
struct TrainingData;

/// What a prediction is written with: the model's labels (classes, labels, the target's name or
/// tags) and the settings it was predicted with.
struct PredictionContext {
    const std::vector<std::string>& labels;
    const TaskSettings& settings;
};

class Task {
public:
    virtual ~Task() = default;

    // ---- names -----------------------------------------------------------------------------
    virtual TaskKind kind() const = 0;
    /// The command line's and the job file's name: "single-label", "token-classification".
    virtual std::string_view id() const = 0;
    /// transformers' config.json problem_type ("single_label_classification"); empty for a task
    /// that has none (token classification).
    virtual std::string_view problemType() const = 0;
    /// Whether the head gives logits for every token or one row per sequence.
    virtual bool perToken() const { return false; }
    /// transformers' class that loads an export: "AutoModelForSequenceClassification" or
    /// "AutoModelForTokenClassification".
    std::string autoClassName() const;
    /// The task in a few words for an export's README: "regression (a number per text)".
    virtual std::string_view description() const = 0;
    /// The figure of the evaluation report a run is judged by ("accuracy", "micro_f1", "rmse",
    /// "entity_f1"): the report's "main".
    virtual std::string_view headlineMetric() const = 0;

    /// Whether the loss is a likelihood of classes (labels, tags), which focal loss reshapes;
    /// regression's squared error is not.
    virtual bool lossOverClasses() const { return true; }
    /// Whether its evaluations measure calibration and fit a temperature (task/Calibration.h):
    /// one softmax per text.
    virtual bool calibrates() const { return false; }
    /// Whether each example has one class (TokenizedSet::labels), which balanced sampling draws
    /// by (data/Sampler.h).
    virtual bool oneClassPerExample() const { return false; }

    // ---- data ------------------------------------------------------------------------------
    /// What request's files become for this task. Throws InputError naming the file at fault.
    virtual TrainingData prepareData(const DataRequest& request) const = 0;
    /// Whether a row without a label is skipped (and counted) rather than refused.
    virtual bool skipsUnlabelledRows() const { return false; }
    /// What this task's data deserves to be warned of before training (imbalanced classes, a
    /// target far from unit scale), each a sentence.
    virtual std::vector<std::string> dataWarnings(const TrainingData& /*data*/) const { return {}; }
    /// The sentence that names the classes (labels) under share of the examples and what weighs
    /// them up (data/LabelCheck.h rareLabelWarning); "" when none is rare or the task has no
    /// classes to weigh.
    virtual std::string rareLabelsWarning(const TrainingData& /*data*/, double /*share*/) const {
        return {};
    }
    /// How a long text's windows' logits become the text's by default (data/LongText.h): the
    /// mean (WindowPooling::Mean), or the largest per output (Max: multi-label, where one window
    /// that shows a label is enough).
    virtual WindowPooling windowPooling() const { return WindowPooling::Mean; }
    /// The task's own keys of a job file's "data" block (TaskSpec's fields it uses).
    virtual void writeJobData(const TaskSpec& /*spec*/, nlohmann::json& /*data*/) const {}

    // ---- the settings a run keeps ----------------------------------------------------------
    /// Fills settings from a run's stored config ("job" ...) and the task report of the
    /// evaluation whose weights are served (null when there is none).
    virtual void readRunSettings(TaskSettings& /*settings*/, const nlohmann::json& /*runConfig*/,
                                 const nlohmann::json& /*report*/) const {}
    /// Writes the task's own fields of settings into a "bert_studio_task" block.
    virtual void writeSettings(const TaskSettings& /*settings*/, nlohmann::json& /*block*/) const {}
    /// Reads them back; throws InputError naming source for a malformed field.
    virtual void readSettings(TaskSettings& /*settings*/, const nlohmann::json& /*block*/,
                              const std::filesystem::path& /*source*/) const {}
    /// The README's lines on those settings ("- Decision threshold: 0.4000 ..."), or "".
    virtual std::string describeSettings(const TaskSettings& /*settings*/) const { return {}; }

    // ---- a prediction ----------------------------------------------------------------------
    /// Decides a sequence prediction from its scores (prediction.scores filled, in label
    /// order): the chosen labels, the value. Token classification decides per word elsewhere
    /// (runs/TaskPrediction.cpp) and leaves this as it is.
    virtual void decide(TextPrediction& /*prediction*/, const TaskSettings& /*settings*/) const {}
    /// The output a decided prediction's answer rests on, whose score tells which of a long
    /// text's windows drove it: the chosen class, the likeliest chosen label. None for an
    /// answer that rests on no one output (regression's value, no label chosen).
    virtual std::optional<std::size_t> answerOutput(const TextPrediction& /*prediction*/) const {
        return std::nullopt;
    }
    /// The fields `predict --json` prints after "text": {"label": ..., "probabilities": ...}.
    virtual nlohmann::json predictionJson(const TextPrediction& prediction,
                                          const PredictionContext& context) const = 0;
    /// What `predict` prints before the text on a line: "spam\tham 0.0100  spam 0.9900".
    virtual std::string predictionLine(const TextPrediction& prediction,
                                       const PredictionContext& context) const = 0;
    /// predict --output's first line ("text,label,predicted,p_ham,p_spam\n"), "" for a file of
    /// JSON lines; withPair: the texts have second texts; withExpected: the input named a label
    /// column.
    virtual std::string outputHeader(const std::vector<std::string>& labels, bool withPair,
                                     bool withExpected) const;
    /// predict --output's line for one text (with its second text and its expected label when
    /// given).
    virtual std::string outputRow(const std::string& text, const std::string* pair,
                                  const std::string* expected, const TextPrediction& prediction,
                                  const PredictionContext& context) const;
    /// "; accuracy 0.9000 (9/10)": how predictions match the file's expected labels, "" when
    /// the task scores no such column.
    virtual std::string scoreAgainst(const std::vector<TextPrediction>& /*predictions*/,
                                     const std::vector<std::string>& /*expected*/,
                                     const PredictionContext& /*context*/) const {
        return {};
    }
    /// What the README's example prints for each text.
    virtual std::string_view predictionDescription() const = 0;
    /// The README example's Python after its header (which defines folder, tokenizer, model or
    /// session, labels, task and texts): the model's outputs read as this task reads them,
    /// one JSON line per text. INPUTS stands for the ONNX inputs' tuple.
    virtual std::string pythonReading(bool onnx, const PredictionContext& context) const = 0;

protected:
    /// predict --output's predicted column of a prediction ("" columns after it are the
    /// task's: extraColumns).
    virtual std::string outputPredicted(const TextPrediction& prediction,
                                        const PredictionContext& context) const = 0;
    virtual std::string extraHeader(const std::vector<std::string>& /*labels*/) const { return {}; }
    virtual std::string extraColumns(const TextPrediction& /*prediction*/) const { return {}; }
};

/// The task of kind.
const Task& taskOf(TaskKind kind);
/// Every task, in task/TaskList.h's order (the order the studio lists them).
const std::vector<const Task*>& allTasks();
/// The task whose id is name; nullptr for anything else.
const Task* taskNamed(std::string_view name);

/// Each task of task/TaskList.h, defined in its folder.
#define BERT_STUDIO_DECLARE_TASK(Kind, id) const Task& id##Task();
BERT_STUDIO_TASKS(BERT_STUDIO_DECLARE_TASK)
#undef BERT_STUDIO_DECLARE_TASK

// ---- pieces tasks share ------------------------------------------------------------------

/// A field for a CSV line, quoted when it must be.
std::string csvField(const std::string& text);
/// A score or value as predict prints it: 4 decimals.
std::string fixedNumber(double value, const char* format = "%.4f");
/// {"label a": p, ...}: a probability per label, by name.
nlohmann::json probabilitiesByLabel(const std::vector<double>& scores,
                                    const std::vector<std::string>& labels);
/// predict --output's probability columns: ",p_ham,p_spam" for the labels, ",0.0100,0.9900" for
/// a prediction's scores (single- and multi-label).
std::string probabilityHeader(const std::vector<std::string>& labels);
std::string probabilityColumns(const TextPrediction& prediction);
/// text with every from replaced by to (the README's placeholders).
std::string replacedAll(std::string text, const std::string& from, const std::string& to);

/// The README example's Python that puts the texts through a sequence model as the run made
/// them fit its max length (the exported tokenizer_config.json's model_max_length): truncated,
/// head+tail, or windows (transformers' overflowing tokens with the run's stride) whose logits
/// are pooled per text: `logits`, [texts, outputs], a torch tensor (transformers) or a numpy
/// array (ONNX Runtime).
std::string sequenceLogitsPython(bool onnx, const TaskSettings& settings);

}  // namespace bert
