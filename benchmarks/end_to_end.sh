#!/usr/bin/env bash
# End-to-end benchmark (not a CI test): fine-tunes the bundled MiniLM on
# ../shared/data/spamassassin-part1.csv (stratified 80/20, max length 128, one epoch) on the CPU,
# plain and with the memory-saving techniques, and prints validation accuracy, wall time and
# peak memory for each.  Usage: benchmarks/end_to_end.sh [extra train flags]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli="$root/build/release/app/bert-studio-cli"
data="$root/../shared/data/spamassassin-part1.csv"
[ -f "$data" ] || { echo "skipped: $data is absent"; exit 0; }
[ -x "$cli" ] || { echo "build first: scripts/test.sh (or cmake --build --preset release)"; exit 1; }
db=$(mktemp -d)/bench.sqlite
common=(--db "$db" train --train "$data" --max-length 128 --epochs 1 --batch-size 16 --lr 1e-4
        --validation-fraction 0.2 --seed 42 --no-checkpoints "$@")

echo "machine: $(nproc) CPU threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$cli" "${common[@]}" --name "$name" "$@" 2>/dev/null | tail -1
  end=$(date +%s.%N)
  printf '%-40s wall %.0f s\n' "$name" "$(echo "$end - $start" | bc)"
}
run "plain: fixed padding, fp32"            --padding fixed
run "techniques: dynamic+grouped+checkpointing" --padding dynamic --group-by-length --gradient-checkpointing
"$cli" --db "$db" runs list
