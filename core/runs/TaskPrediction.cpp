#include "runs/TaskPrediction.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "Error.h"
#include "model/Inference.h"
#include "task/multilabel/MultiLabelMetrics.h"
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

}  // namespace

std::vector<TextPrediction> predictTexts(const TaskSettings& settings, SequenceClassifier& model,
                                         const Tokenizer& tokenizer,
                                         const std::vector<std::string>& texts,
                                         std::size_t maxLength, std::size_t batchSize,
                                         c10::Device device) {
    if (settings.kind == TaskKind::TokenClassification) {
        return predictEntities(model, tokenizer, settings.wordSplit, texts, maxLength, batchSize,
                               device);
    }
    const auto scores = predictProbabilities(model, tokenizer, texts, maxLength, batchSize, device);
    std::vector<TextPrediction> out(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        auto& prediction = out[i];
        prediction.scores.assign(scores[i].begin(), scores[i].end());
        const auto& p = prediction.scores;
        // NaN probabilities printed as an answer (a config.json with layer_norm_eps -1 did).
        if (!std::all_of(p.begin(), p.end(), [](double v) { return std::isfinite(v); })) {
            throw EngineError("the model's outputs for text " + std::to_string(i + 1) +
                              " are not numbers (NaN or infinite): its weights or its "
                              "config.json are broken");
        }
        switch (settings.kind) {
            case TaskKind::MultiLabel: {
                const auto decided = decideLabels(p, settings.threshold);
                for (std::size_t l = 0; l < decided.size(); ++l) {
                    if (decided[l] != 0) {
                        prediction.chosen.push_back(l);
                    }
                }
                break;
            }
            case TaskKind::Regression:
                prediction.value = settings.scaling.inverse(p.front());
                break;
            case TaskKind::SingleLabel:
            case TaskKind::TokenClassification:  // handled above
                prediction.chosen = {
                    static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin())};
                break;
        }
    }
    return out;
}

}  // namespace bert
