#include "task/TrainingData.h"

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

}  // namespace bert
