#include "runs/TaskPrediction.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <ATen/ATen.h>

#include "Error.h"
#include "data/LongText.h"
#include "model/Inference.h"
#include "task/DocumentPooling.h"
#include "task/Task.h"
#include "task/token/EntityMetrics.h"
#include "task/token/TextWords.h"
#include "tokenizer/WordEncoding.h"

namespace bert {

namespace {

std::vector<TextPrediction> predictEntities(SequenceClassifier& model, const Tokenizer& tokenizer,
                                            WordSplit split, const std::vector<std::string>& texts,
                                            std::size_t maxLength, std::size_t batchSize,
                                            c10::Device device) {
    const auto& labels = model.config().labels;
    std::vector<TextPrediction> out(texts.size());
    std::vector<std::vector<std::string>> words;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        out[i].words = wordsOfText(texts[i], split);
        words.push_back(out[i].words.words);
    }
    const auto predicted = predictWordLabels(model, tokenizer, words, maxLength, batchSize, device);
    const bool iobes = std::any_of(labels.begin(), labels.end(), [](const std::string& label) {
        return label.rfind("E-", 0) == 0 || label.rfind("S-", 0) == 0;
    });
    const auto mode = entityModeFor(iobes ? TagScheme::Iobes : TagScheme::Bio);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto& sentence = out[i].words;
        sentence.tags.clear();
        // Entities are read over the words that have a token, as the run's evaluation reads
        // them: a word that gives no token (a character the tokenizer drops) neither ends an
        // entity nor starts one, and words past the max length are not tagged.
        std::vector<std::size_t> tagged;
        std::vector<std::string> taggedTags;
        for (std::size_t w = 0; w < predicted[i].size(); ++w) {
            const auto id = predicted[i][w];
            sentence.tags.push_back(id == kIgnoredLabel ? "O"
                                                        : labels[static_cast<std::size_t>(id)]);
            if (id != kIgnoredLabel) {
                tagged.push_back(w);
                taggedTags.push_back(sentence.tags.back());
            }
        }
        auto entities = entitiesOf(taggedTags, mode);
        for (auto& entity : entities) {
            entity.begin = tagged[entity.begin];
            entity.end = tagged[entity.end - 1] + 1;
        }
        out[i].entities = entitiesInText(sentence, entities);
    }
    return out;
}

/// Scores [rows, outputs] as rows of doubles.
std::vector<std::vector<double>> rowsOf(const at::Tensor& scores) {
    const auto outputs = scores.to(at::kFloat).contiguous();
    std::vector<std::vector<double>> rows;
    const auto width = outputs.size(1);
    const float* data = outputs.data_ptr<float>();
    for (std::int64_t row = 0; row < outputs.size(0); ++row) {
        rows.emplace_back(data + row * width, data + (row + 1) * width);
    }
    return rows;
}

/// What the model made of texts cut as the run cut them: each text's scores, and with windows
/// each window's own scores and the text's tokens.
struct LongTextScores {
    std::vector<std::vector<double>> texts;
    std::vector<std::vector<double>> windows;  ///< each window's outputs, in order
    std::vector<std::size_t> firstWindow;      ///< text i's windows: [first[i], first[i + 1])
    std::vector<std::size_t> textTokens;       ///< each text's tokens, template excluded
};

/// Texts made to fit as the run made them (data/LongText.h): head+tail, or windows whose
/// logits are pooled into the text's before its outputs are read.
LongTextScores predictLongTexts(const LongTextSpec& spec, SequenceClassifier& model,
                                const Tokenizer& tokenizer, const std::vector<std::string>& texts,
                                std::size_t maxLength, std::size_t batchSize, c10::Device device,
                                const TemplateShape& shape, double temperature) {
    checkLongTextSpec(spec, maxLength, shape);
    LongTextScores scores;
    std::vector<Encoding> encodings;
    std::vector<std::int64_t> documentOf;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto whole = tokenizer.encode(texts[i], 0);
        scores.textTokens.push_back(whole.size() - std::min(whole.size(), shape.total()));
        scores.firstWindow.push_back(encodings.size());
        for (auto& encoding : fitLongText(whole, maxLength, spec, shape)) {
            encodings.push_back(std::move(encoding));
            documentOf.push_back(static_cast<std::int64_t>(i));
        }
    }
    scores.firstWindow.push_back(encodings.size());
    auto logits = predictLogits(model, tokenizer, encodings, batchSize, device);
    if (spec.windows()) {
        scores.windows = rowsOf(outputsOfLogits(model.config(), logits, temperature));
        logits = poolByDocument(logits, at::tensor(documentOf, at::kLong),
                                static_cast<std::int64_t>(texts.size()), spec.pooling);
    }
    scores.texts = rowsOf(outputsOfLogits(model.config(), logits, temperature));
    return scores;
}

