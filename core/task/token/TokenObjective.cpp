// Token classification (NER): a softmax per token and cross-entropy over the tokens that carry
// a tag (a word's first sub-word), as transformers' ...ForTokenClassification with labels
// aligned the usual way (-100 elsewhere): the mean over those tokens. The evaluation keeps each
// tagged token's prediction, from which entity-level figures are computed as seqeval does.
#include <algorithm>
#include <cmath>

#include <ATen/ATen.h>

#include "data/Batch.h"
#include "task/Calibration.h"
#include "task/Task.h"
#include "task/TaskMetricsJson.h"
#include "task/TaskObjectiveKinds.h"
#include "task/token/EntityMetrics.h"
#include "tokenizer/WordEncoding.h"

namespace bert {

namespace {

/// Where each example's tagged tokens start in a flat list of a set's tagged tokens, in the
/// set's order: a tagged token's slot in the evaluation's figures.
std::vector<std::int64_t> taggedOffsets(const TokenizedSet& set) {
    std::vector<std::int64_t> offsets(set.size() + 1, 0);
    for (std::size_t i = 0; i < set.size(); ++i) {
        std::int64_t tagged = 0;
        for (const auto tag : set.tokenLabels[i]) {
            tagged += tag != kIgnoredLabel ? 1 : 0;
        }
        offsets[i + 1] = offsets[i] + tagged;
    }
    return offsets;
}

class TokenEvaluation final : public TaskEvaluation {
public:
    TokenEvaluation(const TokenizedSet& set, std::vector<std::string> tags, EntityMode mode,
                    WordSplit wordSplit, c10::Device device)
        : set_(set),
          tags_(std::move(tags)),
          mode_(mode),
          wordSplit_(wordSplit),
          offsets_(taggedOffsets(set)),
          // One slot per tagged token, and a last one that untagged rows write to.
          predictions_(at::zeros({offsets_.back() + 1},
                                 at::TensorOptions().dtype(at::kDouble).device(device))),
          confidence_(at::zeros_like(predictions_)),
          truthProbability_(at::zeros_like(predictions_)) {}

    void add(const at::Tensor& logits, const at::Tensor& targets, std::size_t) override {
        // targets: [rows, 2], each row's tag and its slot (-1: not tagged); logits [rows, tags]
        // in the same order, padded or packed alike.
        const auto rows = targets.reshape({-1, 2});
        const auto slots = rows.select(1, 1);
        // Untagged rows go to the scratch slot: masked_select would read its result's size
        // from the device, a wait for the GPU at every evaluation batch.
        const auto scratch = at::full_like(slots, offsets_.back());
        const auto slotOrScratch = at::where(slots >= 0, slots, scratch);
        const auto probabilities = logits.reshape({rows.size(0), -1}).to(at::kDouble).softmax(-1);
        const auto [confidence, predicted] = probabilities.max(-1);
        predictions_.index_put_({slotOrScratch}, predicted.to(at::kDouble));
        confidence_.index_put_({slotOrScratch}, confidence);
        // The true tag's probability, each sentence's results' (untagged rows read tag 0 into
        // the scratch slot).
        const auto truth = rows.select(1, 0).clamp_min(0).unsqueeze(-1);
        truthProbability_.index_put_({slotOrScratch}, probabilities.gather(-1, truth).squeeze(-1));
    }

    at::Tensor figures() override {
        return at::cat({predictions_.narrow(0, 0, offsets_.back()),
                        confidence_.narrow(0, 0, offsets_.back()),
                        truthProbability_.narrow(0, 0, offsets_.back())});
    }

