#!/usr/bin/env python3
"""Training parity with Hugging Face Trainer (issue 14, point 7): the strongest proof that the
engine's speed is honest is that it computes the same training.

Both sides start from the same weights (one transformers folder, dropout set to 0 in its
config.json), read the same training file in the file's own order (ours `--no-shuffle`, Trainer
a sequential sampler), with the same max length, batch, learning rate, schedule, weight decay,
clipping and fp32. Per-step losses (ours from `train --report`; Trainer's recorded unrounded by
hf_trainer_run.py) and the final weights (ours exported with `export --last`, Trainer's
save_model) are compared. Target: within 1e-4 over 50 steps. Results go to
benchmarks/results/training_parity.json; benchmarks/report.py puts them in docs/benchmarks.md.

Usage: benchmarks/training_parity.sh [--models minilm bert-base roberta-small modernbert-small] [--steps 50]
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import bench_common as common

HERE = Path(__file__).resolve().parent
TOLERANCE = 1e-4  # the bound, for losses and weights alike
# Per model: micro-batch and max length; examples are steps x batch, so no example repeats.
MODELS = {
    "minilm": {"batch_size": 8, "max_length": 128},
    "bert-base": {"batch_size": 4, "max_length": 128},
    "roberta-small": {"batch_size": 8, "max_length": 128},
    "modernbert-small": {"batch_size": 8, "max_length": 256},
}
# Each family's names for the dropouts that must be off for an exact comparison.
DROPOUT_KEYS = ("hidden_dropout_prob", "attention_probs_dropout_prob", "classifier_dropout", "embedding_dropout",
                "attention_dropout", "mlp_dropout")


def without_dropout(folder):
    config_path = Path(folder) / "config.json"
    config = json.loads(config_path.read_text())
    config.update({key: 0.0 for key in DROPOUT_KEYS if key in config or key == "classifier_dropout"})
    config_path.write_text(json.dumps(config, indent=2) + "\n")


def largest_weight_difference(ours, reference):
    """Largest absolute difference over the tensors both folders hold, and the names only one has."""
    from safetensors.torch import load_file
    a = load_file(str(Path(ours) / "model.safetensors"))
    b = load_file(str(Path(reference) / "model.safetensors"))
    largest, name_of_largest = 0.0, None
    for name in sorted(set(a) & set(b)):
        if a[name].shape != b[name].shape or not a[name].is_floating_point():
            continue
        difference = float((a[name].float() - b[name].float()).abs().max())
        if difference > largest:
            largest, name_of_largest = difference, name
    return largest, name_of_largest, sorted(set(a) ^ set(b))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--models", nargs="+", choices=list(MODELS), default=["minilm"])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    args = parser.parse_args()
    common.require_data(args.data)

    results = {"machine": common.machine(), "threads": args.threads, "tolerance": TOLERANCE, "rows": []}
    failed = False
    with tempfile.TemporaryDirectory(prefix="bert-parity-") as scratch:
        scratch = Path(scratch)
        for model_name in args.models:
            spec = MODELS[model_name]
            train, validation = common.stratified_split(
                args.data, scratch / model_name, train_limit=args.steps * spec["batch_size"], validation_limit=40)
            folder = common.classifier_folder(model_name, scratch / f"{model_name}-start")
            without_dropout(folder)
            settings = {"max_length": spec["max_length"], "batch_size": spec["batch_size"], "max_steps": args.steps,
                        "lr": 1e-4, "seed": 42, "eval_batch_size": 64, "padding": "dynamic", "warmup_ratio": 0.06,
                        "weight_decay": 0.01, "max_grad_norm": 1.0, "no_shuffle": True}
            database = scratch / f"{model_name}.sqlite"
            common.run_logged([str(common.CLI), "--db", str(database), "train", "--model", str(folder),
                               "--train", str(train), "--validation", str(validation), "--threads",
                               str(args.threads), "--report", str(scratch / "ours.json"), "--eval-every", "0",
                               "--evals-per-epoch", "1", *common.flags(settings)])
            common.run_logged([str(common.CLI), "--db", str(database), "export", "1", str(scratch / f"{model_name}-ours-model"),
                               "--last"])
            common.run_logged([sys.executable, str(HERE / "hf_trainer_run.py"), "--model", str(folder),
                               "--train", str(train), "--validation", str(validation), "--threads",
                               str(args.threads), "--report", str(scratch / "reference.json"), "--output-dir",
                               str(scratch / f"{model_name}-hf-output"), "--save-model", str(scratch / f"{model_name}-reference-model"),
                               *common.flags(settings)])
            ours = json.loads((scratch / "ours.json").read_text())["steps"]
            reference = json.loads((scratch / "reference.json").read_text())["steps"]
            losses = [(o["loss"], r["loss"]) for o, r in zip(ours, reference)]
            loss_difference = max(abs(o - r) for o, r in losses)
            worst_step = max(range(len(losses)), key=lambda i: abs(losses[i][0] - losses[i][1])) + 1
            weight_difference, worst_tensor, unmatched = largest_weight_difference(
                scratch / f"{model_name}-ours-model", scratch / f"{model_name}-reference-model")
            row = {"model": model_name, "steps": len(losses), "steps_ours": len(ours),
                   "steps_reference": len(reference), "settings": settings,
                   "largest_loss_difference": loss_difference, "at_step": worst_step,
                   "first_losses": losses[:3], "last_loss": losses[-1],
                   "largest_weight_difference": weight_difference, "in_tensor": worst_tensor,
                   "tensors_in_one_only": unmatched,
                   "passed": loss_difference <= TOLERANCE and weight_difference <= TOLERANCE
                   and len(ours) == len(reference) == args.steps}
            failed = failed or not row["passed"]
            results["rows"].append(row)
            print(f"{model_name}: {len(losses)} steps; largest loss difference {loss_difference:.2e} (step "
                  f"{worst_step}); largest weight difference {weight_difference:.2e} ({worst_tensor}); "
                  f"{'within' if row['passed'] else 'NOT within'} {TOLERANCE:g}", flush=True)
    # Rows of models not run this time stay, with the commit they were measured at.
    earlier = common.load_result("training_parity") or {"rows": [], "machine": {}}
    ran = {row["model"] for row in results["rows"]}
    def measured_at(machine):
        return f"{machine.get('commit')} ({machine.get('cpu')})"
    for row in results["rows"]:
        row["commit"] = measured_at(results["machine"])
    results["rows"] = [dict(row, commit=row.get("commit") or measured_at(earlier["machine"]))
                       for row in earlier["rows"] if row["model"] not in ran] + results["rows"]
    common.save("training_parity", results)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
