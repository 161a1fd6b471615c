#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), builds the release preset and runs every test:
# engine unit tests, parity with transformers, the UI tests offscreen, then a short fuzz of every
# parser of user files.
# Usage: scripts/test.sh [extra ctest arguments, e.g. -L parity or -R Tokenizer]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/setup.sh"
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# ccache hashes paths relative to the clone, so a fresh clone reuses an earlier clone's objects.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
jobs=$(nproc)

cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release -j "$jobs" "$@"
# A few seconds of fuzzing per parser of user files (scripts/fuzz.sh; longer runs: docs/fuzzing.md).
if [ $# -eq 0 ]; then
  "$root/scripts/fuzz.sh" "${BERT_STUDIO_FUZZ_SECONDS:-3}"
fi
