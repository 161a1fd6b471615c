#pragma once

// Faults that tests set off on purpose, by environment variable, so that what they check never
// depends on timing or on a memory peak that varies between runs. Test-only: nothing a user
// does sets them, and without the variables every hook is one branch on a cached flag. (The
// kills at a checkpoint's file boundaries are in io/CrashPoints.h.)
//
//  BERT_STUDIO_TEST_OUT_OF_MEMORY=RANK:MICRO_BATCH[:FROM_STEP]
//      a micro-batch of MICRO_BATCH examples or more runs out of memory on rank RANK (0 in one
//      process), from optimizer step FROM_STEP on (default 1), as LibTorch's allocator would say
//      it: the recovery (halve the micro-batch on every rank, keep the effective batch) runs as
//      for a real out-of-memory.
//  BERT_STUDIO_TEST_EVAL_OUT_OF_MEMORY=BATCH
//      an evaluation batch of BATCH examples or more runs out of memory after its loss was
//      computed, while its task figures are added (the last allocations of the batch).
//  BERT_STUDIO_TEST_DEFER_STEP_READS=1
//      logged steps are reported one step late on the CPU too, as on CUDA (Trainer.h, staged_),
//      so that the CPU tests cover that path.
//  BERT_STUDIO_TEST_HOST_READ_MS=N
//      every read of tensor values by the host takes N ms longer, standing in for the wait for
//      the GPU that such a read is on a CUDA device (read in data/HostReads.cpp, a layer below).
// The first is read once (it sits on the micro-batch path); the others at each call, so that a
// test may set them in its own process (a getenv per read or evaluation batch costs nothing
// beside the work around it).

#include <cstddef>

namespace bert::test_hooks {

/// Throws c10::OutOfMemoryError when BERT_STUDIO_TEST_OUT_OF_MEMORY says this micro-batch of
/// `examples` on `rank` at optimizer step `step` (1-based: the step being computed) fails.
void injectOutOfMemory(int rank, std::size_t examples, std::size_t step);

/// Throws c10::OutOfMemoryError when BERT_STUDIO_TEST_EVAL_OUT_OF_MEMORY says an evaluation batch
/// of `examples` fails.
void injectEvaluationOutOfMemory(std::size_t examples);

/// Whether BERT_STUDIO_TEST_DEFER_STEP_READS asks for logged steps to be read one step late.
bool deferStepReads();

}  // namespace bert::test_hooks
