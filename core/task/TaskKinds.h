#pragma once

// Each task kind's two entry points, implemented in its folder (task/<kind>/): what its data
// becomes (here, host only) and its objective (TaskObjectiveKinds.h). TrainingData.cpp and
// TaskObjective.cpp pick from these by kind; nothing else calls them. A new task is a folder and
// one line in each of those two tables.

#include <utility>
#include <vector>

#include "task/TrainingData.h"

namespace bert {

/// The arguments every kind's data preparation takes.
struct DataRequest {
    const DataSpec& spec;
    const Tokenizer& tokenizer;
    std::size_t maxLength;
    double validationFraction;
    std::uint64_t seed;
};

/// A file's examples with a target each (multi-label's label set, regression's number).
template <typename Target>
struct TargetedExamples {
    ExampleSet examples;
    std::vector<Target> targets;
};

/// Training and validation examples with their targets: the validation file's when the request
/// has one, else validationFraction of the training file's, held out by a seeded shuffle (these
/// tasks have no classes to stratify by). read reads one file.
template <typename Target, typename Read>
std::pair<TargetedExamples<Target>, TargetedExamples<Target>> splitTargeted(
    const DataRequest& request, Read read) {
    auto all = read(request.spec.trainFile);
    if (request.spec.validationFile) {
        return {std::move(all), read(*request.spec.validationFile)};
    }
    const auto held = randomValidationRows(all.examples.examples.size(), request.validationFraction,
                                           request.seed);
    TargetedExamples<Target> train;
    TargetedExamples<Target> validation;
    for (auto* part : {&train, &validation}) {
        part->examples.file = all.examples.file;
        part->examples.fingerprint = all.examples.fingerprint;
    }
    std::size_t next = 0;
    for (std::size_t i = 0; i < all.targets.size(); ++i) {
        const bool heldOut = next < held.size() && held[next] == i;
        next += heldOut ? 1 : 0;
        auto& part = heldOut ? validation : train;
        part.examples.examples.push_back(std::move(all.examples.examples[i]));
        part.targets.push_back(std::move(all.targets[i]));
    }
    copyReadingNotes(all.examples, train.examples);
    return {std::move(train), std::move(validation)};
}

TrainingData prepareSingleLabelData(const DataRequest& request);
TrainingData prepareMultiLabelData(const DataRequest& request);
TrainingData prepareRegressionData(const DataRequest& request);
TrainingData prepareTokenData(const DataRequest& request);

}  // namespace bert