/// Which of the text's windows gave the answer's output its highest score.
void noteDecidingWindow(TextPrediction& prediction, std::size_t text, const Task& task,
                        const LongTextScores& scores, const LongTextSpec& spec,
                        std::size_t maxLength, const TemplateShape& shape) {
    const auto first = scores.firstWindow[text];
    prediction.windows = scores.firstWindow[text + 1] - first;
    const auto output = task.answerOutput(prediction);
    if (prediction.windows < 2 || !output) {
        return;
    }
    std::size_t best = 0;
    for (std::size_t k = 1; k < prediction.windows; ++k) {
        if (scores.windows[first + k][*output] > scores.windows[first + best][*output]) {
            best = k;
        }
    }
    const auto [begin, end] = windowTokens(best, scores.textTokens[text], maxLength, spec, shape);
    prediction.decidingWindow = TextPrediction::Window{best, begin, end};
}

}  // namespace

std::vector<TextPrediction> predictTexts(const TaskSettings& settings, SequenceClassifier& model,
                                         const Tokenizer& tokenizer,
                                         const std::vector<std::string>& texts,
                                         std::size_t maxLength, std::size_t batchSize,
                                         c10::Device device,
                                         const std::vector<std::string>& pairs) {
    const auto& task = taskOf(settings.kind);
    const bool anyPair =
        std::any_of(pairs.begin(), pairs.end(), [](const std::string& p) { return !p.empty(); });
    if (anyPair && (task.perToken() || settings.longText.mode != LongTextMode::Truncate)) {
        throw InputError(
            task.perToken()
                ? "a token classification model tags one text: it reads no pairs"
                : "this model cuts long texts (" +
                      std::string(settings.longText.windows() ? "windows" : "head+tail") +
                      "), which a pair of texts cannot be");
    }
    if (task.perToken()) {
        return predictEntities(model, tokenizer, settings.wordSplit, texts, maxLength, batchSize,
                               device);
    }
    const auto& spec = settings.longText;
    // Only a strategy that cuts texts itself needs the template (an encode of a probe text).
    const auto shape =
        spec.mode == LongTextMode::Truncate ? TemplateShape{} : templateShapeOf(tokenizer);
    LongTextScores cut;
    const double temperature = settings.temperature.value_or(1.0);
    if (spec.mode == LongTextMode::Truncate) {
        for (auto& row : predictProbabilities(model, tokenizer, texts, maxLength, batchSize, device,
                                              pairs, temperature)) {
            cut.texts.emplace_back(row.begin(), row.end());
        }
    } else {
        cut = predictLongTexts(spec, model, tokenizer, texts, maxLength, batchSize, device, shape,
                               temperature);
    }
    std::vector<TextPrediction> out(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto& prediction = out[i];
        prediction.scores = cut.texts[i];
        const auto& p = prediction.scores;
        // NaN probabilities printed as an answer (a config.json with layer_norm_eps -1 did).
        if (!std::all_of(p.begin(), p.end(), [](double v) { return std::isfinite(v); })) {
            throw EngineError("the model's outputs for text " + std::to_string(i + 1) +
                              " are not numbers (NaN or infinite): its weights or its "
                              "config.json are broken");
        }
        task.decide(prediction, settings);
        if (spec.windows()) {
            noteDecidingWindow(prediction, i, task, cut, spec, maxLength, shape);
        }
    }
    return out;
}

}  // namespace bert
