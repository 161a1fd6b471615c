#!/usr/bin/env bash
# The GPU kit, step 2: ONE device call on the GPU machine, after benchmarks/gpu/prepare.sh made
# .gpu-kit here:
#
#   run(command="bash benchmarks/gpu/run.sh", carry=[".gpu-kit"], timeout_s=600)
#
# Nothing built here travels: the machine builds what it runs. In order, each step under its own
# `timeout`, the whole within BERT_STUDIO_GPU_BUDGET_S seconds (540: the device allows 600 a call):
#   probe   torch, CUDA, transformers, cmake, ninja, the compiler, git (versions.log)
#   build   unpacks the kit's Debian packages into a private prefix (never into /), configures the
#           headless preset against this machine's torch, builds bert-studio-cli and
#           bert_cuda_tests only (build.log)
#   cuda    the tests labelled cuda (cuda-tests.log)
#   matrix  the GPU technique matrix, ours beside Hugging Face Trainer (matrix.log and
#           technique_matrix-gpu.json, rewritten after every row)
# The CPU suite is not run there: CI runs it, and it would spend minutes of the device's 15.
# summary.txt and every log are written to $OUT as the steps go, so a call cut by its time limit
# still returns what ran. `run.sh unit` runs the unit and cli tests after the rest (off the
# device, or with time to spare).
#
# Environment:
#   BERT_STUDIO_GPU_DEVICE    the device (cuda:0); cpu rehearses the kit on a machine without one
#   BERT_STUDIO_GPU_QUICK=1   a rehearsal: a small model, few steps
#   BERT_STUDIO_GPU_BUDGET_S  seconds for the whole call (540)
#   BERT_STUDIO_GPU_BUILD     the build folder (build/gpu; a rehearsal points it elsewhere)
#   BERT_STUDIO_GPU_STEP_SCALE  multiplies every step's time limit (1; a rehearsal on 2 cores
#                             needs more, and projects its measured seconds back to 16 cores)
#   BERT_STUDIO_PYTHON        the Python with torch and transformers (python3)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kit="$root/.gpu-kit"
build=${BERT_STUDIO_GPU_BUILD:-$root/build/gpu}
prefix=${BERT_STUDIO_GPU_PREFIX:-/tmp/bert-studio-prefix}
out=${OUT:-$build/out}
device=${BERT_STUDIO_GPU_DEVICE:-cuda:0}
python=${BERT_STUDIO_PYTHON:-$(command -v python3)}
budget=${BERT_STUDIO_GPU_BUDGET_S:-540}
step_scale=${BERT_STUDIO_GPU_STEP_SCALE:-1}
jobs=$(nproc)
mkdir -p "$out"
summary="$out/summary.txt"
: >"$summary"
[ -d "$kit/debs" ] || { echo "run.sh: $kit is missing: run benchmarks/gpu/prepare.sh where apt works, and carry .gpu-kit" | tee -a "$summary" >&2; exit 2; }

# The unpacked packages' shared libraries (spdlog, fmt, utf8proc, sqlite) for the build's test
# discovery and for every program run below; their headers and CMake files through the prefix.
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export BERT_STUDIO_VOCAB_DIR="$kit/vocab"
export BERT_STUDIO_CLI="$build/app/bert-studio-cli"
export PYTHONUNBUFFERED=1

# One line per step, appended to summary.txt at once (and printed) so that it survives a kill.
note() { printf '%-22s %s\n' "$1" "$2" | tee -a "$summary"; }
left() { echo $((budget - SECONDS)); }
# step NAME SECONDS COMMAND...: runs COMMAND under `timeout`, given the lesser of SECONDS and
# what is left of the budget; refuses to start with under 10 s left. Returns COMMAND's status
# (124 for a timeout).
step() {
  local name=$1 limit=$2
  shift 2
  limit=$((limit * step_scale))
  local remaining
  remaining=$(left)
  ((remaining < limit)) && limit=$remaining
  if ((limit < 10)); then
    note "$name" "NOT RUN: the budget of $budget s is spent"
    return 124
  fi
  local started=$SECONDS status=0
  timeout --kill-after=5 "$limit" "$@" || status=$?
  echo "$name: $((SECONDS - started)) s (limit $limit s), status $status" >>"$out/steps.log"
  ((status == 124)) && note "$name" "TIMED OUT after $limit s"
  return $status
}

echo "== GPU kit ($(cat "$kit/commit" 2>/dev/null || echo '?'), device $device, budget $budget s, $jobs cores) ==" | tee -a "$summary"

probe() {
  {
    echo "date: $(date -u +%FT%TZ)"
    "$python" -c 'import sys, torch, transformers
print("python", sys.version.split()[0])
print("torch", torch.__version__, "CUDA", torch.version.cuda)
print("devices", torch.cuda.device_count(), torch.cuda.get_device_name() if torch.cuda.is_available() else "")
print("transformers", transformers.__version__)' 2>&1
    for tool in cmake ninja "${CXX:-c++}" git nvcc; do
      if command -v "$tool" >/dev/null; then
        echo "$tool: $("$tool" --version 2>&1 | head -1)"
      else
        echo "$tool: missing"
      fi
    done
  } >"$out/versions.log"
  cat "$out/versions.log"
  note probe "$(grep -E '^(torch|transformers)' "$out/versions.log" | tr '\n' ' ')"
}

