#!/usr/bin/env python3
"""Calibration: the expected calibration error before and after temperature scaling.

The shared e-mails, stratified into training, validation and a held-out test set (the
validation half of the split, halved again per label). Each run trains with
--temperature-scaling, which fits the temperature on the validation set at every evaluation;
`predict --run --file test.csv` then gives the test set's probabilities at the served
evaluation's temperature, and the same probabilities without it (their log times the
temperature, softmaxed again: dividing logits by T is undone by multiplying log-probabilities
by T). The ECE is Guo et al.'s (15 bins, as tests/parity/calibration.py computes it), on the
test set, which the temperature never saw; the validation ECE the run stored is given beside.
MiniLM (pretrained) and ModernBERT's shape (random weights: the cost of the architecture, not a
checkpoint), three seeds each; the tables give the median with the spread. Results go to
benchmarks/results/calibration.json; benchmarks/report.py turns them into docs/benchmarks.md.

Usage: benchmarks/calibration.sh [--seeds 1 2 3] [--train-limit 800] [--validation-limit 600]
"""
import argparse
import csv
import json
import math
import random
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

import bench_common as common

BINS = 15


def ece(probabilities, labels):
    """Guo et al.'s expected calibration error: top-label confidence in 15 bins (lower, upper]."""
    total = len(labels)
    bins = [[0, 0.0, 0] for _ in range(BINS)]  # count, confidence sum, right
    for p, label in zip(probabilities, labels):
        confidence = max(p)
        predicted = p.index(confidence)
        b = min(BINS - 1, max(0, math.ceil(confidence * BINS) - 1))
        bins[b][0] += 1
        bins[b][1] += confidence
        bins[b][2] += predicted == label
    return sum(abs(s / c - r / c) * c / total for c, s, r in bins if c)


def split_half(validation, folder, seed):
    """validation.csv -> fit.csv and test.csv, half of each label each."""
    with open(validation, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    by_label = {}
    for row in rows:
        by_label.setdefault(row[1], []).append(row)
    rng = random.Random(seed)
    fit, test = [], []
    for label in sorted(by_label):
        group = by_label[label]
        rng.shuffle(group)
        fit += group[: len(group) // 2]
        test += group[len(group) // 2:]
    paths = []
    for name, part in (("fit.csv", fit), ("test.csv", test)):
        with open(folder / name, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows(part)
        paths.append(folder / name)
    return paths


def run_once(model, train, fit, test, seed, args, work):
    database = work / f"{model.name}-{seed}.sqlite"
    report = work / f"{model.name}-{seed}.json"
    settings = {"max_length": args.max_length, "batch_size": args.batch_size, "epochs": args.epochs,
                "seed": seed, "padding": "unpadded", "group_by_length": True, "lr": args.learning_rate,
                "evals_per_epoch": 1, "temperature_scaling": True, "threads": args.threads}
    common.run_logged([str(common.CLI), "--db", str(database), "train", "--model", str(model), "--train",
                       str(train), "--validation", str(fit), "--report", str(report),
                       *common.flags(settings)])
    output = work / f"{model.name}-{seed}-test.csv"
    common.run_logged([str(common.CLI), "--db", str(database), "predict", "--run", "1", "--file", str(test),
                       "--label-column", "label", "--output", str(output), "--threads", str(args.threads)])
    # The temperature predict applied: the served evaluation's, as the run's export carries it.
    exported = work / f"{model.name}-{seed}-export"
    common.run_logged([str(common.CLI), "--db", str(database), "export", "1", str(exported)])
    task = json.loads((exported / "config.json").read_text())["bert_studio_task"]
    temperature = task.get("temperature", 1.0)
    with sqlite3.connect(database) as db:
        stored = [json.loads(text) for (text,) in
                  db.execute("SELECT calibration_json FROM evaluations WHERE run_id = 1 ORDER BY step")]
    served = min(stored, key=lambda c: abs((c["temperature"] or 1.0) - temperature))
    labels, scaled = [], []
    with open(output, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        names = [c[2:] for c in reader.fieldnames if c.startswith("p_")]
        for row in reader:
            labels.append(names.index(row["label"]))
            scaled.append([float(row["p_" + n]) for n in names])
    plain = []
    for p in scaled:
        logits = [temperature * math.log(max(v, 1e-300)) for v in p]
        top = max(logits)
        exp = [math.exp(v - top) for v in logits]
        plain.append([v / sum(exp) for v in exp])
    right = sum(p.index(max(p)) == label for p, label in zip(scaled, labels))
    return {"temperature": temperature, "test_ece": ece(plain, labels), "test_calibrated_ece": ece(scaled, labels),
            "validation_ece": served["ece"], "validation_calibrated_ece": served.get("calibrated_ece"),
            "test_accuracy": right / len(labels), "test_examples": len(labels)}


def summary(values):
    values = [v for v in values if v is not None]
    return {"median": statistics.median(values), "low": min(values), "high": max(values), "values": values}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--models", nargs="+", default=["minilm", "modernbert-small"])
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--train-limit", type=int, default=800)
    parser.add_argument("--validation-limit", type=int, default=600)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--results", default="calibration")
    args = parser.parse_args()
    common.require_data(args.data)
    rows = []
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        train, validation = common.stratified_split(args.data, work / "data", train_limit=args.train_limit,
                                                    validation_limit=args.validation_limit)
        fit, test = split_half(validation, work / "data", seed=7)
        for kind in args.models:
            model = common.minilm_folder() if kind == "minilm" else common.classifier_folder(kind, work / kind)
            runs = []
            for seed in args.seeds:
                figures = run_once(model, train, fit, test, seed, args, work)
                print(f"{kind} seed {seed}: {figures}", flush=True)
                runs.append(figures)
            row = {"model": kind}
            for key in runs[0]:
                row[key] = summary([run[key] for run in runs])
            rows.append(row)
    common.save(args.results, {"machine": common.machine(), "threads": args.threads, "max_length": args.max_length,
                               "batch_size": args.batch_size, "epochs": args.epochs,
                               "learning_rate": args.learning_rate, "seeds": args.seeds,
                               "train_limit": args.train_limit, "validation_limit": args.validation_limit,
                               "bins": BINS, "rows": rows})


if __name__ == "__main__":
    sys.exit(main())
