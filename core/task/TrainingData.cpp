#include "task/TrainingData.h"

#include <cmath>
#include <cstdio>

#include "task/TaskKinds.h"

namespace bert {

namespace {

struct DataReader {
    TaskKind kind;
    TrainingData (*prepare)(const DataRequest&);
};

// What each task's rows become: task/<kind>/<Kind>Data.cpp.
constexpr DataReader kReaders[] = {
    {TaskKind::SingleLabel, prepareSingleLabelData},
    {TaskKind::MultiLabel, prepareMultiLabelData},
    {TaskKind::Regression, prepareRegressionData},
    {TaskKind::TokenClassification, prepareTokenData},
};

}  // namespace

std::vector<std::string> TrainingData::readingNotes() const {
    // Single-label rows need a label too; the other tasks refuse a row without one.
    return bert::readingNotes(skippedEmpty, firstSkippedLine, invalidUtf8Replaced, encoding,
                              removedControls, task == TaskKind::SingleLabel);
}

void TrainingData::noteReading(const ExampleSet& set) {
    skippedEmpty = set.skippedEmpty;
    firstSkippedLine = set.firstSkippedLine;
    invalidUtf8Replaced = set.invalidUtf8Replaced;
    encoding = set.encoding;
    removedControls = set.removedControls;
}

TrainingData prepareTrainingData(const DataSpec& spec, const Tokenizer& tokenizer,
                                 std::size_t maxLength, double validationFraction,
                                 std::uint64_t seed) {
    const DataRequest request{spec, tokenizer, maxLength, validationFraction, seed};
    for (const auto& reader : kReaders) {
        if (reader.kind == spec.task.kind) {
            return reader.prepare(request);
        }
    }
    return prepareSingleLabelData(request);
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
