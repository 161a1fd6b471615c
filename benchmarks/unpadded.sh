#!/usr/bin/env bash
# Unpadded against padded batches (issue 14, point 2): one training micro-batch's forward and
# backward on a MiniLM-shaped model, three length profiles (benchmarks/unpadded.cpp), median of
# 3 repetitions. Prints the figures and keeps them for docs/benchmarks.md.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}/bin/python
bench="$root/build/release/benchmarks/bench_unpadded"
[ -x "$bench" ] || { echo "build first: cmake --build --preset release ($bench is missing)"; exit 1; }
"$bench" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true --benchmark_format=json \
  --benchmark_out="$root/build/release/unpadded.json" --benchmark_out_format=json >/dev/null
PYTHONPATH="$root/benchmarks" "$python" - "$root/build/release/unpadded.json" <<'PY'
import json, sys
import bench_common as common
runs = json.load(open(sys.argv[1]))["benchmarks"]
medians = {b["run_name"]: b for b in runs if b.get("aggregate_name") == "median"}
rows = []
for profile, title in (("short_uneven", "16 short texts of uneven length (5-25 tokens, one in 8 up to 128)"),
                       ("short_even", "16 short texts of nearly equal length (12-14 tokens)"),
                       ("long_uneven", "16 long texts of uneven length (40-512 tokens)")):
    padded, unpadded = medians[f"Padded/{profile}"], medians[f"Unpadded/{profile}"]
    row = {"profile": profile, "title": title, "padded_ms": padded["real_time"], "unpadded_ms": unpadded["real_time"],
           "real_tokens_per_second_unpadded": unpadded["real_tokens_per_s"]}
    row["speedup"] = row["padded_ms"] / row["unpadded_ms"]
    rows.append(row)
    print(f"{title:70} padded {row['padded_ms']:8.1f} ms  unpadded {row['unpadded_ms']:8.1f} ms  "
          f"{row['speedup']:.2f}x")
common.save("unpadded", {"machine": common.machine(), "rows": rows})
PY
