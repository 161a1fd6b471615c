#!/usr/bin/env python3
"""Likely label errors: confident learning finds labels flipped on purpose, and training on the
cleaned file recovers what the flips cost.

The shared e-mails split (stratified, seeded) into a pool and a test set whose labels stay as
they are; in the pool 5% of the labels are flipped (seeded). `bert-studio-cli clean` trains
MiniLM on 5 folds of the pool and ranks the out-of-fold probabilities by confident learning; the
found examples are compared with the flipped ones (precision and recall). Then MiniLM is trained
on the flipped pool and on the cleaned copy (`--cleaned`, the found examples left out) and both
are scored on the test set. Results go to benchmarks/results/label_errors.json;
benchmarks/report.py turns them into docs/benchmarks.md.

Usage: benchmarks/label_errors.sh [--flip 0.05] [--folds 5] [--epochs 2]
"""
import argparse
import csv
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_common as common


def read_rows(path):
    csv.field_size_limit(sys.maxsize)
    with open(path, newline="", encoding="utf-8") as f:
        return [(row["text"], row["label"]) for row in csv.DictReader(f)]


def write_rows(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["text", "label"])
        writer.writerows(rows)


def prepare(data, folder, test_fraction, flip, seed):
    """pool.csv (labels flipped), test.csv (as they are); the flipped rows' lines in pool.csv."""
    rows = read_rows(data)
    rng = random.Random(seed)
    by_label = {}
    for row in rows:
        by_label.setdefault(row[1], []).append(row)
    pool, test = [], []
    for group in by_label.values():
        rng.shuffle(group)
        cut = round(len(group) * test_fraction)
        test += group[:cut]
        pool += group[cut:]
    rng.shuffle(pool)
    labels = sorted(by_label)
    flipped = set(rng.sample(range(len(pool)), round(len(pool) * flip)))
    noisy = [(text, [l for l in labels if l != label][0] if i in flipped else label)
             for i, (text, label) in enumerate(pool)]
    folder.mkdir(parents=True, exist_ok=True)
    write_rows(folder / "pool.csv", noisy)
    write_rows(folder / "test.csv", test)
    # Line numbers as the CLI reports them: the header is line 1; e-mails hold newlines, so
    # they are read back from the file as the CLI reads it.
    with open(folder / "pool.csv", newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        next(reader)
        starts = []
        while True:
            start = reader.line_num + 1
            try:
                next(reader)
            except StopIteration:
                break
            starts.append(start)
    return folder / "pool.csv", folder / "test.csv", {starts[i] for i in flipped}, len(pool)


def train_and_score(model, train, test, args, work, tag):
    database, report = work / f"{tag}.sqlite", work / f"{tag}.json"
    settings = {"max_length": args.max_length, "batch_size": args.batch_size, "epochs": args.epochs,
                "seed": 1, "padding": "unpadded", "group_by_length": True, "lr": args.learning_rate,
                "evals_per_epoch": 1}
    data = common.run_ours(model, train, test, settings, args.threads, report, database)
    last = data["evaluations"][-1]
    return {"accuracy": last["accuracy"], "macro_f1": last["macro_f1"], "seconds": data["seconds"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--flip", type=float, default=0.05)
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--results", default="label_errors")
    args = parser.parse_args()
    common.require_data(args.data)
    model = common.minilm_folder()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        pool, test, flipped, examples = prepare(args.data, work / "data", args.test_fraction, args.flip, seed=7)
        listed, cleaned = work / "issues.csv", work / "pool.cleaned.csv"
        started = time.time()
        command = [str(common.CLI), "--db", str(work / "clean.sqlite"), "clean", "--model", str(model),
                   "--train", str(pool), "--folds", str(args.folds), "--threads", str(args.threads),
                   "--output", str(listed), "--cleaned", str(cleaned), "--show", "0",
                   *common.flags({"max_length": args.max_length, "batch_size": args.batch_size,
                                  "epochs": args.epochs, "seed": 1, "padding": "unpadded",
                                  "group_by_length": True, "lr": args.learning_rate})]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"clean failed ({done.returncode}):\n{done.stderr[-3000:]}")
        clean_seconds = time.time() - started
        print(done.stderr, flush=True)
        with open(listed, newline="", encoding="utf-8") as f:
            found = [int(row["line"]) for row in csv.DictReader(f)]
        hits = len(set(found) & flipped)
        precision = hits / len(found) if found else 0.0
        recall = hits / len(flipped) if flipped else 0.0
        # Precision among the first len(flipped) of the ranking, as a user reads the list top down.
        top = set(found[:len(flipped)])
        top_precision = len(top & flipped) / max(1, len(top))
        print(f"found {len(found)}, flipped {len(flipped)}, right {hits}: precision {precision:.3f}, "
              f"recall {recall:.3f}", flush=True)
        noisy = train_and_score(model, pool, test, args, work, "noisy")
        print(f"trained on the flipped labels: {noisy}", flush=True)
        corrected = train_and_score(model, cleaned, test, args, work, "cleaned")
        print(f"trained on the cleaned file: {corrected}", flush=True)
    common.save(args.results, {
        "machine": common.machine(), "threads": args.threads, "examples": examples, "flip": args.flip,
        "flipped": len(flipped), "folds": args.folds, "max_length": args.max_length,
        "batch_size": args.batch_size, "epochs": args.epochs, "learning_rate": args.learning_rate,
        "found": len(found), "right": hits, "precision": precision, "recall": recall,
        "top_precision": top_precision, "clean_seconds": clean_seconds,
        "noisy": noisy, "cleaned": corrected})


if __name__ == "__main__":
    sys.exit(main())
