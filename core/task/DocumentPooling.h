#pragma once

// Long texts cut into windows (data/LongText.h) are scored per document: each document's
// windows' logits pooled (mean or max per output), then the task's own evaluation run on the
// documents, so that every figure (accuracy, F1, RMSE...) counts documents, not windows.
// Under data parallel each rank evaluates whole documents (Trainer::evaluate splits the order
// at document boundaries), so the documents' figures add up over the ranks as the task's do.

#include <cstddef>
#include <memory>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "data/LongText.h"
#include "task/TaskObjective.h"

namespace bert {

/// The pooling a run's windows use: spec's, or the task's own for WindowPooling::Task.
WindowPooling effectivePooling(WindowPooling pooling, TaskKind task);

/// Pools logits [windows, outputs] into [documents, outputs] by document (index: each row's
/// document, 0-based, a long tensor on logits' device), as pooling says; documents with no row
/// stay 0.
at::Tensor poolByDocument(const at::Tensor& logits, const at::Tensor& document,
                          std::int64_t documents, WindowPooling pooling);

/// An evaluation of windows that feeds documents: inner is the task's evaluation of the
/// documents (started on the documents' set in their order, 0..documents-1); documentOf gives
/// the document of each position of the windows' evaluation order. Its loss is objective's on
/// the pooled logits, per document (TaskScores::loss), like every other figure it reports.
std::unique_ptr<TaskEvaluation> poolWindows(std::unique_ptr<TaskEvaluation> inner,
                                            std::vector<std::size_t> documentOf,
                                            WindowPooling pooling, c10::Device device,
                                            const TaskObjective& objective);

}  // namespace bert
