#!/usr/bin/env python3
"""Time to the first step (issue 14, point 8): from `bert-studio-cli train` to the first step's
metrics, and from the studio's Start to the first point drawn on its charts.

Command line: the bundled MiniLM, default settings, with and without the trial step, on the
3,000 e-mails at 128 tokens and on a large corpus (the e-mails repeated to 99,000 examples, each
copy made distinct by a number, at 512 tokens; 200 validation examples so that the run's final
evaluation stays short). Figures from `train --report`: first_step_seconds (from the command's
start) and its parts, the preparation (model, data, tokenizing, the run's record) and the trial
step. Studio: the UI test Studio.StartToTheFirstChartPointWithAndWithoutTheTrialStep (MiniLM, the
3,000 e-mails), which prints its figures. Best of REPEATS each. Results go to
benchmarks/results/first_step.json.

Usage: benchmarks/first_step.sh [--repeats 3]
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import bench_common as common

LARGE_COPIES = 33  # 3,000 e-mails x 33 = 99,000 examples
UI_TESTS = common.ROOT / "build" / "release" / "tests" / "bert_ui_tests"


def large_corpus(data, folder):
    """The corpus repeated, each copy's texts ending in its number (so no two examples are equal),
    and 200 validation examples of the original."""
    csv.field_size_limit(sys.maxsize)
    with open(data, newline="", encoding="utf-8") as f:
        rows = [(row["text"], row["label"]) for row in csv.DictReader(f)]
    train, validation = Path(folder) / "large.csv", Path(folder) / "validation.csv"
    with open(train, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["text", "label"])
        for copy in range(LARGE_COPIES):
            writer.writerows((f"{text} {copy}" if copy else text, label) for text, label in rows)
    with open(validation, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["text", "label"])
        writer.writerows(rows[::15])
    return train, validation


def command_line(train, extra, scratch, repeats):
    best = None
    for _ in range(repeats):
        report = scratch / "report.json"
        common.run_logged([str(common.CLI), "--db", str(scratch / "runs.sqlite"), "train", "--train", str(train),
                           "--no-checkpoints", "--max-steps", "1", "--evals-per-epoch", "1", "--report",
                           str(report), *extra])
        figures = json.loads(report.read_text())
        run = {"first_step_seconds": figures["first_step_seconds"],
               "preparation_seconds": figures["preparation_seconds"], "trial_seconds": figures["trial_seconds"],
               "step_seconds": figures["steps"][0]["end_seconds"]}
        if best is None or run["first_step_seconds"] < best["first_step_seconds"]:
            best = run
    return best


def studio(repeats):
    """The UI test's printed figures, best of repeats: {"on": (arrived, drawn), "off": (...)}."""
    best = {}
    pattern = re.compile(r"trial step (on|off): Start to the first step at the charts ([0-9.]+) s, drawn ([0-9.]+) s")
    for _ in range(repeats):
        done = subprocess.run([str(UI_TESTS), "--gtest_filter=Studio.StartToTheFirstChartPoint*"],
                              capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        found = pattern.findall(done.stdout)
        if done.returncode != 0 or len(found) != 2:
            sys.exit(f"the studio's first-point test failed or printed nothing:\n{done.stdout[-3000:]}")
        for trial, arrived, drawn in found:
            if trial not in best or float(drawn) < best[trial]["drawn_seconds"]:
                best[trial] = {"arrived_seconds": float(arrived), "drawn_seconds": float(drawn)}
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    common.require_data(args.data)
    results = {"machine": common.machine(), "repeats": args.repeats, "rows": []}
    with tempfile.TemporaryDirectory(prefix="bert-first-step-") as scratch:
        scratch = Path(scratch)
        large, large_validation = large_corpus(args.data, scratch)
        cases = [("command line, 3,000 e-mails at 128 tokens", Path(args.data), ["--max-length", "128"]),
                 ("command line, 99,000 e-mails at 512 tokens", large,
                  ["--max-length", "512", "--validation", str(large_validation)])]
        for name, train, extra in cases:
            for trial in (True, False):
                figures = command_line(train, extra + ([] if trial else ["--no-trial-step"]), scratch, args.repeats)
                results["rows"].append({"name": name, "trial_step": trial, **figures})
                print(f"{name}, trial step {'on' if trial else 'off'}: first step after "
                      f"{figures['first_step_seconds']:.2f} s (preparation {figures['preparation_seconds']:.2f} s, "
                      f"trial {figures['trial_seconds']:.2f} s, step {figures['step_seconds']:.2f} s)", flush=True)
    for trial, figures in sorted(studio(args.repeats).items(), reverse=True):
        results["rows"].append({"name": "studio, Start to the first chart point, 3,000 e-mails at 128 tokens",
                                "trial_step": trial == "on", "first_step_seconds": figures["drawn_seconds"],
                                "arrived_seconds": figures["arrived_seconds"]})
        print(f"studio, trial step {trial}: first point drawn after {figures['drawn_seconds']:.2f} s", flush=True)
    common.save("first_step", results)


if __name__ == "__main__":
    main()
