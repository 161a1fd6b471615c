#!/usr/bin/env python3
"""Texts longer than the max length: truncate, head+tail and windows side by side.

The shared e-mails at a short max length (MiniLM at 128 tokens: most e-mails are longer), one
run per strategy and seed from the same starting weights on the same stratified files, the
strategies alternating within each seed. Each run is `bert-studio-cli train --report`; the
figures are read from its report: the document-level accuracy and macro F1 of the last
evaluation (windows are pooled per document before scoring, so every strategy is scored on the
same documents), the examples trained on (windows count as examples), the run's seconds per
epoch (training and evaluation) and the process's peak resident memory. The tables give the
median over the seeds with the spread (lowest to highest). Results go to
benchmarks/results/long_text.json; benchmarks/report.py turns them into docs/benchmarks.md.

Usage: benchmarks/long_text.sh [--seeds 1 2 3] [--max-length 128] [--train-limit N]
                               [--validation-limit N] [--quick]
"""
import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import bench_common as common

# Strategy name -> the run's flags. head-tail keeps a quarter of the room for the head (Sun et
# al. 2019 kept 128 of 510); windows overlap by a quarter of a window, the run's default pooling.
STRATEGIES = {
    "truncate": lambda room: {"long_text": "truncate"},
    "head-tail": lambda room: {"long_text": "head-tail", "head_tokens": room // 4},
    "windows": lambda room: {"long_text": "windows", "window_stride": room // 4},
}


def run_once(model, train, validation, strategy, settings, args, work):
    report = work / f"{strategy}-{args.seed_now}.json"
    database = work / f"{strategy}-{args.seed_now}.sqlite"
    shared = {"max_length": args.max_length, "batch_size": args.batch_size, "epochs": args.epochs,
              "seed": args.seed_now, "padding": "unpadded", "group_by_length": True,
              "lr": args.learning_rate}
    if args.quick:
        shared["max_steps"] = 3
    data = common.run_ours(model, train, validation, {**shared, **settings}, args.threads, report, database)
    last = data["evaluations"][-1]
    return {
        "accuracy": last["accuracy"],
        "macro_f1": last["macro_f1"],
        "train_examples": data["train_examples"],
        "seconds_per_epoch": data["seconds"] / args.epochs,
        "peak_resident_mib": data["peak_resident_process_bytes"] / common.MIB,
    }


def summary(values):
    return {"median": statistics.median(values), "low": min(values), "high": max(values),
            "values": values}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--train-limit", type=int, default=None, help="training e-mails (default: 80%%)")
    parser.add_argument("--validation-limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--results", default="long_text")
    parser.add_argument("--quick", action="store_true", help="3 steps a run, to check the harness")
    args = parser.parse_args()
    common.require_data(args.data)
    model = common.minilm_folder()
    room = args.max_length - 2  # MiniLM's [CLS] and [SEP]
    runs = {name: [] for name in STRATEGIES}
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        train, validation = common.stratified_split(args.data, work / "data", train_limit=args.train_limit,
                                                    validation_limit=args.validation_limit)
        for index, seed in enumerate(args.seeds):
            args.seed_now = seed
            order = list(STRATEGIES)
            order = order[index % len(order):] + order[:index % len(order)]  # alternate who goes first
            for name in order:
                figures = run_once(model, train, validation, name, STRATEGIES[name](room), args, work)
                print(f"seed {seed} {name}: {figures}", flush=True)
                runs[name].append(figures)
    rows = []
    for name, settings in STRATEGIES.items():
        row = {"strategy": name, "settings": settings(room)}
        for key in ("accuracy", "macro_f1", "train_examples", "seconds_per_epoch", "peak_resident_mib"):
            row[key] = summary([run[key] for run in runs[name]])
        rows.append(row)
    payload = {"machine": common.machine(), "threads": args.threads, "max_length": args.max_length,
               "batch_size": args.batch_size, "epochs": args.epochs, "learning_rate": args.learning_rate,
               "seeds": args.seeds, "train_limit": args.train_limit, "validation_limit": args.validation_limit,
               "quick": args.quick, "rows": rows}
    if not args.quick:
        common.save(args.results, payload)
    else:
        print(payload)


if __name__ == "__main__":
    sys.exit(main())
