#!/usr/bin/env python3
"""Side by side with Hugging Face Trainer (issue 5, point 1; issue 14, point 6).

Cases: a corpus at a max length, with a model. The e-mails at 512 tokens, where fixed padding
wastes much (MiniLM and BERT-base); the e-mails' subject lines (the text before the first " . ")
at 128 tokens, where fixed padding is mostly pad. In each case seven runs on this machine, one after
the other, from the same starting weights on the same files:
  - Trainer's defaults: fixed padding to max length, fp32;
  - Trainer's best: dynamic padding, group_by_length, bf16 where the CPU runs it natively;
  - ours at each of those settings (the equal rows);
  - ours at our best: unpadded batches, length grouping, bf16 likewise; nothing frozen;
  - the same with frozen embeddings and the frozen-prefix cache (the cache is exact only over a
    frozen prefix), and training only the upper half of the encoder (lower layers frozen, cached):
    the two rows that change what trains, and their titles say so.
The machine is shared and noisy (the same pair measured 0.62x and 1.32x an hour apart), so each
case runs its seven runs --repeats times (3 by default), alternating which side goes first, and the
tables give the median and the spread (lowest to highest) of each figure and of each ratio, the
ratio taken within a repeat. The ModernBERT-base cases set the modern encoder beside BERT-base
(same vocabulary, random weights: the cost of the architecture, not of a checkpoint).
Each side writes a report of the same form (ours: `bert-studio-cli train --report`; the reference:
hf_trainer_run.py) from which samples/s after the warm-up steps, real tokens/s, padding, model FLOP
utilisation and process memory are read the same way. Short-text cases train two epochs, so that
the cache has a second epoch to skip work in. Results go to benchmarks/results/side_by_side.json;
benchmarks/report.py turns them into docs/benchmarks.md.

The task cases (issue 29, point 7) run MiniLM on the sets scripts/derive_task_sets.py derives
from the e-mails (multi-label, regression, token classification: the same files, flags and start
folders as training_parity.py), each through transformers' matching class and problem_type; their
rows give the validation loss, as the two sides compute no common metric for them.

--rows best runs only what "ours at our best against Trainer's best" needs (two runs a repeat, not
seven); --results names the results file, so that a set of cases measured on another day (or
machine) keeps its own machine line and GEMM peak.

Usage: benchmarks/side_by_side.sh [--cases emails-512-minilm ...] [--repeats 3] [--rows all|best]
                                  [--results side_by_side] [--quick]
"""
import argparse
import csv
import json
import statistics
import sys
import tempfile
from pathlib import Path

import bench_common as common
import training_parity

HERE = Path(__file__).resolve().parent

# Case: corpus, max length, model, training examples (None: the whole 80% split), validation
# examples, micro-batch, epochs. BERT-base is about 8x MiniLM's compute: it trains on subsets.
CASES = {
    "emails-512-minilm": {"corpus": "emails", "max_length": 512, "model": "minilm", "train_limit": 160,
                          "validation_limit": 100, "batch_size": 8, "epochs": 1},
    "emails-512-bert-base": {"corpus": "emails", "max_length": 512, "model": "bert-base", "train_limit": 96,
                             "validation_limit": 100, "batch_size": 8, "epochs": 1},
    "subjects-128-minilm": {"corpus": "subjects", "max_length": 128, "model": "minilm", "train_limit": None,
                            "validation_limit": 200, "batch_size": 16, "epochs": 2},
    "subjects-128-bert-base": {"corpus": "subjects", "max_length": 128, "model": "bert-base", "train_limit": 240,
                               "validation_limit": 200, "batch_size": 16, "epochs": 2},
    "emails-512-modernbert-base": {"corpus": "emails", "max_length": 512, "model": "modernbert-base",
                                   "train_limit": 96, "validation_limit": 100, "batch_size": 8, "epochs": 1},
    "subjects-128-modernbert-base": {"corpus": "subjects", "max_length": 128, "model": "modernbert-base",
                                     "train_limit": 240, "validation_limit": 200, "batch_size": 16, "epochs": 2},
}
# The families of the second set in their base shapes, on the same subsets as BERT-base.
for _model in ("deberta-v3-base", "mpnet-base"):
    CASES[f"emails-512-{_model}"] = {**CASES["emails-512-bert-base"], "model": _model}
    CASES[f"subjects-128-{_model}"] = {**CASES["subjects-128-bert-base"], "model": _model}
