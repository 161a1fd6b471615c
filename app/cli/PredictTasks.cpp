// `bert-studio-cli predict` for the tasks other than single-label (issue 29): the labels above
// the run's threshold (multi-label), the number in the target's units (regression), the
// entities with their offsets into the text (token classification).
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "PredictTasks.h"
#include "Error.h"
#include "io/AtomicFile.h"
#include "model/Inference.h"
#include "runs/OutputPaths.h"
#include "task/token/EntityMetrics.h"
#include "task/token/EntityText.h"
#include "task/multilabel/LabelSets.h"
#include "task/multilabel/MultiLabelMetrics.h"
#include "text/Utf8.h"
#include "tokenizer/UnicodeProperties.h"
#include "tokenizer/WordEncoding.h"

namespace bert::cli {

namespace {

bool isSpace(char32_t cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0x3000 || cp == 0xA0;
}

}  // namespace

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

TaggedSentence wordsOfText(const std::string& text) {
    // Words as a tagging model's training data has them: runs of text between spaces, and each
    // Chinese character a word of its own (CLUENER's and MSRA's character-level tags).
    TaggedSentence sentence;
    sentence.text = text;
    std::size_t pos = 0;
    std::size_t chars = 0;
    std::optional<WordSpan> open;
    auto close = [&] {
        if (open) {
            sentence.words.push_back(text.substr(open->byteBegin, open->byteEnd - open->byteBegin));
            sentence.wordSpans.push_back(*open);
            open.reset();
        }
    };
    while (pos < text.size()) {
        const auto begin = pos;
        const auto cp = utf8::decode(text, pos);
        if (isSpace(cp)) {
            close();
        } else if (unicode::isChineseChar(cp)) {
            close();
            open = WordSpan{begin, pos, chars};
            close();
        } else if (open) {
            open->byteEnd = pos;
        } else {
            open = WordSpan{begin, pos, chars};
        }
        ++chars;
    }
    close();
    sentence.tags.assign(sentence.words.size(), "O");
    return sentence;
}

int predictTask(const TaskSettings& settings, ModelBundle& bundle, const TaskInputs& inputs,
                std::ostream& out) {
    const auto& labels = bundle.config.labels;
    const auto& texts = inputs.texts;
    std::ostringstream written;  // --output's content
    std::string summary;
    if (settings.kind == TaskKind::TokenClassification) {
        std::vector<TaggedSentence> sentences;
        std::vector<std::vector<std::string>> words;
        for (const auto& text : texts) {
            sentences.push_back(wordsOfText(text));
            words.push_back(sentences.back().words);
        }
        const auto predicted = predictWordLabels(*bundle.model, *bundle.tokenizer, words,
                                                 inputs.maxLength, inputs.batchSize,
                                                 c10::Device(c10::kCPU));
        bool iobes = false;
        for (const auto& label : labels) {
            iobes = iobes || label.rfind("E-", 0) == 0 || label.rfind("S-", 0) == 0;
        }
        const auto mode = entityModeFor(iobes ? TagScheme::Iobes : TagScheme::Bio);
        std::size_t found = 0;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::vector<std::string> tags;
            for (const auto id : predicted[i]) {
                tags.push_back(id == kIgnoredLabel ? "O" : labels[static_cast<std::size_t>(id)]);
            }
            sentences[i].tags = tags;
            auto entities = nlohmann::json::array();
            std::string line;
            for (const auto& entity : entitiesInText(sentences[i], entitiesOf(tags, mode))) {
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
                out << (inputs.json ? row.dump() : (line.empty() ? "(none)" : line) + "\t" + texts[i])
                    << "\n";
            }
        }
        summary = "; " + std::to_string(found) + " entities";
    } else {
        const auto scores = predictProbabilities(*bundle.model, *bundle.tokenizer, texts,
                                                 inputs.maxLength, inputs.batchSize,
                                                 c10::Device(c10::kCPU));
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
            if (multiLabel) {
                const std::vector<double> p(scores[i].begin(), scores[i].end());
                const auto chosen = decideLabels(p, settings.threshold);
                LabelSet names;
                nlohmann::json probabilities = nlohmann::json::object();
                for (std::size_t l = 0; l < labels.size(); ++l) {
                    probabilities[labels[l]] = p[l];
                    if (chosen[l] != 0) {
                        names.push_back(labels[l]);
                        predicted += (predicted.empty() ? "" : ";") + labels[l];
                    }
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
                const double value = settings.scaling.inverse(scores[i].front());
                predicted = csvNumber(value);
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
                for (const auto value : scores[i]) {
                    written << "," << csvNumber(value);
                }
            }
            written << "\n";
            if (inputs.file.empty()) {
                out << (inputs.json ? row.dump() : (predicted.empty() ? "(none)" : predicted) +
                                                       "\t" + texts[i])
                    << "\n";
            }
        }
        if (!inputs.expected.empty() && !texts.empty()) {
            const auto n = static_cast<double>(texts.size());
            summary = multiLabel ? "; subset accuracy " + csvNumber(static_cast<double>(exact) / n) +
                                       " (" + std::to_string(exact) + "/" +
                                       std::to_string(texts.size()) + ")"
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
