// The dataset tab's token lengths: each example's length in the chosen model's tokens (sub-words
// per sentence for tagged files), their histogram, the padding each batching scheme would add,
// and the share of tokens the model does not know. The rest of the page is in DatasetPage.cpp.
#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QTableWidget>

#include "common/EngineText.h"
#include "data/UnknownTokens.h"
#include "dataset/DatasetPage.h"
#include "dataset/TaskSummary.h"
#include "tokenizer/Tokenizer.h"

namespace bert::ui {

namespace {
constexpr std::size_t kProfileRows = 20000;  // rows tokenized for the histogram
constexpr std::size_t kHistogramBins = 16;

QString percent(double share) {
    return QString::number(share * 100.0, 'f', 1) + QLatin1Char('%');
}
}  // namespace

void DatasetPage::setTokenizer(std::shared_ptr<const Tokenizer> tokenizer) {
    tokenizer_ = std::move(tokenizer);
    refreshProfile();
}

void DatasetPage::setBatching(std::size_t maxLength, std::size_t batchSize,
                              const LongTextSpec& longText) {
    if (maxLength == maxLength_ && batchSize == batchSize_ && longText.mode == longText_.mode &&
        longText.stride == longText_.stride && longText.headTokens == longText_.headTokens) {
        return;
    }
    maxLength_ = maxLength;
    batchSize_ = batchSize;
    longText_ = longText;
    refreshProfile();
}

void DatasetPage::refreshProfile() {
    // A background open tokenized the examples already (DatasetLoading.cpp): for this refresh.
    const bool profiled = profiled_.has_value();
    Profile given;
    if (profiled) {
        given = std::move(*profiled_);
    }
    profiled_.reset();
    auto* lengthChart = lengthChart_->chart();
    clearChart(labelChart_->chart());
    clearChart(lengthChart);
    lengths_.clear();
    unknown_ = {};
    unknownLabel_->clear();
    lengthChart->setTitle(tr("Token lengths"));
    if (!hasData()) {
        // Nothing read (an error says why): no title of an earlier file's chart either.
        labelChart_->chart()->setTitle(QString());
        summaryLabel_->clear();
        paddingLabel_->clear();
        taskTable_->hide();
        return;
    }
    refreshTaskSummary();
    if (!tokenizer_) {
        paddingLabel_->setText(tr("Choose a model to see token lengths."));
        return;
    }
    auto profile = profiled ? std::move(given)
                            : profileOf(tagged_ ? nullptr : &*examples_,
                                        tagged_ ? &*tagged_ : nullptr, *tokenizer_);
    lengths_ = std::move(profile.lengths);
    unknown_ = profile.unknown;
    unknownLabel_->setText(unknownTokenText());
    unknownLabel_->setStyleSheet(
        unknown_.warns() ? QStringLiteral("color: #c0392b; font-weight: bold") : QString());
    const auto bins = binLengths(lengths_, kHistogramBins);
    showHistogram(lengthChart, bins.counts, 0.0, static_cast<double>(bins.width), bins.longer,
                  tr("tokens"));
    shares_ = estimatePaddingShares(lengths_, maxLength_, batchSize_);
    const auto truncated = std::count_if(lengths_.begin(), lengths_.end(),
                                         [&](std::size_t l) { return l > maxLength_; });
    // Truncated unless the training form's long-text strategy cuts them otherwise (said next).
    QString padding =
        longText_.mode == LongTextMode::Truncate || tagged_
            ? tr("At max length %1 and batch %2, padding would be %3 of the tokens with fixed "
                 "padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded "
                 "batches compute none of it. %6 examples are longer than %1 tokens and will be "
                 "truncated.")
                  .arg(maxLength_)
                  .arg(batchSize_)
                  .arg(percent(shares_.fixed), percent(shares_.dynamic), percent(shares_.grouped))
                  .arg(truncated)
            : tr("At max length %1 and batch %2, padding would be %3 of the tokens with fixed "
                 "padding, %4 with dynamic padding, %5 with length-grouped batches; unpadded "
                 "batches compute none of it.")
                  .arg(maxLength_)
                  .arg(batchSize_)
                  .arg(percent(shares_.fixed), percent(shares_.dynamic), percent(shares_.grouped));
    // What the training form's long-text strategy makes of the texts over the max length.
    const auto share = static_cast<double>(truncated) /
                       static_cast<double>(std::max<std::size_t>(1, lengths_.size()));
    const auto shape = templateShapeOf(*tokenizer_);
    const auto room = maxLength_ > shape.total() ? maxLength_ - shape.total() : 0;
    // The windows the texts would make at the form's stride (windowCount counts a window per
    // text for any other strategy: the spec is taken as windows).
    auto windowsOf = [&](LongTextSpec spec) {
        spec.mode = LongTextMode::Windows;
        std::size_t windows = 0;
        for (const auto length : lengths_) {
            windows += windowCount(length, maxLength_, spec, shape);
        }
        return windows;
    };
    const bool cannotCut =
        (longText_.windows() && longText_.stride >= room) ||
        (longText_.mode == LongTextMode::HeadTail && longText_.headTokens >= room);
    if (cannotCut && !tagged_) {
        // Training would refuse it (data/LongText.h, checkLongTextSpec): said before it starts.
        padding += QLatin1Char(' ') +
                   tr("Long texts: at max length %1 a window holds %2 tokens of text; the %3 "
                      "must be smaller. Training would refuse it.")
                       .arg(maxLength_)
                       .arg(room)
                       .arg(longText_.windows() ? tr("window stride") : tr("head tokens"));
    } else if (longText_.windows() && !tagged_) {
        const auto windows = windowsOf(longText_);
        padding += QLatin1Char(' ') +
                   tr("Long texts: %1 of the examples are longer than %2 tokens; windows of %2 "
                      "tokens with a stride of %3 make %4 windows, %5 per example.")
                       .arg(percent(share))
                       .arg(maxLength_)
                       .arg(longText_.stride)
                       .arg(windows)
                       .arg(static_cast<double>(windows) /
                                static_cast<double>(std::max<std::size_t>(1, lengths_.size())),
                            0, 'f', 2);
    } else if (longText_.mode == LongTextMode::Truncate && !tagged_ && truncated > 0 &&
               chosenColumns().textPair.empty() && longText_.stride < room) {
        // The default cuts them: say what the other strategies would make of these texts.
        const auto windows = windowsOf(longText_);
        padding += QLatin1Char(' ') +
                   tr("Long texts (Training tab): head+tail would keep their ends at the same "
                      "cost; windows of %1 tokens with a stride of %2 would read them whole: %3 "
                      "windows, %4 per example.")
                       .arg(maxLength_)
                       .arg(longText_.stride)
                       .arg(windows)
                       .arg(static_cast<double>(windows) /
                                static_cast<double>(std::max<std::size_t>(1, lengths_.size())),
                            0, 'f', 2);
    } else if (longText_.mode == LongTextMode::HeadTail && !tagged_) {
        padding += QLatin1Char(' ') +
                   tr("Long texts: %1 of the examples are longer than %2 tokens; each keeps "
                      "its first %3 tokens and its last ones.")
                       .arg(percent(share))
                       .arg(maxLength_)
                       .arg(longText_.headTokens);
    }
    paddingLabel_->setText(
        padding + QLatin1Char(' ') +
        tr("Lengths: half of the examples have up to %1 tokens, 90% up to %2, 99% up to %3: "
           "a max length of %3 keeps 99% of them whole.")
            .arg(bins.p50)
            .arg(bins.p90)
            .arg(bins.p99));
    lengthChart->setTitle(
        tr("Token lengths (p50 %1, p90 %2, p99 %3)").arg(bins.p50).arg(bins.p90).arg(bins.p99));
}

DatasetPage::Profile DatasetPage::profileOf(const ExampleSet* examples, const TaggedFile* tagged,
                                            const Tokenizer& tokenizer) {
    Profile profile;
    if (tagged != nullptr) {
        // Sub-words per sentence, as the words are tokenized for training.
        const auto rows = std::min(tagged->sentences.size(), kProfileRows);
        for (std::size_t i = 0; i < rows; ++i) {
            std::string text;
            for (const auto& word : tagged->sentences[i].words) {
                text += (text.empty() ? "" : " ") + word;
            }
            const auto encoding = tokenizer.encode(text);
            profile.lengths.push_back(encoding.size());
            profile.unknown.add(encoding, tokenizer);  // names the tokenizer's own unknown token
        }
    } else if (examples != nullptr) {
        const std::size_t rows = std::min(examples->examples.size(), kProfileRows);
        for (std::size_t i = 0; i < rows; ++i) {
            const auto& example = examples->examples[i];
            const auto encoding = example.pair.empty()
                                      ? tokenizer.encode(example.text)
                                      : tokenizer.encodePair(example.text, example.pair);
            profile.lengths.push_back(encoding.size());
            profile.unknown.add(encoding, tokenizer);  // names the tokenizer's own unknown token
        }
    }
    return profile;
}

QString DatasetPage::unknownTokenText() const {
    if (unknown_.tokens == 0) {
        return {};
    }
    const QString share = percent(unknown_.share());
    if (!unknown_.warns()) {
        return tr("Unknown tokens: %1 of the tokens are not in the model's vocabulary.").arg(share);
    }
    // The engine's sentence (what training logs too), worded by the share and naming the
    // tokenizer's own unknown token, then where to find another model.
    return EngineText::translate(unknownTokenWarning(unknown_)) + QLatin1Char(' ') +
           tr("Choose a model for this language in Model & techniques (a transformers folder, "
              "for example one in the local model cache, ~/.cache/huggingface/hub).");
}

std::size_t DatasetPage::longestExample() const {
    return lengths_.empty() ? 0 : *std::max_element(lengths_.begin(), lengths_.end());
}

}  // namespace bert::ui
