#!/usr/bin/env python3
"""The GPU technique matrix (issue 9, point 4), ours beside Hugging Face Trainer on the same GPU.

BERT-base with random weights (built here, the same starting weights for both sides), max length
512, effective batch 32, on a synthetic corpus made here (make_dataset.py). One row per technique
and one with all of them. Each row runs `bert-studio-cli train --report` and, where Trainer has the
technique, hf_trainer_run.py with equal settings: samples/s after the warm-up steps, peak allocated
and peak reserved bytes of CUDA's caching allocator during training, and our forecast against our
measured peak. Prints one table and the issue's goals; writes the results as JSON. After the BERT-base rows, the
same comparison for the other shapes and tasks (FAMILY_ROWS): ModernBERT-base's shape, and token
classification (NER) on BERT-base, each at Trainer's best settings and at ours.

Usage: gpu_matrix.py --out DIR [--device cuda:0] [--steps 20] [--quick]
  --quick: a rehearsal of the harness (a 2-layer model, max length 64, 4 steps), also on the CPU.
"""
import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import bench_common as common  # noqa: E402

EFFECTIVE_BATCH = 32  # examples per optimizer step in every row
MAX_LENGTH = 512
GOAL_PEAK_ALL_GIB = 2.5      # all techniques together: peak allocated under this
GOAL_TIME_ALL = 1.5          # ... at no more than this many times the baseline's time per example
GOAL_EQUAL_SPEEDUP = 1.3     # equal settings: ours at least this times Trainer's samples/s

# (name, settings both sides take, settings only ours has). Fixed padding, fp32, one micro-batch
# of 32 is the unconstrained baseline.
ROWS = [
    ("baseline: fixed padding, fp32, batch 32", {"padding": "fixed"}, {}),
    ("dynamic padding", {"padding": "dynamic"}, {}),
    ("dynamic padding + length grouping", {"padding": "dynamic", "group_by_length": True}, {}),
    # The engine's default: no padding at all (Trainer has no such switch: its nearest is the
    # dynamic padding row above).
    ("unpadded", {"padding": "dynamic"}, {"padding": "unpadded"}),
    ("batch 8 x accumulation 4", {"padding": "fixed", "batch_size": 8, "accumulation": 4}, {}),
    ("frozen embeddings", {"padding": "fixed"}, {"freeze_embeddings": True}),
    ("bf16", {"padding": "fixed", "precision": "bf16"}, {}),
    ("fp16 + dynamic loss scaling", {"padding": "fixed", "precision": "fp16"}, {}),
    ("gradient checkpointing", {"padding": "fixed", "gradient_checkpointing": True}, {}),
    ("all: unpadded + grouping + 8x4 + checkpointing + bf16 + frozen embeddings",
     {"padding": "dynamic", "group_by_length": True, "batch_size": 8, "accumulation": 4,
      "gradient_checkpointing": True, "precision": "bf16"},
     {"padding": "unpadded", "freeze_embeddings": True}),
]

# (name, model shape, task, settings both sides take, settings only ours has): after the BERT rows,
# so that a device call cut short still has those. Equal settings are Trainer's best (dynamic
# padding, bf16); ours adds unpadded batches, its default.
TRAINER_BEST = {"padding": "dynamic", "precision": "bf16"}
FAMILY_ROWS = [
    ("ModernBERT-base shape: dynamic padding + bf16", "modernbert-base", "single-label", TRAINER_BEST, {}),
    ("ModernBERT-base shape: unpadded + bf16", "modernbert-base", "single-label", TRAINER_BEST,
     {"padding": "unpadded"}),
    ("NER, BERT-base: dynamic padding + bf16", "bert-base", "token-classification", TRAINER_BEST, {}),
    ("NER, BERT-base: unpadded + bf16", "bert-base", "token-classification", TRAINER_BEST, {"padding": "unpadded"}),
]
QUICK_SHAPES = {"modernbert-base": "modernbert-small", "bert-base": "bert-small"}
NER_LABELS = ("O", "B-MARK", "I-MARK")


def split_conll(path, folder, validation_limit):
    """The last validation_limit sentences of a CoNLL file for validation, the others for training."""
    sentences = [block for block in Path(path).read_text(encoding="utf-8").split("\n\n") if block.strip()]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    train, validation = folder / "train.conll", folder / "validation.conll"
    train.write_text("\n\n".join(sentences[:-validation_limit]) + "\n\n", encoding="utf-8")
    validation.write_text("\n\n".join(sentences[-validation_limit:]) + "\n\n", encoding="utf-8")
    return train, validation


