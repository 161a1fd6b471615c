#include "task/TaskKind.h"

namespace bert {

namespace {

struct TaskName {
    TaskKind kind;
    const char* name;
    const char* problemType;
};

// One row per kind: the names a user types and transformers writes.
constexpr TaskName kTaskNames[] = {
    {TaskKind::SingleLabel, "single-label", "single_label_classification"},
    {TaskKind::MultiLabel, "multi-label", "multi_label_classification"},
    {TaskKind::Regression, "regression", "regression"},
    {TaskKind::TokenClassification, "token-classification", ""},
};

const TaskName& rowOf(TaskKind kind) {
    for (const auto& row : kTaskNames) {
        if (row.kind == kind) {
            return row;
        }
    }
    return kTaskNames[0];
}

}  // namespace

std::string toString(TaskKind kind) {
    return rowOf(kind).name;
}

std::optional<TaskKind> taskKindFromString(std::string_view name) {
    for (const auto& row : kTaskNames) {
        if (name == row.name) {
            return row.kind;
        }
    }
    return std::nullopt;
}

std::vector<TaskKind> allTaskKinds() {
    std::vector<TaskKind> kinds;
    for (const auto& row : kTaskNames) {
        kinds.push_back(row.kind);
    }
    return kinds;
}

std::string problemTypeOf(TaskKind kind) {
    return rowOf(kind).problemType;
}

bool isPerToken(TaskKind kind) {
    return kind == TaskKind::TokenClassification;
}

}  // namespace bert
