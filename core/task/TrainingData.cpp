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
