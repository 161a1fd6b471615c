#include "task/TaskObjective.h"

#include "task/TaskObjectiveKinds.h"

namespace bert {

double TaskObjective::units(const TokenizedSet& /*set*/,
                            const std::vector<std::size_t>& examples) const {
    return static_cast<double>(examples.size());
}

std::unique_ptr<TaskObjective> makeTaskObjective(const TrainingData& data,
                                                 const ObjectiveOptions& options,
                                                 c10::Device device) {
    // Each task's loss and evaluation: task/<kind>/<Kind>Objective.cpp, one per line of
    // task/TaskList.h.
    switch (data.task) {
#define BERT_STUDIO_TASK_OBJECTIVE(Kind, id) \
    case TaskKind::Kind:                     \
        return make##Kind##Objective(data, options, device);
        BERT_STUDIO_TASKS(BERT_STUDIO_TASK_OBJECTIVE)
#undef BERT_STUDIO_TASK_OBJECTIVE
    }
    return nullptr;
}

}  // namespace bert
