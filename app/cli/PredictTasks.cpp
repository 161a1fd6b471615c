// `bert-studio-cli predict`'s output, for every task alike: the model run by
// runs/TaskPrediction.h (as Try it runs it), each prediction written as its task writes it
// (task/Task.h): a line or a JSON object per text, or a file's rows with a score against its
// labels.
#include "PredictTasks.h"

#include <sstream>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "io/AtomicFile.h"
#include "runs/OutputPaths.h"
#include "runs/TaskPrediction.h"
#include "task/Task.h"

namespace bert::cli {

int predictTask(const TaskSettings& settings, ModelBundle& bundle, const TaskInputs& inputs,
                std::ostream& out) {
    const auto& task = taskOf(settings.kind);
    const PredictionContext context{bundle.config.labels, settings};
    const auto& texts = inputs.texts;
    const auto predictions =
        predictTexts(settings, *bundle.model, *bundle.tokenizer, texts, inputs.maxLength,
                     inputs.batchSize, c10::Device(c10::kCPU), inputs.pairs);
    const bool withPairs = !inputs.pairs.empty();
    if (inputs.file.empty()) {
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (inputs.json) {
                nlohmann::json row = {{"text", texts[i]}};
                if (withPairs) {
                    row["pair"] = inputs.pairs[i];
                }
                row.update(task.predictionJson(predictions[i], context));
                row["max_length"] = inputs.maxLength;
                // A long text read in windows: how many, and the one that drove the answer (its
                // number from 1, and its text tokens [first, end)).
                if (predictions[i].windows > 1) {
                    row["windows"] = predictions[i].windows;
                    if (const auto& window = predictions[i].decidingWindow) {
                        row["deciding_window"] = {
                            {"window", window->index + 1},
                            {"tokens", {window->firstToken, window->endToken}}};
                    }
                }
                out << row.dump() << "\n";
            } else {
                out << task.predictionLine(predictions[i], context) << "\t" << texts[i]
                    << (withPairs ? "\t" + inputs.pairs[i] : std::string()) << "\n";
            }
        }
        return exit_code::kDone;
    }
    if (!inputs.output.empty()) {
        std::ostringstream written;
        written << task.outputHeader(context.labels, withPairs, !inputs.expected.empty());
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const auto* pair = withPairs ? &inputs.pairs[i] : nullptr;
            const auto* expected = inputs.expected.empty() ? nullptr : &inputs.expected[i];
            written << task.outputRow(texts[i], pair, expected, predictions[i], context);
        }
        checkOutputFile(inputs.output, "--output", inputs.reads);
        writeFileAtomically(inputs.output, written.str());
    }
    out << "scored " << texts.size() << " rows of " << inputs.file.string() << " at max length "
        << inputs.maxLength << " (" << task.id() << ")"
        << task.scoreAgainst(predictions, inputs.expected, context)
        << (inputs.output.empty() ? "" : "; predictions in " + inputs.output.string()) << "\n";
    return exit_code::kDone;
}

}  // namespace bert::cli
