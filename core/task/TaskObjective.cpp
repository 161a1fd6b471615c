#include "task/TaskObjective.h"

#include "task/TaskObjectiveKinds.h"

namespace bert {

namespace {

struct ObjectiveMaker {
    TaskKind kind;
    std::unique_ptr<TaskObjective> (*make)(const TrainingData&, const ObjectiveOptions&,
                                           c10::Device);
};

// Each task's loss and evaluation: task/<kind>/<Kind>Objective.cpp.
constexpr ObjectiveMaker kMakers[] = {
    {TaskKind::SingleLabel, makeSingleLabelObjective},
    {TaskKind::MultiLabel, makeMultiLabelObjective},
    {TaskKind::Regression, makeRegressionObjective},
    {TaskKind::TokenClassification, makeTokenObjective},
};

}  // namespace

double TaskObjective::units(const TokenizedSet& /*set*/,
                            const std::vector<std::size_t>& examples) const {
    return static_cast<double>(examples.size());
}

std::unique_ptr<TaskObjective> makeTaskObjective(const TrainingData& data,
                                                 const ObjectiveOptions& options,
                                                 c10::Device device) {
    for (const auto& maker : kMakers) {
        if (maker.kind == data.task) {
            return maker.make(data, options, device);
        }
    }
    return makeSingleLabelObjective(data, options, device);
}

}  // namespace bert