# What the build needs: CMake new enough for the presets (cmakeMinimumRequired in
# CMakePresets.json), ninja (the presets' generator) and a compiler that takes C++20 (torch 2.x's
# headers need it). Names each missing tool and what to install.
check_tools() {
  local missing=() cxx=${CXX:-c++}
  if ! command -v cmake >/dev/null; then
    missing+=("cmake (3.25 or newer: pip install cmake, or Debian's cmake)")
  else
    local have
    have=$(cmake --version | sed -n 's/^cmake version \([0-9]*\.[0-9]*\).*/\1/p')
    if [ "$(printf '%s\n' 3.25 "$have" | sort -V | head -1)" != 3.25 ]; then
      missing+=("cmake 3.25 or newer (this one is $have: pip install cmake)")
    fi
  fi
  command -v ninja >/dev/null || missing+=("ninja (pip install ninja, or Debian's ninja-build)")
  if ! command -v "$cxx" >/dev/null; then
    missing+=("a C++ compiler ($cxx; Debian's g++ 12 or newer)")
  elif ! printf '#include <concepts>\n#include <span>\nint main() { std::span<int> s; return std::integral<int> ? 0 : 1; }\n' \
      | "$cxx" -std=c++20 -x c++ - -o /dev/null 2>"$out/compiler-check.log"; then
    missing+=("a compiler that takes -std=c++20 ($cxx does not: see compiler-check.log)")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    printf 'run.sh: missing before configuring: %s\n' "${missing[@]}" >&2
    note tools "MISSING: ${missing[*]}"
    return 2
  fi
}

build() {
  local started=$SECONDS
  check_tools || return 2
  "$python" "$root/benchmarks/gpu/unpack_debs.py" "$prefix" "$kit"/debs/*.deb >"$out/unpack.log" 2>&1 \
    || { tail -5 "$out/unpack.log"; note unpack FAILED; return 1; }
  # pkg-config would answer for the system's packages (or not at all): the prefix's are found
  # directly. Only what the device runs is configured and built: no studio, tests of the CPU
  # suite or benchmarks programs.
  step configure 120 cmake --preset headless -B "$build" -DBERT_STUDIO_PYTHON="$python" \
    -DCMAKE_PREFIX_PATH="$prefix/usr" \
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DTORCH_CUDA_ARCH_LIST=9.0 \
    >"$out/configure.log" 2>&1 \
    || { tail -40 "$out/configure.log"; note configure FAILED; return 1; }
  note configure "ok ($(grep -o 'LibTorch [0-9.a-z+]* (CUDA support: [A-Z]*)' "$out/configure.log"))"
  if ! step build 360 cmake --build "$build" -j "$jobs" --target bert-studio-cli bert_cuda_tests \
      >"$out/build.log" 2>&1; then
    grep -E 'error|Error' "$out/build.log" | head -40
    note build "FAILED ($((SECONDS - started)) s): see build.log"
    return 1
  fi
  note build "ok ($((SECONDS - started)) s, $jobs jobs)"
}

cuda_tests() {
  local status=0
  step cuda 120 ctest --test-dir "$build" -L cuda --output-on-failure -V >"$out/cuda-tests.log" 2>&1 || status=$?
  # ctest -V prefixes each line of a test's output with its number ("12: [       OK ] ...").
  grep -E '\[ +(OK|FAILED|SKIPPED) +\]|max \||cap [0-9]+ MiB|device .*MiB total' "$out/cuda-tests.log" \
    >"$out/cuda-tests-summary.log" || true
  local ok failed skipped
  ok=$(grep -cE '\[       OK \] [A-Za-z]*\.' "$out/cuda-tests.log" || true)
  failed=$(grep -cE '\[  FAILED  \] [A-Za-z]*\.[A-Za-z]+ \(' "$out/cuda-tests.log" || true)
  skipped=$(grep -cE '\[  SKIPPED \] [A-Za-z]*\.' "$out/cuda-tests.log" || true)
  note "cuda tests" "$( ((status == 0)) && echo passed || echo FAILED) ($ok ok, $failed failed, $skipped skipped)"
  return $status
}

matrix() {
  [ -x "$BERT_STUDIO_CLI" ] || { note matrix "NOT RUN: $BERT_STUDIO_CLI was not built"; return 2; }
  local quick=() status=0
  [ "${BERT_STUDIO_GPU_QUICK:-0}" = 1 ] && quick=(--quick)
  step matrix 400 "$python" "$root/benchmarks/gpu/gpu_matrix.py" --out "$out" --device "$device" "${quick[@]}" \
    >"$out/matrix.log" 2>&1 || status=$?
  cat "$out/matrix.log"
  note matrix "$( ((status == 0)) && echo ok || echo "status $status") $(grep -cE ' ours .*/s ' "$out/matrix.log") rows; $(grep -E '^all techniques|^equal settings|^forecast' "$out/matrix.log" | tr '\n' ';')"
  return $status
}

unit_tests() {
  local status=0
  step "unit and cli" 1800 cmake --build "$build" -j "$jobs" >"$out/unit-build.log" 2>&1 || status=$?
  ((status == 0)) && { step "unit and cli" 1800 ctest --test-dir "$build" -L 'unit|cli' -j "$jobs" \
    --output-on-failure >"$out/unit-tests.log" 2>&1 || status=$?; }
  note "unit and cli tests" "$(tail -n 20 "$out/unit-tests.log" 2>/dev/null | grep -E 'tests passed' || echo "FAILED: see unit-tests.log")"
  return $status
}

final=0
case "${1:-all}" in
  all | unit)
    probe
    if build; then
      cuda_tests || final=1
      matrix || final=1
    else
      final=1
    fi
    [ "${1:-all}" = unit ] && { unit_tests || final=1; }
    ;;
  *) echo "usage: run.sh [all | unit]" >&2; exit 2 ;;
esac
note total "$SECONDS s of $budget s; $( ((final == 0)) && echo 'every step passed' || echo 'a step FAILED')"
exit $final
