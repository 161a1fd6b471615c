#!/usr/bin/env bash
# Builds the headless preset (engine, command line, tests) against another torch release than
# the pinned one, in a second venv, the way the GPU machine's torch is met there (issue 24,
# point 10: the device machine has torch 2.11; code written against the pinned 2.15 must build
# on both, with TORCH_VERSION_* guards where the APIs differ). Not part of scripts/test.sh.
#
#   scripts/build_against_torch.sh [VERSION] [-- extra cmake --build arguments]
#
# VERSION defaults to 2.11.0. The venv goes to $BERT_STUDIO_VENV_ROOT/venv-torch-VERSION
# (~/.local/share/bert-studio by default) and is reused; the build to build/torch-VERSION.
# Offline (no package index): set PIP_NO_INDEX=1 and PIP_FIND_LINKS to a folder of wheels.
# Prints the configure summary and the first errors; exits non-zero when either step fails.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=${1:-2.11.0}
shift || true
[ "${1:-}" = "--" ] && shift
venv_root=${BERT_STUDIO_VENV_ROOT:-$HOME/.local/share/bert-studio}
venv="$venv_root/venv-torch-$version"
build="$root/build/torch-$version"

for tool in cmake ninja python3; do
  command -v "$tool" >/dev/null || { echo "build_against_torch: $tool is missing" >&2; exit 2; }
done

if ! "$venv/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$version')" 2>/dev/null; then
  echo "build_against_torch: installing torch $version into $venv"
  python3 -m venv "$venv"
  # torch's own dependencies (the nvidia-* wheels with nccl.h among them) come with it.
  if ! "$venv/bin/pip" install --quiet "torch==$version"; then
    echo "build_against_torch: pip could not install torch $version (no package index here?" \
         "set PIP_NO_INDEX=1 PIP_FIND_LINKS=<folder of wheels>)" >&2
    exit 2
  fi
fi
"$venv/bin/python" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda,
    "cxx11 ABI", torch.compiled_with_cxx11_abi())'

# Two CUDA runtimes must not meet: the toolkit that find_package(Torch) enables has to be the
# CUDA major version the wheel was built for (docs: libtorch-cpp notes, "Building").
torch_cuda=$("$venv/bin/python" -c 'import torch; print(torch.version.cuda or "")')
if [ -n "$torch_cuda" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc_cuda=$(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  if [ "${torch_cuda%%.*}" != "$nvcc_cuda" ]; then
    echo "build_against_torch: note: torch $version is built for CUDA $torch_cuda and" \
         "/usr/local/cuda is CUDA $nvcc_cuda: the build compiles, the programs may not start" >&2
  fi
fi

mkdir -p "$root/build"
cmake --preset headless -B "$build" -DBERT_STUDIO_PYTHON="$venv/bin/python" \
  >"$build.configure.log" 2>&1 || { tail -40 "$build.configure.log"; exit 1; }
grep -E 'LibTorch|NCCL' "$build.configure.log"
if ! cmake --build "$build" -j "${BERT_STUDIO_JOBS:-2}" "$@" >"$build.build.log" 2>&1; then
  grep -E 'error' "$build.build.log" | head -40
  echo "build_against_torch: the build against torch $version failed: $build.build.log" >&2
  exit 1
fi
echo "build_against_torch: headless build against torch $version: ok ($build)"
