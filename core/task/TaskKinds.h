#pragma once

// Each task kind's two entry points, implemented in its folder (task/<kind>/): what its data
// becomes (here, host only) and its objective (TaskObjectiveKinds.h). TrainingData.cpp and TaskObjective.cpp pick from these by kind;
// nothing else calls them. A new task is a folder and one line in each of those two tables.

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

TrainingData prepareSingleLabelData(const DataRequest& request);
TrainingData prepareMultiLabelData(const DataRequest& request);
TrainingData prepareRegressionData(const DataRequest& request);
TrainingData prepareTokenData(const DataRequest& request);

}  // namespace bert
