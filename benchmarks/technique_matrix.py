#!/usr/bin/env python3
"""The technique matrix of our engine (issue 5, point 2), in the form of the reference's published
table: each technique alone and the useful combinations, with samples/s, peak memory, the forecast
made before training against that measured peak, and validation accuracy after a fixed number of
steps. Every row is one `bert-studio-cli train --report` run of the bundled MiniLM on the corpus
(stratified 80/20), so the figures are what a user of the command line or the studio gets.

On the CPU the measured peak is the engine's own count of tensor bytes (the CPU has no allocator
statistics); on a GPU it is CUDA's peak allocated bytes. Results go to
benchmarks/results/technique_matrix-<device>.json.

With --families, the rows are instead every model family at one small shape (4 layers, 256 wide,
random weights over MiniLM's vocabulary: benchmarks/bench_common.py classifier_folder), each at
fixed padding in fp32 and with every technique: the forecast of each family's own tensors against
its measured peak (results: technique_matrix-families-<device>.json).

Usage: benchmarks/technique_matrix.sh [--device cuda:0 --model-size base --max-length 512] [--quick]
       benchmarks/technique_matrix.sh --families [--quick]
"""
import argparse
import tempfile
from pathlib import Path

import bench_common as common

STEPS = 30  # optimizer steps per row: long enough for accuracy to separate from chance

# (name, flags). Fixed padding is the baseline, as in the reference's table; rows name what they add.
ROWS = [
    ("baseline: batch 16, fixed padding, fp32", {"padding": "fixed"}),
    ("dynamic padding", {"padding": "dynamic"}),
    ("dynamic padding + length grouping", {"padding": "dynamic", "group_by_length": True}),
    ("unpadded", {"padding": "unpadded"}),
    ("unpadded + length grouping", {"padding": "unpadded", "group_by_length": True}),
    ("batch 4 x accumulation 4", {"padding": "fixed", "batch_size": 4, "accumulation": 4}),
    ("frozen embeddings", {"padding": "fixed", "freeze_embeddings": True}),
    ("frozen embeddings + lower half of layers", {"padding": "fixed", "freeze_embeddings": True,
                                                  "freeze_layers": "half"}),
    ("bf16", {"padding": "fixed", "precision": "bf16"}),
    ("fp16 + dynamic loss scaling", {"padding": "fixed", "precision": "fp16"}),
    ("gradient checkpointing", {"padding": "fixed", "gradient_checkpointing": True}),
    ("batch 4 x accumulation 4 + checkpointing", {"padding": "fixed", "batch_size": 4, "accumulation": 4,
                                                  "gradient_checkpointing": True}),
    ("batch 4 x accumulation 4 + checkpointing + bf16", {"padding": "fixed", "batch_size": 4, "accumulation": 4,
                                                         "gradient_checkpointing": True, "precision": "bf16"}),
    ("all: unpadded + grouping + accumulation + checkpointing + bf16 + frozen embeddings",
     {"padding": "unpadded", "group_by_length": True, "batch_size": 4, "accumulation": 4,
      "gradient_checkpointing": True, "precision": "bf16", "freeze_embeddings": True}),
]

# --families: every family at one shape, plain and with everything on.
FAMILIES = ["bert-small", "roberta-small", "distilbert-small", "electra-small", "modernbert-small"]
FAMILY_ROWS = [
    ("fixed padding, fp32", {"padding": "fixed"}),
    ("all: unpadded + grouping + accumulation + checkpointing + bf16 + frozen embeddings",
     {"padding": "unpadded", "group_by_length": True, "batch_size": 4, "accumulation": 4,
      "gradient_checkpointing": True, "precision": "bf16", "freeze_embeddings": True}),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--model-size", choices=["minilm", "bert-base"], default="minilm")
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--quick", action="store_true", help="4 steps per row, to check the harness")
    parser.add_argument("--families", action="store_true", help="every model family's rows instead")
    args = parser.parse_args()
    common.require_data(args.data)

    steps = 4 if args.quick else STEPS
    results = {"machine": common.machine(), "device": args.device, "model": args.model_size,
               "max_length": args.max_length, "steps": steps, "warmup_steps": common.WARMUP_STEPS, "rows": []}
    # Model FLOP utilisation of every row, against this machine's GEMM peak in the same run.
    peaks = {precision: common.gemm_peak(args.threads, precision) for precision in ("fp32", "bf16")}
    results["gemm_peak_gflops"] = {precision: peak / 1e9 for precision, peak in peaks.items()}
    cases = ([(kind, f"{kind}: {name}", flags) for kind in FAMILIES for name, flags in FAMILY_ROWS]
             if args.families else [(args.model_size, name, flags) for name, flags in ROWS])
    if args.families:
        results["model"] = "families"
    with tempfile.TemporaryDirectory(prefix="bert-matrix-") as scratch:
        scratch = Path(scratch)
        train, validation = common.stratified_split(args.data, scratch / "data")
        mean_length, mean_square = common.length_moments(train, args.max_length)
        for kind, name, flags in cases:
            folder = scratch / f"start-{kind}"
            if not folder.exists():
                common.classifier_folder(kind, folder)
            config = common.json.loads((folder / "config.json").read_text())
            layers = common.encoder_shape(config)[2]
            settings = {"max_length": args.max_length, "batch_size": args.batch_size, "max_steps": steps,
                        "lr": 1e-4, "seed": 42, "device": args.device, **flags}
            if settings.get("freeze_layers") == "half":
                settings["freeze_layers"] = layers // 2
            report = common.run_ours(folder, train, validation, settings, args.threads, scratch / "report.json",
                                     scratch / "runs.sqlite")
            row = {"name": name, "settings": settings, **common.figures(report),
                   "measured_breakdown": report["measured"], "forecast_breakdown": report["forecast"]}
            row["forecast_error"] = row["forecast_mib"] / row["peak_tensor_mib"] - 1
            # fp16 has no fast path on a CPU: its limit is taken as fp32's.
            precision = "bf16" if settings.get("precision") == "bf16" else "fp32"
            flops = common.training_flops_per_real_token(config, mean_length, mean_square,
                                                         settings.get("freeze_layers", 0))
            row["mfu"] = common.model_flop_utilisation(row["tokens_per_second"], flops, peaks[precision])
            results["rows"].append(row)
            print(f"{name:100} {row['samples_per_second']:6.2f} samples/s  peak {row['peak_tensor_mib']:7.1f} MiB  "
                  f"forecast {row['forecast_mib']:7.1f} MiB ({row['forecast_error']:+.1%})  "
                  f"accuracy {row['accuracy']:.4f}  MFU {row['mfu']:.1%}", flush=True)
    device = args.device.split(":")[0]
    common.save(f"technique_matrix-{'families-' if args.families else ''}{device}" + ("-quick" if args.quick else ""),
                results)


if __name__ == "__main__":
    main()
