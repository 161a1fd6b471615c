#pragma once

// Each task kind's objective, implemented in its folder (task/<kind>/<Kind>Objective.cpp);
// TaskObjective.cpp picks one by kind (a line of task/TaskList.h each), nothing else calls
// them.

#include <memory>

#include "task/TaskObjective.h"

namespace bert {

#define BERT_STUDIO_DECLARE_OBJECTIVE(Kind, id)           \
    std::unique_ptr<TaskObjective> make##Kind##Objective( \
        const TrainingData& data, const ObjectiveOptions& options, c10::Device device);
BERT_STUDIO_TASKS(BERT_STUDIO_DECLARE_OBJECTIVE)
#undef BERT_STUDIO_DECLARE_OBJECTIVE

}  // namespace bert
