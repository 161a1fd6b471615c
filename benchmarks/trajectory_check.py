#!/usr/bin/env python3
"""Do both sides follow the same trajectory in bf16 too, where section 1e's runs end far apart?

Section 1e's side-by-side runs shuffle and drop out with each side's own random stream, so from
random weights at learning rate 1e-4 without warm-up (the loss jumps to 7 and back within 12
steps) the two sides can end on opposite sides of the class split. This check removes those two
differences (the file's own order, dropout off) and trains the same 12 steps of the e-mails at
512 tokens on both sides in fp32 and in bf16 (dynamic padding; ours also unpadded), printing each
step's loss and the largest difference per setting: the figures that show the runs' endings are
chance, not a difference of the engines.

Usage: ~/.local/share/bert-studio/venv/bin/python benchmarks/trajectory_check.py [modernbert-base|bert-base|...]
"""
import sys
import tempfile
from pathlib import Path

import bench_common as common
import side_by_side
import training_parity


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else "modernbert-small"
    with tempfile.TemporaryDirectory(prefix="bert-trajectory-") as scratch:
        scratch = Path(scratch)
        train, validation = common.stratified_split(common.DEFAULT_DATA, scratch / "split", train_limit=96,
                                                    validation_limit=100)
        folder = common.classifier_folder(kind, scratch / "start")
        training_parity.without_dropout(folder)
        shared = {"max_length": 512, "batch_size": 8, "max_steps": 12, "lr": 1e-4, "seed": 42,
                  "eval_batch_size": 64, "weight_decay": 0.01, "max_grad_norm": 1.0, "no_shuffle": True}
        reference = {}
        for name, settings in [("fp32, dynamic padding", {"padding": "dynamic"}),
                               ("bf16, dynamic padding", {"padding": "dynamic", "precision": "bf16"}),
                               ("bf16, ours unpadded", {"padding": "unpadded", "precision": "bf16"})]:
            ours = common.run_ours(folder, train, validation, {**shared, **settings}, 2, scratch / "ours.json",
                                   scratch / "runs.sqlite", extra=("--evals-per-epoch", "1", "--epochs", "1"))
            precision = settings.get("precision", "fp32")
            if precision not in reference:  # Trainer pads dynamically either way
                reference[precision] = side_by_side.run_reference(
                    folder, train, validation, {**shared, **settings, "padding": "dynamic"}, 2,
                    scratch / "reference.json", scratch / "hf-output")
            theirs = reference[precision]
            ours_losses = [step["loss"] for step in ours["steps"]]
            their_losses = [step["loss"] for step in theirs["steps"]]
            largest = max(abs(a - b) for a, b in zip(ours_losses, their_losses))
            print(f"{kind} {name}: largest step loss difference {largest:.2e}; validation loss "
                  f"{ours['evaluations'][-1]['loss']:.4f} ours, {theirs['evaluations'][-1]['loss']:.4f} Trainer",
                  flush=True)
            print("  ours    " + " ".join(f"{x:.4f}" for x in ours_losses))
            print("  Trainer " + " ".join(f"{x:.4f}" for x in their_losses), flush=True)


if __name__ == "__main__":
    main()