def small_folder(folder):
    """The rehearsal's model: BERT-base's shape cut down to 2 layers of 64, same vocabulary."""
    import shutil

    import torch
    from transformers import BertConfig, BertForSequenceClassification
    torch.manual_seed(0)
    config = BertConfig(vocab_size=30522, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                        intermediate_size=128, max_position_embeddings=512, num_labels=2)
    BertForSequenceClassification(config).save_pretrained(folder, safe_serialization=True)
    for name in ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        if (common.tokenizer_folder() / name).is_file():
            shutil.copy(common.tokenizer_folder() / name, Path(folder) / name)
    return Path(folder)


def run_reference(model, train, validation, settings, device, report, output_dir):
    command = [sys.executable, str(HERE.parent / "hf_trainer_run.py"), "--model", str(model), "--train", str(train),
               "--validation", str(validation), "--threads", str(os.cpu_count()), "--device", device,
               "--report", str(report), "--output-dir", str(output_dir), *common.flags(settings)]
    common.run_logged(command)
    return json.loads(Path(report).read_text())


def cuda_figures(report):
    """Throughput and CUDA memory of a report (either side)."""
    figures = common.figures(report)
    figures["peak_allocated_mib"] = report.get("peak_tensor_bytes", 0) / common.MIB
    figures["peak_reserved_mib"] = report.get("peak_reserved_bytes", 0) / common.MIB
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="folder for technique_matrix-gpu.json")
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    steps = 4 if args.quick else args.steps
    max_length = 64 if args.quick else MAX_LENGTH
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = {"machine": common.machine(), "device": args.device, "model": "bert-base (random weights)",
               "max_length": max_length, "effective_batch": EFFECTIVE_BATCH, "steps": steps,
               "warmup_steps": common.WARMUP_STEPS, "quick": args.quick, "rows": []}
    if args.quick:
        results["model"] = "2 layers of 64 (rehearsal)"
    path = out / ("technique_matrix-gpu" + ("-quick" if args.quick else "") + ".json")
    with tempfile.TemporaryDirectory(prefix="bert-gpu-matrix-") as scratch:
        scratch = Path(scratch)
        corpus = scratch / "corpus.csv"
        common.run_logged([sys.executable, str(HERE / "make_dataset.py"), str(common.tokenizer_folder() / "vocab.txt"),
                           str(corpus)])
        train, validation = common.stratified_split(corpus, scratch / "data", validation_limit=256)
        folder = small_folder(scratch / "start") if args.quick else common.classifier_folder("bert-base",
                                                                                             scratch / "start")
        conll = scratch / "corpus.conll"
        common.run_logged([sys.executable, str(HERE / "make_dataset.py"), str(common.tokenizer_folder() / "vocab.txt"),
                           str(conll), "--conll", "--rows", "1200"])
        ner_train, ner_validation = split_conll(conll, scratch / "ner", validation_limit=128)
        starts = {("bert-base", "single-label"): folder}

        def start_folder(shape, task):
            shape = QUICK_SHAPES.get(shape, shape) if args.quick else shape
            if (shape, task) not in starts:
                token = task == "token-classification"
                starts[(shape, task)] = common.classifier_folder(
                    shape, scratch / f"start-{shape}-{task}", head="token" if token else "sequence",
                    **({"label_names": NER_LABELS, "keep_label_order": True} if token else {}))
            return starts[(shape, task)]

        references = {}  # (model, settings) -> Trainer's figures
        plan = [(name, folder, "single-label", both, ours_only) for name, both, ours_only in ROWS]
        plan += [(name, start_folder(shape, task), task, both, ours_only)
                 for name, shape, task, both, ours_only in FAMILY_ROWS]
        for name, model, task, both, ours_only in plan:
            token = task == "token-classification"
            settings = {"max_length": max_length, "batch_size": EFFECTIVE_BATCH, "max_steps": steps, "lr": 5e-5,
                        "seed": 42, **({"task": task} if token else {}), **both}
            data = (ner_train, ner_validation) if token else (train, validation)
            ours = common.run_ours(model, *data, {**settings, **ours_only, "device": args.device},
                                   os.cpu_count(), scratch / "ours.json", scratch / "runs.sqlite")
            row = {"name": name, "model": Path(model).name, "task": task, "settings": settings,
                   "ours_only": ours_only, "ours": cuda_figures(ours),
                   "forecast_mib": ours["forecast_bytes"] / common.MIB, "trial_peak_mib": ours["trial_peak_bytes"] / common.MIB,
                   "forecast_breakdown": ours["forecast"], "measured_breakdown": ours["measured"]}
            peak = row["ours"]["peak_allocated_mib"]
            row["forecast_error"] = row["forecast_mib"] / peak - 1 if peak else None
            cpu_fp16 = args.device == "cpu" and settings.get("precision") == "fp16"  # Trainer refuses it
            if (not ours_only or name.startswith("all")) and not cpu_fp16:
                theirs = run_reference(model, *data, settings, args.device, scratch / "theirs.json",
                                       scratch / "trainer-output")
                row["reference"] = cuda_figures(theirs)
                row["reference_note"] = ("dynamic padding, without frozen embeddings (Trainer has no switch)"
                                         if ours_only else "")
                references[(str(model), json.dumps(settings, sort_keys=True))] = row["reference"]
            elif (str(model), json.dumps(settings, sort_keys=True)) in references:
                # Ours with a switch Trainer lacks, against Trainer's run of the row above with the
                # same settings otherwise (not run twice).
                row["reference"] = references[(str(model), json.dumps(settings, sort_keys=True))]
                row["reference_note"] = "Trainer's run of the row above (it has no such switch)"
            if "reference" in row:
                row["speedup"] = row["ours"]["samples_per_second"] / row["reference"]["samples_per_second"]
            results["rows"].append(row)
            print_row(row, flush=True)
            # Written after every row: a device call cut by its time limit still returns the rows
            # that ran.
            path.write_text(json.dumps(results, indent=1) + "\n")
    check_goals(results)
    path.write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {path}")


