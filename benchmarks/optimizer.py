#!/usr/bin/env python3
"""AdamW step time (issue 5, point 4): ours (bench_optimizer: LibTorch's torch::optim::AdamW and
our FusedAdamW) against PyTorch's torch.optim.AdamW with its for-loop, foreach and fused
implementations, on the parameters of MiniLM and of BERT-base, all threads, random gradients.
Results go to benchmarks/results/optimizer.json. Usage: benchmarks/optimizer.sh
"""
import json
import os
import subprocess
import time

import torch
from transformers import BertConfig, BertForSequenceClassification

import bench_common as common

BENCH = common.ROOT / "build" / "release" / "benchmarks" / "bench_optimizer"
REPEATS = 20  # steps timed per variant after one step that creates the moments; best of 5 rounds


def reference_step_ms(model_name, variant):
    if model_name == "minilm":
        config = BertConfig.from_pretrained(common.minilm_folder())
    else:
        config = BertConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072)
    torch.manual_seed(42)
    parameters = list(BertForSequenceClassification(config).parameters())
    for parameter in parameters:
        parameter.grad = torch.randn_like(parameter)
    flags = {"for-loop": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}[variant]
    optimizer = torch.optim.AdamW(parameters, lr=1e-4, weight_decay=0.01, **flags)
    optimizer.step()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(REPEATS):
            optimizer.step()
        best = min(best, (time.perf_counter() - start) / REPEATS * 1000)
    return best


def main():
    if not BENCH.is_file():
        raise SystemExit(f"build first: cmake --build --preset release ({BENCH} is missing)")
    threads = os.cpu_count()
    torch.set_num_threads(threads)
    ours = json.loads(subprocess.run([str(BENCH), "--benchmark_format=json", "--benchmark_repetitions=5"],
                                     check=True, capture_output=True, text=True).stdout)
    rows = []
    for model_name in ("minilm", "base"):
        ms = {}
        for entry in ours["benchmarks"]:
            name, model = entry["run_name"].split("/")
            if model == model_name and entry.get("run_type") == "iteration":
                key = "ours: FusedAdamW" if name == "FusedAdamW" else "LibTorch torch::optim::AdamW"
                ms[key] = min(ms.get(key, float("inf")), entry["real_time"])  # best repetition, as below
                parameters = entry["parameters"]
        for variant in ("for-loop", "foreach", "fused"):
            ms[f"PyTorch AdamW {variant}"] = reference_step_ms(model_name, variant)
        best_reference = min(v for k, v in ms.items() if k.startswith("PyTorch"))
        rows.append({"model": model_name, "parameters": parameters, "step_ms": ms,
                     "best_reference_ms": best_reference, "ratio_ours_speed": best_reference / ms["ours: FusedAdamW"]})
        print(f"{model_name} ({parameters / 1e6:.1f} M parameters, {threads} threads)")
        for key, value in ms.items():
            print(f"  {key:32} {value:8.1f} ms")
        print(f"  speed ours / fastest PyTorch: {rows[-1]['ratio_ours_speed']:.2f}x")
    common.save("optimizer", {"machine": common.machine(), "threads": threads, "rows": rows})


if __name__ == "__main__":
    main()
