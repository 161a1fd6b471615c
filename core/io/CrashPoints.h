#pragma once

// Kills at chosen file boundaries, for the tests of atomic writes (issue 26: a kill -9 between
// two files of a checkpoint once left one step's weights beside another step's state).
// Test-only: without the variable every call is one branch on a cached flag.
//
//  BERT_STUDIO_TEST_CRASH_AT=KIND:NTH:POINT
//      the process kills itself (SIGKILL, as kill -9 or a power cut would) at file boundary
//      POINT (1, 2, ...) of the NTH (1, 2, ...) checkpoint write of kind KIND (best, epoch,
//      cancel, final). The boundaries are: the staging folder made, each file written
//      (AtomicFile::commit), the switch into place, the old checkpoint removed
//      (train/TrainingState.h).

#include <string>

namespace bert::test_hooks {

/// A checkpoint write of kind (toString(CheckpointKind)) starts: the next crashPoint calls
/// belong to it; checkpointWriteEnds() closes it.
void checkpointWriteStarts(const std::string& kind);
void checkpointWriteEnds();
/// A file boundary: the process dies here when BERT_STUDIO_TEST_CRASH_AT names the current
/// checkpoint write and this boundary.
void crashPoint();

}  // namespace bert::test_hooks