def print_row(row, flush=False):
    ours, theirs = row["ours"], row.get("reference")
    error = f"{row['forecast_error']:+.1%}" if row["forecast_error"] is not None else "-"
    line = (f"{row['name'][:60]:60} ours {ours['samples_per_second']:8.2f}/s alloc {ours['peak_allocated_mib']:8.0f} "
            f"reserved {ours['peak_reserved_mib']:8.0f} forecast {row['forecast_mib']:8.0f} ({error})")
    if theirs:
        line += (f" | Trainer {theirs['samples_per_second']:8.2f}/s alloc {theirs['peak_allocated_mib']:8.0f} "
                 f"reserved {theirs['peak_reserved_mib']:8.0f} | x{row['speedup']:.2f}")
    print(line, flush=flush)


def check_goals(results):
    rows = {row["name"].split(":")[0]: row for row in results["rows"]}
    baseline, everything = rows.get("baseline"), rows.get("all")
    goals = {}
    if baseline and everything:
        peak_gib = everything["ours"]["peak_allocated_mib"] / 1024
        slowdown = baseline["ours"]["samples_per_second"] / everything["ours"]["samples_per_second"]
        goals["all_peak_gib"] = peak_gib
        goals["all_time_ratio"] = slowdown
        print(f"all techniques: peak {peak_gib:.2f} GiB (goal < {GOAL_PEAK_ALL_GIB}), time per example "
              f"x{slowdown:.2f} of the baseline (goal <= {GOAL_TIME_ALL})")
    equal = [row["speedup"] for row in results["rows"] if "speedup" in row and not row["ours_only"]]
    if equal:
        goals["equal_speedup_min"] = min(equal)
        print(f"equal settings: ours / Trainer samples/s from x{min(equal):.2f} to x{max(equal):.2f} "
              f"(goal >= {GOAL_EQUAL_SPEEDUP})")
    ours_switches = [row for row in results["rows"] if "speedup" in row and row["ours_only"]
                     and not row["name"].startswith("all")]
    for row in ours_switches:
        print(f"{row['name']}: ours / Trainer samples/s x{row['speedup']:.2f} ({row['reference_note']})")
    errors = [abs(row["forecast_error"]) for row in results["rows"] if row["forecast_error"] is not None]
    if errors:
        goals["worst_forecast_error"] = max(errors)
        print(f"forecast against measured peak allocated: worst {max(errors):.1%} (goal <= 10%)")
    results["goals"] = goals


if __name__ == "__main__":
    main()
