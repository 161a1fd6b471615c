#!/usr/bin/env python3
"""Side by side with Hugging Face Trainer (issue 5, point 1).

Both sides train the same starting weights on the same files with the same max length, batch,
accumulation, precision, steps, learning-rate schedule and threads, one after the other on this
machine. Each writes a report of the same form (ours: `bert-studio-cli train --report`; the
reference: hf_trainer_run.py) from which samples/s after the warm-up steps, tokens/s, padding and
process memory are read the same way. Results go to benchmarks/results/side_by_side.json;
benchmarks/report.py turns them into docs/benchmarks.md.

Usage: benchmarks/side_by_side.sh [--models minilm bert-base] [--quick]
"""
import argparse
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import bench_common as common

HERE = Path(__file__).resolve().parent

# Per model: examples trained on, micro-batch and max length. MiniLM trains one full epoch of the
# corpus's 80% split, so length grouping and dynamic padding see every batch on both sides;
# BERT-base is about 8x the compute, so it trains one epoch of a stratified 160-example subset.
MODELS = {
    "minilm": {"train_limit": None, "batch_size": 16, "max_length": 128},
    "bert-base": {"train_limit": 160, "batch_size": 8, "max_length": 128},
}
VALIDATION_LIMIT = 200  # validation examples: accuracy is a sanity check here, not the figure

# Settings: common to both sides, then each side's own additions.
SETTINGS = [
    ("equal: fixed padding, fp32", {"padding": "fixed"}, {}, {}),
    ("equal: dynamic padding + length grouping, fp32", {"padding": "dynamic", "group_by_length": True}, {}, {}),
    # Each side's best on this corpus: everything the reference's Trainer offers that speeds a CPU
    # run up (dynamic padding, length grouping, bf16 autocast on AMX, its fused AdamW by default);
    # ours adds the switches only it has: frozen embeddings (no 23 M-row gradient or moments).
    ("best of each", {"padding": "dynamic", "group_by_length": True, "precision": "bf16"},
     {"freeze_embeddings": True}, {}),
    # The same, ours also training only the upper half of the encoder: backward stops there.
    ("best of each, ours training the upper half", {"padding": "dynamic", "group_by_length": True,
                                                     "precision": "bf16"},
     {"freeze_embeddings": True, "freeze_layers": "half"}, {}),
]


def run_reference(model, train, validation, settings, threads, report, output_dir):
    command = [sys.executable, str(HERE / "hf_trainer_run.py"), "--model", str(model), "--train", str(train),
               "--validation", str(validation), "--threads", str(threads), "--report", str(report),
               "--output-dir", str(output_dir), *common.flags(settings)]
    common.run_logged(command)
    return json.loads(Path(report).read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--models", nargs="+", choices=list(MODELS), default=list(MODELS))
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--quick", action="store_true", help="a few steps only, to check the harness")
    args = parser.parse_args()
    common.require_data(args.data)
    csv.field_size_limit(sys.maxsize)

    results = {"machine": common.machine(), "threads": args.threads, "warmup_steps": common.WARMUP_STEPS,
               "rows": []}
    # The machine's limit, in this run: model FLOP utilisation of every row is against it.
    peaks = {precision: common.gemm_peak(args.threads, precision) for precision in ("fp32", "bf16")}
    results["gemm_peak_gflops"] = {precision: peak / 1e9 for precision, peak in peaks.items()}
    results["gemm"] = f"best of {common.GEMM_REPEATS} torch.matmul {common.GEMM_SIZE}x{common.GEMM_SIZE}"
    print("GEMM peak: " + ", ".join(f"{p} {v:.1f} GFLOP/s" for p, v in results["gemm_peak_gflops"].items()),
          flush=True)
    with tempfile.TemporaryDirectory(prefix="bert-bench-") as scratch:
        scratch = Path(scratch)
        for model_name in args.models:
            spec = MODELS[model_name]
            train, validation = common.stratified_split(
                args.data, scratch / model_name, train_limit=spec["train_limit"], validation_limit=VALIDATION_LIMIT)
            with open(train, newline="", encoding="utf-8") as f:
                examples = sum(1 for _ in csv.DictReader(f))
            steps = 6 if args.quick else -(-examples // spec["batch_size"])
            folder = common.classifier_folder(model_name, scratch / f"{model_name}-start")
            shared = {"max_length": spec["max_length"], "batch_size": spec["batch_size"], "max_steps": steps,
                      "lr": 1e-4, "seed": 42, "eval_batch_size": 64}
            config = json.loads((folder / "config.json").read_text())
            layers = config["num_hidden_layers"]
            mean_length, mean_square = common.length_moments(train, spec["max_length"])
            for title, both, ours_only, reference_only in SETTINGS:
                if ours_only.get("freeze_layers") == "half":
                    ours_only = {**ours_only, "freeze_layers": layers // 2}
                row = {"model": model_name, "setting": title, "train_examples": examples, "steps": steps,
                       "shared": {**shared, **both}, "ours_only": ours_only, "reference_only": reference_only}
                # One evaluation, after the last step, as the reference evaluates after training: our
                # default of 4 a epoch would put evaluations inside the timed steps.
                ours = common.run_ours(folder, train, validation, {**shared, **both, **ours_only}, args.threads,
                                       scratch / "ours.json", scratch / "runs.sqlite",
                                       extra=("--evals-per-epoch", "1"))
                reference = run_reference(folder, train, validation, {**shared, **both, **reference_only},
                                          args.threads, scratch / "reference.json", scratch / "hf-output")
                row["ours"], row["reference"] = common.figures(ours), common.figures(reference)
                peak = peaks[both.get("precision", "fp32")]
                for side, frozen in (("ours", ours_only.get("freeze_layers", 0)),
                                     ("reference", reference_only.get("freeze_layers", 0))):
                    flops = common.training_flops_per_real_token(config, mean_length, mean_square, frozen)
                    row[side]["flops_per_real_token"] = flops
                    row[side]["mfu"] = common.model_flop_utilisation(row[side]["tokens_per_second"], flops, peak)
                row["reference_engine"] = reference["engine"]
                o, r = row["ours"], row["reference"]
                row["throughput_ratio"] = o["samples_per_second"] / r["samples_per_second"]
                row["training_memory_ratio"] = o["training_growth_mib"] / r["training_growth_mib"]
                row["process_memory_ratio"] = o["peak_resident_mib"] / r["peak_resident_mib"]
                results["rows"].append(row)
                print(f"{model_name:9} {title:50} samples/s {o['samples_per_second']:7.2f} vs "
                      f"{r['samples_per_second']:7.2f} ({row['throughput_ratio']:.2f}x); training memory "
                      f"{o['training_growth_mib']:6.0f} vs {r['training_growth_mib']:6.0f} MiB "
                      f"({row['training_memory_ratio']:.2f}); process peak {o['peak_resident_mib']:5.0f} vs "
                      f"{r['peak_resident_mib']:5.0f} MiB; accuracy {o['accuracy']:.3f} vs {r['accuracy']:.3f}; "
                      f"MFU {o['mfu']:.1%} vs {r['mfu']:.1%}",
                      flush=True)
    common.save("side_by_side" + ("-quick" if args.quick else ""), results)


if __name__ == "__main__":
    main()
