#!/usr/bin/env python3
"""Class imbalance: the plain loss against class weighting, focal loss and balanced sampling.

The shared e-mails subsampled to ham:spam 20:1 (training and validation alike, seeded), MiniLM at
128 tokens; four runs a seed from the same weights on the same files, the remedy alternating who
goes first: plain, --class-weighting balanced, --focal-gamma 2, --balanced-sampling. Each run's
last evaluation gives macro-F1 and the rare class's recall and precision (its confusion matrix
from the run store). The tables give the median over the seeds with the spread. Results go to
benchmarks/results/imbalance.json; benchmarks/report.py turns them into docs/benchmarks.md.

Usage: benchmarks/imbalance.sh [--seeds 1 2 3] [--ham 500] [--ratio 20]
"""
import argparse
import csv
import json
import random
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

import bench_common as common

REMEDIES = {
    "plain": {},
    "class weighting": {"class_weighting": "balanced"},
    "focal loss (gamma 2)": {"focal_gamma": 2},
    "balanced sampling": {"balanced_sampling": True},
}


def subsample(data, folder, ham, ratio, seed):
    """train.csv and validation.csv at ham:spam = ratio:1, validation 40% the size of training."""
    csv.field_size_limit(sys.maxsize)
    with open(data, newline="", encoding="utf-8") as f:
        rows = [(row["text"], row["label"]) for row in csv.DictReader(f)]
    rng = random.Random(seed)
    by_label = {label: [r for r in rows if r[1] == label] for label in ("ham", "spam")}
    for group in by_label.values():
        rng.shuffle(group)
    sizes = {"train": ham, "validation": ham * 2 // 5}
    folder.mkdir(parents=True, exist_ok=True)
    paths, taken = [], {"ham": 0, "spam": 0}
    for name, size in sizes.items():
        part = []
        for label, count in (("ham", size), ("spam", max(1, size // ratio))):
            part += by_label[label][taken[label]:taken[label] + count]
            taken[label] += count
        rng.shuffle(part)
        with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["text", "label"])
            writer.writerows(part)
        paths.append(folder / f"{name}.csv")
    return paths


def run_once(model, train, validation, remedy, seed, args, work):
    tag = f"{remedy.split()[0]}-{seed}"
    database, report = work / f"{tag}.sqlite", work / f"{tag}.json"
    settings = {"max_length": args.max_length, "batch_size": args.batch_size, "epochs": args.epochs, "seed": seed,
                "padding": "unpadded", "group_by_length": True, "lr": args.learning_rate, "evals_per_epoch": 1,
                **REMEDIES[remedy]}
    data = common.run_ours(model, train, validation, settings, args.threads, report, database)
    with sqlite3.connect(database) as db:
        confusion = json.loads(db.execute(
            "SELECT confusion_json FROM evaluations WHERE run_id = 1 ORDER BY step DESC LIMIT 1").fetchone()[0])
        labels = json.loads(db.execute("SELECT labels_json FROM runs WHERE id = 1").fetchone()[0])
    spam = labels.index("spam")
    found = confusion[spam][spam]
    recall = found / max(1, sum(confusion[spam]))
    predicted = sum(row[spam] for row in confusion)
    precision = found / predicted if predicted else 0.0
    last = data["evaluations"][-1]
    return {"macro_f1": last["macro_f1"], "accuracy": last["accuracy"], "spam_recall": recall,
            "spam_precision": precision, "seconds": data["seconds"]}


def summary(values):
    return {"median": statistics.median(values), "low": min(values), "high": max(values), "values": values}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--ham", type=int, default=500, help="ham e-mails in training")
    parser.add_argument("--ratio", type=int, default=20, help="ham per spam e-mail")
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--results", default="imbalance")
    args = parser.parse_args()
    common.require_data(args.data)
    model = common.minilm_folder()
    runs = {name: [] for name in REMEDIES}
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        train, validation = subsample(args.data, work / "data", args.ham, args.ratio, seed=5)
        for index, seed in enumerate(args.seeds):
            order = list(REMEDIES)
            order = order[index % len(order):] + order[:index % len(order)]
            for remedy in order:
                figures = run_once(model, train, validation, remedy, seed, args, work)
                print(f"seed {seed} {remedy}: {figures}", flush=True)
                runs[remedy].append(figures)
    rows = [{"remedy": name, "settings": REMEDIES[name],
             **{key: summary([run[key] for run in runs[name]]) for key in runs[name][0]}} for name in REMEDIES]
    common.save(args.results, {"machine": common.machine(), "threads": args.threads, "ham": args.ham,
                               "ratio": args.ratio, "max_length": args.max_length, "batch_size": args.batch_size,
                               "epochs": args.epochs, "learning_rate": args.learning_rate, "seeds": args.seeds,
                               "rows": rows})


if __name__ == "__main__":
    sys.exit(main())
