// `bert-studio-cli predict` for the tasks other than single-label (issue 29): the labels above
// the run's threshold (multi-label), the number in the target's units (regression), the
// entities with their offsets into the text (token classification).
#include "PredictTasks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "Error.h"
#include "io/AtomicFile.h"
#include "runs/OutputPaths.h"
#include "runs/TaskPrediction.h"
#include "task/multilabel/LabelSets.h"

namespace bert::cli {

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

std::string csvNumber(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", value);
    return text;
}

int predictTask(const TaskSettings& settings, ModelBundle& bundle, const TaskInputs& inputs,
                std::ostream& out) {
    const auto& labels = bundle.config.labels;
    const auto& texts = inputs.texts;
    std::ostringstream written;  // --output's content
    std::string summary;
    const auto predictions =
        predictTexts(settings, *bundle.model, *bundle.tokenizer, texts, inputs.maxLength,
                     inputs.batchSize, c10::Device(c10::kCPU));
    if (settings.kind == TaskKind::TokenClassification) {
        std::size_t found = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            auto entities = nlohmann::json::array();
            std::string line;
            for (const auto& entity : predictions[i].entities) {
                // Offsets into the original text: code points (CLUENER's start and inclusive
                // end) and bytes.
                entities.push_back({{"type", entity.type},
                                    {"text", entity.text},
                                    {"start", entity.charBegin},
                                    {"end", entity.charEnd},
                                    {"byte_start", entity.byteBegin},
                                    {"byte_end", entity.byteEnd}});
                line += (line.empty() ? "" : "  ") + entity.type + ": " + entity.text;
            }
            found += entities.size();
            const nlohmann::json row = {{"text", texts[i]}, {"entities", entities}};
            written << row.dump() << "\n";
            if (inputs.file.empty()) {
                out << (inputs.json ? row.dump()
                                    : (line.empty() ? "(none)" : line) + "\t" + texts[i])
                    << "\n";
            }
        }
        summary = "; " + std::to_string(found) + " entities";
    } else {
        const bool multiLabel = settings.kind == TaskKind::MultiLabel;
        written << "text" << (inputs.expected.empty() ? "" : ",label") << ",predicted";
        if (multiLabel) {
            for (const auto& label : labels) {
                written << "," << csvField("p_" + label);
            }
        }
        written << "\n";
        double squares = 0.0;
        std::size_t exact = 0;
        const char separator =
            multiLabel ? guessLabelSeparator(inputs.expected).value_or(';') : ';';
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::string predicted;
            nlohmann::json row = {{"text", texts[i]}};
            const auto& prediction = predictions[i];
            if (multiLabel) {
                LabelSet names;
                nlohmann::json probabilities = nlohmann::json::object();
                for (std::size_t l = 0; l < labels.size(); ++l) {
                    probabilities[labels[l]] = prediction.scores[l];
                }
                for (const auto l : prediction.chosen) {
                    names.push_back(labels[l]);
                    predicted += (predicted.empty() ? "" : ";") + labels[l];
                }
                row["labels"] = names;
                row["probabilities"] = probabilities;
                row["threshold"] = settings.threshold;
                if (!inputs.expected.empty()) {
                    auto truth = splitLabels(inputs.expected[i], separator);
                    std::sort(truth.begin(), truth.end());
                    std::sort(names.begin(), names.end());
                    exact += truth == names ? 1 : 0;
                }
            } else {
                const double value = prediction.value;
                // Nine significant digits: the run's RMSE is recomputed from these (a number
                // rounded to 4 decimals cannot give it back).
                char digits[32];
                std::snprintf(digits, sizeof digits, "%.9g", value);
                predicted = digits;
                row["value"] = value;
                if (!inputs.expected.empty()) {
                    const double truth = std::strtod(inputs.expected[i].c_str(), nullptr);
                    squares += (value - truth) * (value - truth);
                }
            }
            written << csvField(texts[i]);
            if (!inputs.expected.empty()) {
                written << ',' << csvField(inputs.expected[i]);
            }
            written << ',' << csvField(predicted);
            if (multiLabel) {
                for (const auto value : prediction.scores) {
                    written << "," << csvNumber(value);
                }
            }
            written << "\n";
            if (inputs.file.empty()) {
                out << (inputs.json ? row.dump()
                                    : (predicted.empty() ? "(none)" : predicted) + "\t" + texts[i])
                    << "\n";
            }
        }
        if (!inputs.expected.empty() && !texts.empty()) {
            const auto n = static_cast<double>(texts.size());
            summary = multiLabel
                          ? "; subset accuracy " + csvNumber(static_cast<double>(exact) / n) +
                                " (" + std::to_string(exact) + "/" + std::to_string(texts.size()) +
                                ")"
                          : "; RMSE " + csvNumber(std::sqrt(squares / n));
        }
    }
    if (!inputs.file.empty()) {
        if (!inputs.output.empty()) {
            checkOutputFile(inputs.output, "--output", inputs.reads);
            writeFileAtomically(inputs.output, written.str());
        }
        out << "scored " << texts.size() << " rows of " << inputs.file.string() << " at max length "
            << inputs.maxLength << " (" << toString(settings.kind) << ")" << summary
            << (inputs.output.empty() ? "" : "; predictions in " + inputs.output.string()) << "\n";
    }
    return exit_code::kDone;
}

}  // namespace bert::cli
