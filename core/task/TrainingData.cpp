#include "task/TrainingData.h"

#include <cmath>
#include <cstdio>

#include "Error.h"
#include "task/Task.h"
#include "task/TaskKinds.h"

namespace bert {

std::vector<std::string> TrainingData::readingNotes() const {
    // Single-label rows need a label too; the other tasks refuse a row without one.
    auto notes = bert::readingNotes(skippedEmpty, firstSkippedLine, invalidUtf8Replaced, encoding,
                                    removedControls, taskOf(task).skipsUnlabelledRows());
    if (!longTextNote.empty()) {
        notes.push_back(longTextNote);
    }
    return notes;
}

void TrainingData::noteReading(const ExampleSet& set) {
    skippedEmpty = set.skippedEmpty;
    firstSkippedLine = set.firstSkippedLine;
    invalidUtf8Replaced = set.invalidUtf8Replaced;
    encoding = set.encoding;
    removedControls = set.removedControls;
}

namespace {

/// The default said: how many texts the max length cut, and what the other strategies would
/// do with them. Truncated texts are not tokenized whole (that would cost the time of their
/// full length), so a text that fills the max length exactly counts as cut: "fill".
std::string truncationNote(const TrainingData& data, std::size_t maxLength, bool pairs) {
    std::size_t full = 0;
    std::size_t texts = 0;
    for (const auto* set : {&data.train, &data.validation}) {
        texts += set->lengths.size();
        for (const auto length : set->lengths) {
            full += length >= maxLength ? 1 : 0;
        }
    }
    if (full == 0 || maxLength == 0) {
        return {};
    }
    char share[160];
    std::snprintf(share, sizeof share,
                  "%zu of %zu texts (%.0f%%) fill the max length of %zu tokens", full, texts,
                  100.0 * static_cast<double>(full) / static_cast<double>(texts), maxLength);
    std::string note = share;
    if (pairs) {
        note += " and were cut longest first, as transformers does (long texts: truncate)";
        return note;
    }
    note +=
        " and lost their ends (long texts: truncate); head+tail keeps a text's end at the "
        "same cost, windows read whole texts (--long-text head-tail, --long-text windows)";
    return note;
}

}  // namespace

TrainingData prepareTrainingData(const DataSpec& spec, const Tokenizer& tokenizer,
                                 std::size_t maxLength, double validationFraction,
                                 std::uint64_t seed, const LongTextSpec& longText) {
    const auto& task = taskOf(spec.task.kind);
    if (longText.mode == LongTextMode::Truncate) {
        auto data =
            task.prepareData(DataRequest{spec, tokenizer, maxLength, validationFraction, seed});
        if (!task.perToken()) {  // (tagging says its words cut itself: wordsCut)
            data.longTextNote = truncationNote(data, maxLength, !spec.columns.textPair.empty());
        }
        return data;
    }
    const std::string setting =
        longText.windows() ? "--long-text windows" : "--long-text head-tail";
    if (task.perToken()) {
        throw InputError(setting +
                         ": token classification cuts its sentences at max length (truncate); "
                         "long sentences are not yet cut into windows for tagging");
    }
    if (!spec.columns.textPair.empty()) {
        throw InputError(setting + ": a pair of texts (--pair-column \"" + spec.columns.textPair +
                         "\") is truncated longest first, as transformers does; choose truncate");
    }
    const auto shape = templateShapeOf(tokenizer);
    checkLongTextSpec(longText, maxLength, shape);
    // Tokenized whole (no limit), then cut as the strategy says.
    auto data = task.prepareData(DataRequest{spec, tokenizer, 0, validationFraction, seed});
    auto lengths = data.train.lengths;
    lengths.insert(lengths.end(), data.validation.lengths.begin(), data.validation.lengths.end());
    data.longText = longText;
    data.longTextNote =
        longTextShare(lengths, maxLength, longText, shape).describe(maxLength, longText);
    if (longText.windows()) {
        data.validationDocuments = data.validation;
        for (auto& encoding : data.validationDocuments.encodings) {
            encoding = Encoding{};  // scored through its windows
        }
    }
    fitLongTexts(data.train, maxLength, longText, shape);
    fitLongTexts(data.validation, maxLength, longText, shape);
    return data;
}

std::string unscaledTargetHint(const TrainingData& data) {
    if (data.task != TaskKind::Regression || !data.scaling.isIdentity()) {
        return {};
    }
    const double mean = data.targetSpread.mean;
    const double deviation = data.targetSpread.scale;
    if (!(std::abs(mean) > kUnscaledTargetLimit || deviation > kUnscaledTargetLimit)) {
        return {};
    }
    char figures[96];
    std::snprintf(figures, sizeof figures, "mean %.4g and standard deviation %.4g", mean,
                  deviation);
    const std::string name = data.labels.names.empty() ? "target" : data.labels.names.front();
    return "the target \"" + name + "\" has " + figures +
           " and is not standardised: the model's output starts near 0 and may never reach "
           "numbers this far from it (R² stays negative); standardise it (--standardize-targets, "
           "the default; in the studio, Standardise the target)";
}

}  // namespace bert
