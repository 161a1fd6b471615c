#!/usr/bin/env bash
# Builds the engine's tests and the command line with AddressSanitizer and UndefinedBehavior-
# Sanitizer (the asan preset: Debug, -Werror) and runs the unit and command-line tests under
# them. Any report fails the run. LeakSanitizer is off: LibTorch keeps process-lifetime
# allocations it never frees, which would drown real reports.
# Usage: scripts/asan.sh [extra ctest arguments]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/setup.sh"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)" --target bert_base_tests bert_core_tests bert_cli_tests bert-studio-cli
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$root/build/asan" -L 'unit|cli' -j "$(nproc)" --output-on-failure "$@"