# Task cases: the derived set of a task (its first train_limit examples after a seeded shuffle, then
# training_parity's 40 validation examples), MiniLM's encoder with the task's head.
for _task in ("multi-label", "regression", "token-classification"):
    CASES[f"{_task}-128-minilm"] = {"corpus": "emails", "task": _task, "max_length": 128, "model": "minilm",
                                    "train_limit": 480, "batch_size": 16, "epochs": 1}
CORPUS_NAMES = {"emails": "e-mails", "subjects": "subject lines"}

FP32 = {"padding": "fixed"}
TRAINER_BEST = {"padding": "dynamic", "group_by_length": True, "precision": "bf16"}
OUR_BEST = {"padding": "unpadded", "group_by_length": True, "precision": "bf16"}
# The frozen-prefix cache is exact only over a frozen prefix: these rows freeze, and say so.
OUR_BEST_FROZEN = {**OUR_BEST, "freeze_embeddings": True, "cache_frozen_prefix": True}

# Rows: title, ours' run, the reference's run. Runs are named, so each runs once.
ROWS = [
    ("equal: Trainer's defaults (fixed padding, fp32)", "ours-defaults", "trainer-defaults"),
    ("equal: Trainer's best (dynamic padding, length grouping, bf16)", "ours-trainer-best", "trainer-best"),
    ("ours at our best against Trainer's defaults", "ours-best", "trainer-defaults"),
    ("ours at our best against Trainer's best", "ours-best", "trainer-best"),
    ("ours at our best, embeddings frozen (cached), against Trainer's best", "ours-best-frozen-embeddings",
     "trainer-best"),
    ("ours training the upper half (embeddings and lower layers frozen, cached) against Trainer's best",
     "ours-upper-half", "trainer-best"),
]
OUR_RUNS = {"ours-defaults": FP32, "ours-trainer-best": TRAINER_BEST, "ours-best": OUR_BEST,
            "ours-best-frozen-embeddings": OUR_BEST_FROZEN,
            "ours-upper-half": {**OUR_BEST_FROZEN, "freeze_layers": "half"}}
REFERENCE_RUNS = {"trainer-defaults": FP32, "trainer-best": TRAINER_BEST}
# --rows: every row, or only ours at our best against Trainer's best.
ROW_SETS = {"all": [title for title, _, _ in ROWS], "best": ["ours at our best against Trainer's best"]}


def subject_lines(data, folder):
    """The corpus with each e-mail's text cut to its subject line (before the first " . ")."""
    csv.field_size_limit(sys.maxsize)
    target = Path(folder) / "subjects.csv"
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(data, newline="", encoding="utf-8") as f, open(target, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["text", "label"])
        for row in csv.DictReader(f):
            writer.writerow([row["text"].split(" . ", 1)[0], row["label"]])
    return target


def count_examples(train):
    """Examples in a training file: CSV rows, or CoNLL sentences."""
    if Path(train).suffix == ".conll":
        return len(training_parity.read_conll(train))
    with open(train, newline="", encoding="utf-8") as f:
        return sum(1 for _ in csv.DictReader(f))


def word_lengths(train_conll, max_length):
    """token_lengths of a CoNLL file: sentences encoded as split words, as both sides do."""
    from transformers import AutoTokenizer
    tokenizer = AutoTokenizer.from_pretrained(str(common.tokenizer_folder()))
    sentences = [[word for word, _ in sentence] for sentence in training_parity.read_conll(train_conll)]
    return [len(ids) for ids in tokenizer(sentences, is_split_into_words=True, truncation=True,
                                          max_length=max_length)["input_ids"]]


