#include "data/TrainingData.h"

namespace bert {

TrainingData prepareTrainingData(const DataSpec& spec, const Tokenizer& tokenizer,
                                 std::size_t maxLength, double validationFraction,
                                 std::uint64_t seed) {
    ExampleSet all = loadExamples(spec.trainFile, spec.columns);
    ExampleSet train;
    ExampleSet validation;
    if (spec.validationFile) {
        validation = loadExamples(*spec.validationFile, spec.columns);
    } else {
        auto split = stratifiedSplit(all, validationFraction, seed);
        train = std::move(split.train);
        validation = std::move(split.validation);
    }
    const ExampleSet& trainSet = spec.validationFile ? all : train;
    TrainingData data;
    data.labels = buildLabelMap(trainSet);
    checkValidationLabels(data.labels, validation);
    data.train = tokenizeExamples(trainSet, tokenizer, data.labels, maxLength);
    data.validation = tokenizeExamples(validation, tokenizer, data.labels, maxLength);
    data.fingerprint = all.fingerprint;
    data.skippedEmpty = all.skippedEmpty;
    data.invalidUtf8Replaced = all.invalidUtf8Replaced;
    return data;
}

}  // namespace bert