    TaskScores finish(const std::vector<double>& figures) const override {
        // Each tagged token's prediction back in its sentence; untagged positions are dropped
        // by the report (their truth is kIgnoredLabel), so each word counts once.
        const auto slots = static_cast<std::size_t>(offsets_.back());
        std::vector<std::vector<std::int64_t>> predicted;
        // Each tagged token's top tag probability and whether that tag is right: its
        // calibration (task/Calibration.h), as single-label's but per token.
        std::vector<double> confidence;
        std::vector<bool> correct;
        for (std::size_t i = 0; i < set_.size(); ++i) {
            const auto& truth = set_.tokenLabels[i];
            predicted.emplace_back(truth.size(), 0);
            auto slot = static_cast<std::size_t>(offsets_[i]);
            for (std::size_t t = 0; t < truth.size(); ++t) {
                if (truth[t] != kIgnoredLabel) {
                    predicted.back()[t] = static_cast<std::int64_t>(figures[slot]);
                    if (slots + slot < figures.size()) {
                        confidence.push_back(figures[slots + slot]);
                        correct.push_back(predicted.back()[t] == truth[t]);
                    }
                    ++slot;
                }
            }
        }
        const auto report = entityReport(set_.tokenLabels, predicted, tags_, mode_);
        TaskScores scores;
        scores.accuracy = report.tokenAccuracy;
        scores.macroF1 = report.macroF1;
        // The figures, the per-type rows and the entity-type confusion (task/TaskMetricsJson.h).
        scores.report = toJson(report);
        scores.report["task"] = toString(TaskKind::TokenClassification);
        scores.report["main"] = std::string(tokenClassificationTask().headlineMetric());
        scores.report["higher_is_better"] = true;
        // How the text was cut into words, which predict must repeat (data/WordSplit.h).
        scores.report["word_split"] = toString(wordSplit_);
        if (!confidence.empty()) {
            CalibrationReport calibration;
            calibration.form = CalibrationForm::TopLabel;
            calibration.before = calibrationOf(confidence, correct);
            scores.calibration = calibration.toJson();
        }
        if (figures.size() == 3 * slots) {
            scores.examples = examplesOf(predicted, figures.data() + 2 * slots);
        }
        return scores;
    }

    /// Each sentence's entities, true and predicted, those missed and added, the least
    /// probability of a word's true tag and the mean cross-entropy over its words.
    /// truthProbabilities: each tagged token's, in slot order.
    std::vector<ExampleResult> examplesOf(const std::vector<std::vector<std::int64_t>>& predicted,
                                          const double* truthProbabilities) const {
        const bool characters = wordSplit_ == WordSplit::Characters;
        std::vector<ExampleResult> rows(set_.size());
        for (std::size_t i = 0; i < set_.size(); ++i) {
            auto& row = rows[i];
            row.example = i;
            // The sentence's tagged tokens are its words, in order (a word's first sub-word).
            std::vector<std::string> truthTags;
            std::vector<std::string> predictedTags;
            double loss = 0.0;
            double least = 1.0;
            auto slot = static_cast<std::size_t>(offsets_[i]);
            const auto& truth = set_.tokenLabels[i];
            for (std::size_t t = 0; t < truth.size(); ++t) {
                if (truth[t] == kIgnoredLabel) {
                    continue;
                }
                truthTags.push_back(tags_[static_cast<std::size_t>(truth[t])]);
                predictedTags.push_back(tags_[static_cast<std::size_t>(predicted[i][t])]);
                const double p = truthProbabilities[slot++];
                loss -= std::max(std::log(p), -100.0);
                least = std::min(least, p);
            }
            const auto* words = i < set_.sources.size() ? &set_.sources[i].words : nullptr;
            auto describe = [&](const EntitySpan& entity) {
                return entityText(entity.type,
                                  words != nullptr ? *words : std::vector<std::string>{},
                                  entity.begin, entity.end, characters);
            };
            const auto trueEntities = entitiesOf(truthTags, mode_);
            const auto predictedEntities = entitiesOf(predictedTags, mode_);
            std::string truthText;
            for (const auto& entity : trueEntities) {
                truthText += (truthText.empty() ? "" : "; ") + describe(entity);
                if (std::find(predictedEntities.begin(), predictedEntities.end(), entity) ==
                    predictedEntities.end()) {
                    row.missed.push_back(describe(entity));
                }
            }
            std::string predictedText;
            for (const auto& entity : predictedEntities) {
                predictedText += (predictedText.empty() ? "" : "; ") + describe(entity);
                if (std::find(trueEntities.begin(), trueEntities.end(), entity) ==
                    trueEntities.end()) {
                    row.added.push_back(describe(entity));
                }
            }
            row.truth = truthText.empty() ? "(no entity)" : truthText;
            row.predicted = predictedText.empty() ? "(no entity)" : predictedText;
            if (!truthTags.empty()) {
                row.truthProbability = least;
                row.loss = loss / static_cast<double>(truthTags.size());
            }
            row.correct = row.missed.empty() && row.added.empty();
        }
        return rows;
    }

private:
    const TokenizedSet& set_;
    std::vector<std::string> tags_;
    EntityMode mode_;
    WordSplit wordSplit_;
    std::vector<std::int64_t> offsets_;
    at::Tensor predictions_;
    at::Tensor confidence_;        ///< the predicted tag's probability, per slot
    at::Tensor truthProbability_;  ///< the true tag's probability, per slot
};

class TokenObjective final : public TaskObjective {
public:
    TokenObjective(const TrainingData& data, double focalGamma)
        : tags_(data.labels.names),
          focalGamma_(focalGamma),
          mode_(entityModeFor(data.tagScheme)),
          wordSplit_(data.wordSplit),
          train_(&data.train),
          trainOffsets_(taggedOffsets(data.train)),
          validation_(&data.validation),
          validationOffsets_(taggedOffsets(data.validation)) {}

