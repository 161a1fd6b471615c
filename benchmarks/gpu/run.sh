#!/usr/bin/env bash
# The GPU kit, step 2: on the GPU machine, after benchmarks/gpu/prepare.sh made .gpu-kit here.
#
#   run.sh build-and-test   unpacks the kit's Debian packages into a private prefix (never into /),
#                           configures the headless preset against this machine's torch, builds
#                           with every core and runs the tests labelled cuda, then the unit tests
#   run.sh matrix           the GPU technique matrix, ours beside Hugging Face Trainer (gpu_matrix.py)
#   run.sh all              both, in one call
#
# Logs and results JSON go to $OUT (the device tool's folder), else build/gpu/out. The last lines
# printed are one summary table. Environment:
#   BERT_STUDIO_GPU_DEVICE  the device (cuda:0); cpu rehearses the whole kit on a machine without one
#   BERT_STUDIO_GPU_QUICK=1 a rehearsal: a small model, few steps
#   BERT_STUDIO_PYTHON      the Python with torch and transformers (python3)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kit="$root/.gpu-kit"
build="$root/build/gpu"
prefix=${BERT_STUDIO_GPU_PREFIX:-/tmp/bert-studio-prefix}
out=${OUT:-$build/out}
device=${BERT_STUDIO_GPU_DEVICE:-cuda:0}
python=${BERT_STUDIO_PYTHON:-$(command -v python3)}
jobs=$(nproc)
mkdir -p "$out"
[ -d "$kit/debs" ] || { echo "run.sh: $kit is missing: run benchmarks/gpu/prepare.sh where apt works, and carry .gpu-kit" >&2; exit 2; }

# The unpacked packages' shared libraries (spdlog, fmt, utf8proc, sqlite) for the build's test
# discovery and for every program run below; their headers and CMake files through the prefix.
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export BERT_STUDIO_VOCAB_DIR="$kit/vocab"
export BERT_STUDIO_CLI="$build/app/bert-studio-cli"
export PYTHONUNBUFFERED=1

summary=()
note() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }
print_summary() {
  echo
  echo "== GPU kit summary ($(cat "$kit/commit" 2>/dev/null || echo '?'), device $device) =="
  printf '%s\n' "${summary[@]}"
}
trap print_summary EXIT

# What the build needs, checked before anything is configured: CMake new enough for the presets
# (cmakeMinimumRequired in CMakePresets.json), ninja (the presets' generator) and a compiler
# that takes C++20 (torch 2.x's headers need it). Names each missing tool and what to install.
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
    exit 2
  fi
  note tools "ok (cmake $(cmake --version | head -1 | awk '{print $3}'), ninja $(ninja --version), $("$cxx" --version | head -1))"
}

build_and_test() {
  local started=$SECONDS
  check_tools
  "$python" "$root/benchmarks/gpu/unpack_debs.py" "$prefix" "$kit"/debs/*.deb | tee "$out/unpack.log"
  "$python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda,
      "devices", torch.cuda.device_count(), torch.cuda.get_device_name() if torch.cuda.is_available() else "")' \
    | tee "$out/torch.log"
  # pkg-config would answer for the system's packages (or not at all): the prefix's are found directly.
  cmake --preset headless -B "$build" -DBERT_STUDIO_PYTHON="$python" -DCMAKE_PREFIX_PATH="$prefix/usr" \
    -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DTORCH_CUDA_ARCH_LIST=9.0 >"$out/configure.log" 2>&1 || { tail -40 "$out/configure.log"; note configure FAILED; exit 1; }
  note configure "ok ($(grep -o 'LibTorch [0-9.]* (CUDA support: [A-Z]*)' "$out/configure.log"))"
  if ! cmake --build "$build" -j "$jobs" >"$out/build.log" 2>&1; then
    grep -E 'error|Error' "$out/build.log" | head -40
    note build "FAILED ($((SECONDS - started)) s): see build.log"
    exit 1
  fi
  note build "ok ($((SECONDS - started)) s, $jobs jobs)"
  local status=0
  ctest --test-dir "$build" -L cuda --output-on-failure -V >"$out/cuda-tests.log" 2>&1 || status=$?
  # ctest -V prefixes each line of a test's output with its number ("12: [       OK ] ...").
  grep -E '\[ +(OK|FAILED|SKIPPED) +\]|max \||cap [0-9]+ MiB|device .*MiB total' "$out/cuda-tests.log" \
    | tee "$out/cuda-tests-summary.log" || true
  local ok failed skipped
  ok=$(grep -cE '\[       OK \] Cuda[A-Za-z]*\.' "$out/cuda-tests.log" || true)
  failed=$(grep -cE '\[  FAILED  \] Cuda[A-Za-z]*\.[A-Za-z]+ \(' "$out/cuda-tests.log" || true)
  skipped=$(grep -cE '\[  SKIPPED \] Cuda[A-Za-z]*\.' "$out/cuda-tests.log" || true)
  note "cuda tests" "$( [ $status -eq 0 ] && echo passed || echo FAILED) ($ok ok, $failed failed, $skipped skipped)"
  local unit=0
  ctest --test-dir "$build" -L 'unit|cli' -j "$jobs" --output-on-failure >"$out/unit-tests.log" 2>&1 || unit=$?
  note "unit and cli tests" "$(tail -n 20 "$out/unit-tests.log" | grep -E 'tests passed' || echo "FAILED: see unit-tests.log")"
  [ $status -eq 0 ] && [ $unit -eq 0 ]
}

matrix() {
  [ -x "$BERT_STUDIO_CLI" ] || { echo "run.sh: build first (run.sh build-and-test, carry build/gpu)" >&2; exit 2; }
  local quick=()
  [ "${BERT_STUDIO_GPU_QUICK:-0}" = 1 ] && quick=(--quick)
  "$python" "$root/benchmarks/gpu/gpu_matrix.py" --out "$out" --device "$device" "${quick[@]}" \
    2>&1 | tee "$out/matrix.log"
  note matrix "$(grep -E '^all techniques|^equal settings|^forecast' "$out/matrix.log" | tr '\n' ';')"
}

case "${1:-all}" in
  build-and-test) build_and_test ;;
  matrix) matrix ;;
  all) build_and_test && matrix ;;
  *) echo "usage: run.sh build-and-test | matrix | all" >&2; exit 2 ;;
esac
