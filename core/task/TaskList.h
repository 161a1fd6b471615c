#pragma once

// Every task a run can learn, one line each: the only list outside its folder that a new task
// joins (docs/tasks.md). TASK(Kind, id) names the task's parts by convention, each defined in
// the task's folder, task/<folder>/:
//   TaskKind::Kind     its enumerator (task/TaskKind.h), generated from this list
//   id##Task()         its host side (task/Task.h): names, data, settings, reading a prediction;
//                      in <Kind>Task.cpp, without LibTorch (bert_base)
//   make##Kind##Objective()  its loss and evaluation (task/TaskObjective.h); in
//                      <Kind>Objective.cpp (bert_core)
// The studio's side of a task is ui/task/<folder>/ with one line in ui/task/TaskViews.cpp.
// tests/core/TaskRegistryTest.cpp checks that every task listed here provides every part.

#define BERT_STUDIO_TASKS(TASK)    \
    TASK(SingleLabel, singleLabel) \
    TASK(MultiLabel, multiLabel)   \
    TASK(Regression, regression)   \
    TASK(TokenClassification, tokenClassification)