    TaskKind kind() const override { return TaskKind::TokenClassification; }

    at::Tensor targets(const TokenizedSet& set, const std::vector<std::size_t>& examples,
                       const TokenBatch& batch, c10::Device device) const override {
        // [rows, 2]: each hidden row's tag and its slot among the set's tagged tokens, in the
        // order of the logits' rows: padded b x S + s, packed from each sequence's first row.
        const auto& offsets = &set == train_ ? trainOffsets_ : validationOffsets_;
        const bool known = &set == train_ || &set == validation_;
        const auto& layout = batch.layout;
        const std::int64_t rows = batch.inputIds.numel();
        const std::int64_t width = layout.packed ? 0 : batch.inputIds.size(1);
        // Padding and untagged rows: no tag, no slot.
        std::vector<std::int64_t> cells;
        cells.reserve(static_cast<std::size_t>(rows * 2));
        for (std::int64_t row = 0; row < rows; ++row) {
            cells.push_back(kIgnoredLabel);
            cells.push_back(-1);
        }
        for (std::size_t b = 0; b < examples.size(); ++b) {
            const auto& labels = set.tokenLabels[examples[b]];
            const std::int64_t first =
                layout.packed ? layout.firstTokenRows[b] : static_cast<std::int64_t>(b) * width;
            std::int64_t slot = known ? offsets[examples[b]] : 0;
            for (std::size_t s = 0; s < labels.size(); ++s) {
                const auto row = static_cast<std::size_t>(first + static_cast<std::int64_t>(s));
                cells[row * 2] = labels[s];
                cells[row * 2 + 1] = labels[s] == kIgnoredLabel || !known ? -1 : slot++;
            }
        }
        return toDevice(at::tensor(cells, at::kLong).reshape({rows, 2}), device);
    }

    at::Tensor lossSum(const at::Tensor& logits, const at::Tensor& targets) const override {
        const auto tags = static_cast<std::int64_t>(tags_.size());
        const auto rows = logits.reshape({-1, tags});
        const auto truth = targets.select(1, 0);
        if (focalGamma_ == 0.0) {
            return at::cross_entropy_loss(rows, truth, {}, at::Reduction::Sum, kIgnoredLabel);
        }
        // Focal per tagged token: -(1 - p_t)^gamma log p_t; untagged rows count nothing.
        const auto tagged = truth != kIgnoredLabel;
        const auto logTrue =
            rows.log_softmax(-1).gather(-1, truth.clamp_min(0).unsqueeze(-1)).squeeze(-1);
        const auto losses = -(1.0 - logTrue.exp()).pow(focalGamma_) * logTrue;
        return at::where(tagged, losses, at::zeros_like(losses)).sum();
    }

    double units(const TokenizedSet& set, const std::vector<std::size_t>& examples) const override {
        double tagged = 0.0;
        for (const auto index : examples) {
            for (const auto tag : set.tokenLabels[index]) {
                tagged += tag != kIgnoredLabel ? 1.0 : 0.0;
            }
        }
        return tagged;
    }

    std::unique_ptr<TaskEvaluation> startEvaluation(const TokenizedSet& set,
                                                    const std::vector<std::size_t>&,
                                                    c10::Device device) const override {
        return std::make_unique<TokenEvaluation>(set, tags_, mode_, wordSplit_, device);
    }

private:
    std::vector<std::string> tags_;
    double focalGamma_;
    EntityMode mode_;
    WordSplit wordSplit_;
    const TokenizedSet* train_;
    std::vector<std::int64_t> trainOffsets_;
    const TokenizedSet* validation_;
    std::vector<std::int64_t> validationOffsets_;
};

}  // namespace

std::unique_ptr<TaskObjective> makeTokenClassificationObjective(const TrainingData& data,
                                                                const ObjectiveOptions& options,
                                                                c10::Device) {
    return std::make_unique<TokenObjective>(data, options.focalGamma);
}

}  // namespace bert
