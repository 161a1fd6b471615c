#include "task/TaskKinds.h"

namespace bert {

TrainingData prepareSingleLabelData(const DataRequest& request) {
    const auto& spec = request.spec;
    ExampleSet all = loadExamples(spec.trainFile, spec.columns);
    ExampleSet train;
    ExampleSet validation;
    if (spec.validationFile) {
        validation = loadExamples(*spec.validationFile, spec.columns);
    } else {
        auto split = stratifiedSplit(all, request.validationFraction, request.seed);
        train = std::move(split.train);
        validation = std::move(split.validation);
    }
    const ExampleSet& trainSet = spec.validationFile ? all : train;
    TrainingData data;
    data.task = TaskKind::SingleLabel;
    data.labels = buildLabelMap(trainSet);
    checkValidationLabels(data.labels, validation);
    data.train = tokenizeExamples(trainSet, request.tokenizer, data.labels, request.maxLength);
    data.validation =
        tokenizeExamples(validation, request.tokenizer, data.labels, request.maxLength);
    data.validation.sources = sourcesOf(validation);
    data.fingerprint = all.fingerprint;
    data.noteReading(all);
    return data;
}

}  // namespace bert
