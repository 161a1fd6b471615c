#pragma once

// Each task kind's objective, implemented in its folder (task/<kind>/<Kind>Objective.cpp);
// TaskObjective.cpp picks one by kind, nothing else calls them.

#include <memory>

#include "task/TaskObjective.h"

namespace bert {

std::unique_ptr<TaskObjective> makeSingleLabelObjective(const TrainingData& data,
                                                        const ObjectiveOptions& options,
                                                        c10::Device device);
std::unique_ptr<TaskObjective> makeMultiLabelObjective(const TrainingData& data,
                                                       const ObjectiveOptions& options,
                                                       c10::Device device);
std::unique_ptr<TaskObjective> makeRegressionObjective(const TrainingData& data,
                                                       const ObjectiveOptions& options,
                                                       c10::Device device);
std::unique_ptr<TaskObjective> makeTokenObjective(const TrainingData& data,
                                                  const ObjectiveOptions& options,
                                                  c10::Device device);

}  // namespace bert