def run_reference(model, train, validation, settings, threads, report, output_dir, extra=()):
    command = [sys.executable, str(HERE / "hf_trainer_run.py"), "--model", str(model), "--train", str(train),
               "--validation", str(validation), "--threads", str(threads), "--report", str(report),
               "--output-dir", str(output_dir), *common.flags(settings), *extra]
    common.run_logged(command)
    return json.loads(Path(report).read_text())


def median_figures(runs):
    """The median of every numeric figure over a run's repeats, with the spread of samples/s."""
    result = {}
    for key, value in runs[0].items():
        values = [run[key] for run in runs if run.get(key) is not None]
        result[key] = statistics.median(values) if isinstance(value, (int, float)) and values else value
    speeds = [run["samples_per_second"] for run in runs]
    result["samples_per_second_spread"] = [min(speeds), max(speeds)]
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=str(common.DEFAULT_DATA))
    # Section 1's cases by default; the ModernBERT and task cases go to results files of their own.
    parser.add_argument("--cases", nargs="+", choices=list(CASES),
                        default=["emails-512-minilm", "emails-512-bert-base", "subjects-128-minilm",
                                 "subjects-128-bert-base"])
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side per case, alternating")
    parser.add_argument("--rows", choices=list(ROW_SETS), default="all",
                        help="every row, or only ours at our best against Trainer's best (two runs a repeat)")
    parser.add_argument("--results", default="side_by_side", help="results file name under benchmarks/results")
    parser.add_argument("--quick", action="store_true", help="a few steps only, to check the harness")
    args = parser.parse_args()
    rows = [row for row in ROWS if row[0] in ROW_SETS[args.rows]]
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
        corpora = {"emails": Path(args.data), "subjects": subject_lines(args.data, scratch)}
        for case_name in args.cases:
            case = CASES[case_name]
            model_name = case["model"]
            task = case.get("task", "single-label")
            if task == "single-label":
                train, validation = common.stratified_split(
                    corpora[case["corpus"]], scratch / case_name, train_limit=case["train_limit"],
                    validation_limit=case["validation_limit"])
                our_flags, reference_flags = [], []
                folder = common.classifier_folder(model_name, scratch / f"{case_name}-start")
            else:
                train, validation, labels, our_flags, reference_flags, head, problem_type = training_parity.task_data(
                    task, args.data, scratch / case_name, case["train_limit"])
                folder = common.classifier_folder(model_name, scratch / f"{case_name}-start", labels=len(labels),
                                                  label_names=labels, head=head, problem_type=problem_type,
                                                  keep_label_order=task == "token-classification")
            examples = count_examples(train)
            per_epoch = -(-examples // case["batch_size"])
            steps = 6 if args.quick else per_epoch * case["epochs"]
            shared = {"max_length": case["max_length"], "batch_size": case["batch_size"], "max_steps": steps,
                      "lr": 1e-4, "seed": 42, "eval_batch_size": 64}
            config = json.loads((folder / "config.json").read_text())
            layers = config["num_hidden_layers"]
            lengths = (common.token_lengths(train, case["max_length"]) if task != "token-classification"
                       else word_lengths(train, case["max_length"]))
            mean_length = sum(lengths) / len(lengths)
            mean_square = sum(n * n for n in lengths) / len(lengths)
            attended_keys = common.keys_per_token(lengths, config)
            needed = {name for title, ours, reference in rows for name in (ours, reference)}

            def run_reference_named(name):
                report = run_reference(folder, train, validation, {**shared, **REFERENCE_RUNS[name]}, args.threads,
                                       scratch / f"{name}.json", scratch / "hf-output", reference_flags)
                return {"settings": REFERENCE_RUNS[name], "figures": common.figures(report),
                        "engine": report["engine"], "frozen_layers": 0, "cached": False}

            def run_ours_named(name):
                settings = {**OUR_RUNS[name]}
                if settings.get("freeze_layers") == "half":
                    settings["freeze_layers"] = layers // 2
                # Evaluations once an epoch (not four times): throughput leaves out the steps
                # after them, and fewer of them means more steps timed.
                report = common.run_ours(folder, train, validation, {**shared, **settings}, args.threads,
                                         scratch / f"{name}.json", scratch / "runs.sqlite",
                                         extra=("--evals-per-epoch", "1", "--epochs", str(case["epochs"]), *our_flags))
                return {"settings": settings, "figures": common.figures(report), "engine": "ours",
                        "frozen_layers": settings.get("freeze_layers", 0),
                        "cached": bool(settings.get("cache_frozen_prefix"))}

            # Every repeat runs each of the seven once, the two sides taking turns, and the side that
            # starts alternates between repeats: a slow stretch of the machine falls on both.
            repeats = [{} for _ in range(max(1, args.repeats))]
            ours_names = [name for name in OUR_RUNS if name in needed]
            reference_names = [name for name in REFERENCE_RUNS if name in needed]
            for index, runs in enumerate(repeats):
                order = []
                for i in range(max(len(ours_names), len(reference_names))):
                    pair = [("ours", ours_names[i]) if i < len(ours_names) else None,
                            ("reference", reference_names[i]) if i < len(reference_names) else None]
                    order += [step for step in (pair if index % 2 else pair[::-1]) if step]
                for side, name in order:
                    runs[name] = run_ours_named(name) if side == "ours" else run_reference_named(name)
            for runs in repeats:
                for name, run in runs.items():
                    precision = run["settings"].get("precision", "fp32")
                    share = 1.0 / case["epochs"] if run["cached"] else 1.0
                    flops = common.training_flops_per_real_token(config, mean_length, mean_square,
                                                                 run["frozen_layers"], frozen_forward_share=share,
                                                                 attended_keys=attended_keys)
                    run["figures"]["flops_per_real_token"] = flops
                    run["figures"]["mfu"] = common.model_flop_utilisation(run["figures"]["tokens_per_second"], flops,
                                                                          peaks[precision])
            for title, ours_name, reference_name in rows:
                o = median_figures([runs[ours_name]["figures"] for runs in repeats])
                r = median_figures([runs[reference_name]["figures"] for runs in repeats])
                ratios = [runs[ours_name]["figures"]["samples_per_second"]
                          / runs[reference_name]["figures"]["samples_per_second"] for runs in repeats]
                first = repeats[0]
                row = {"case": case_name, "task": task, "corpus": CORPUS_NAMES[case["corpus"]],
                       "max_length": case["max_length"],
                       "model": model_name, "setting": title, "train_examples": examples, "steps": steps,
                       "epochs": case["epochs"], "shared": shared, "ours_settings": first[ours_name]["settings"],
                       "reference_settings": first[reference_name]["settings"], "ours": o, "reference": r,
                       "reference_engine": first[reference_name]["engine"], "repeats": len(repeats),
                       "throughput_ratio": statistics.median(ratios),
                       "throughput_ratio_spread": [min(ratios), max(ratios)],
                       "training_memory_ratio": o["training_growth_mib"] / r["training_growth_mib"],
                       "process_memory_ratio": o["peak_resident_mib"] / r["peak_resident_mib"]}
                results["rows"].append(row)
                print(f"{case_name:28} {title[:60]:60} samples/s {o['samples_per_second']:7.2f} vs "
                      f"{r['samples_per_second']:7.2f} ({row['throughput_ratio']:.2f}x, "
                      f"{min(ratios):.2f}-{max(ratios):.2f}); MFU {o['mfu']:.1%} vs "
                      f"{r['mfu']:.1%}; training memory {o['training_growth_mib']:6.0f} vs "
                      f"{r['training_growth_mib']:6.0f} MiB; validation loss {o['validation_loss']:.4f} vs "
                      f"{r['validation_loss']:.4f}", flush=True)
    # Cases not run this time keep their rows (each names the repeats it had; none: one run).
    name = args.results + ("-quick" if args.quick else "")
    earlier = common.load_result(name) or {"rows": []}
    ran = {row["case"] for row in results["rows"]}
    results["rows"] = [row for row in earlier["rows"] if row["case"] not in ran] + results["rows"]
    common.save(name, results)


if __name__ == "__main__":
    main()
