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

Each task of issue 29 is compared the same way (--tasks), through transformers' matching class:
single-label (the spam label, the default), multi-label (the labels column of
scripts/derive_task_sets.py's multilabel.csv, separated by ';': AutoModelForSequenceClassification
with problem_type multi_label_classification, BCE with logits, the mean over examples x labels),
regression (its regression.csv's log_body_length, unstandardised: problem_type regression,
num_labels 1, MSE) and token-classification (its ner.conll: AutoModelForTokenClassification, only
a word's first sub-word tagged as run_ner.py tags it, the mean over tagged tokens). The start
folder carries the task's head and names the labels in the order our engine numbers them
(multi-label sorted by bytes, tags "O" then B- and I- per type sorted), so that ours keeps that
head and Trainer reads the same ids; ours also gets the validation file, so both use one split.

Usage: benchmarks/training_parity.sh [--models minilm bert-base roberta-small modernbert-small distilbert-small
                                              electra-small mpnet-small deberta-v3-small eurobert-small]
                                     [--steps 50]
                                     [--tasks single-label multi-label regression token-classification]
"""
import argparse
import csv
import json
import random
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
    "distilbert-small": {"batch_size": 8, "max_length": 128},
    "electra-small": {"batch_size": 8, "max_length": 128},
    "mpnet-small": {"batch_size": 8, "max_length": 128},
    "deberta-v3-small": {"batch_size": 8, "max_length": 128},
    "eurobert-small": {"batch_size": 8, "max_length": 128},
}
# Each family's names for the dropouts that must be off for an exact comparison.
DROPOUT_KEYS = ("hidden_dropout_prob", "attention_probs_dropout_prob", "classifier_dropout", "embedding_dropout",
                "attention_dropout", "mlp_dropout", "dropout", "seq_classif_dropout", "pooler_dropout", "cls_dropout")


def without_dropout(folder):
    config_path = Path(folder) / "config.json"
    config = json.loads(config_path.read_text())
    config.update({key: 0.0 for key in DROPOUT_KEYS if key in config or key == "classifier_dropout"})
    config_path.write_text(json.dumps(config, indent=2) + "\n")


TASKS = ("single-label", "multi-label", "regression", "token-classification")
# The derived sets' files and label columns (scripts/derive_task_sets.py).
TASK_FILES = {"multi-label": ("multilabel.csv", "labels"), "regression": ("regression.csv", "log_body_length"),
              "token-classification": ("ner.conll", None)}
SEPARATOR = ";"
VALIDATION_EXAMPLES = 40


def derived_sets(data, folder):
    """The task sets derived from the shared e-mails, written once into folder."""
    folder = Path(folder)
    if not (folder / "ner.conll").is_file():
        common.run_logged([sys.executable, str(common.ROOT / "scripts" / "derive_task_sets.py"), str(data),
                           str(folder)])
    return folder


def first_examples(examples, folder, train_limit, suffix, write):
    """A shuffled (seed 42) train part of train_limit examples and a validation part of
    VALIDATION_EXAMPLES after it, written by write(path, part)."""
    examples = list(examples)
    random.Random(42).shuffle(examples)
    train, validation = examples[:train_limit], examples[train_limit:train_limit + VALIDATION_EXAMPLES]
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / f"train.{suffix}", folder / f"validation.{suffix}"
    write(paths[0], train)
    write(paths[1], validation)
    return paths, train, validation


def read_conll(path):
    sentences, words = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0] == "-DOCSTART-":
                if words:
                    sentences.append(words)
                words = []
            else:
                words.append((fields[0], fields[-1]))
    if words:
        sentences.append(words)
    return sentences


def write_conll(path, sentences):
    with open(path, "w", encoding="utf-8") as f:
        for sentence in sentences:
            f.writelines(f"{word} {tag}\n" for word, tag in sentence)
            f.write("\n")


def task_data(task, data, scratch, train_limit):
    """(train, validation, label names in our engine's order, ours' extra flags, Trainer's extra flags,
    the head and problem_type of the start folder) of one task."""
    if task == "single-label":
        train, validation = common.stratified_split(data, scratch / "split", train_limit=train_limit,
                                                    validation_limit=VALIDATION_EXAMPLES)
        return train, validation, ("ham", "spam"), [], [], "sequence", None
    derived = derived_sets(data, scratch.parent / "derived")
    file_name, column = TASK_FILES[task]
    if task == "token-classification":
        (train, validation), train_part, validation_part = first_examples(
            read_conll(derived / file_name), scratch / "split", train_limit, "conll", write_conll)
        types = sorted({tag[2:] for sentence in train_part for _, tag in sentence if tag != "O"})
        labels = ["O"] + [f"{prefix}-{kind}" for kind in types for prefix in "BI"]
        unknown = {tag for sentence in validation_part for _, tag in sentence} - set(labels)
        if unknown:
            sys.exit(f"{validation}: tags {sorted(unknown)} are not in the training part")
        flags = ["--task", task]
        return train, validation, labels, flags, flags, "token", None
    csv.field_size_limit(sys.maxsize)
    with open(derived / file_name, newline="", encoding="utf-8") as f:
        rows = [(row["text"], row[column]) for row in csv.DictReader(f) if row["text"].strip()]

    def write_csv(path, part):
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["text", column])
            writer.writerows(part)

    (train, validation), train_part, validation_part = first_examples(
        rows, scratch / "split", train_limit, "csv", write_csv)
    flags = ["--task", task, "--label-column", column]
    if task == "regression":
        # Unstandardised: transformers' regression trains on the raw target (ours standardises by default).
        return train, validation, (column,), flags + ["--no-standardize-targets"], flags, "sequence", "regression"

    def label_set(cell):
        return {label.strip() for label in cell.split(SEPARATOR) if label.strip()}

    labels = sorted(set().union(*(label_set(cell) for _, cell in train_part)), key=lambda name: name.encode())
    unknown = set().union(*(label_set(cell) for _, cell in validation_part)) - set(labels)
    if unknown:
        sys.exit(f"{validation}: labels {sorted(unknown)} are not in the training part")
    flags += ["--label-separator", SEPARATOR]
    return train, validation, labels, flags, flags, "sequence", "multi_label_classification"


def id2label(folder):
    config = json.loads((Path(folder) / "config.json").read_text())
    return [config["id2label"][str(i)] for i in range(len(config["id2label"]))]


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
    parser.add_argument("--tasks", nargs="+", choices=TASKS, default=["single-label"])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--threads", type=int, default=common.os.cpu_count())
    parser.add_argument("--work-dir", help="keep the files of both sides here (default: a temporary folder)")
    args = parser.parse_args()
    common.require_data(args.data)

    results = {"machine": common.machine(), "threads": args.threads, "tolerance": TOLERANCE, "rows": []}
    failed = False
    with tempfile.TemporaryDirectory(prefix="bert-parity-") as temporary:
        scratch = Path(args.work_dir or temporary)
        for model_name, task in [(model, task) for model in args.models for task in args.tasks]:
            spec = MODELS[model_name]
            case = scratch / f"{model_name}-{task}"
            train, validation, labels, our_flags, reference_flags, head, problem_type = task_data(
                task, args.data, case, args.steps * spec["batch_size"])
            folder = common.classifier_folder(model_name, case / "start", label_names=labels, head=head,
                                              problem_type=problem_type,
                                              keep_label_order=task == "token-classification")
            without_dropout(folder)
            settings = {"max_length": spec["max_length"], "batch_size": spec["batch_size"], "max_steps": args.steps,
                        "lr": 1e-4, "seed": 42, "eval_batch_size": 64, "padding": "dynamic", "warmup_ratio": 0.06,
                        "weight_decay": 0.01, "max_grad_norm": 1.0, "no_shuffle": True}
            database = case / "runs.sqlite"
            common.run_logged([str(common.CLI), "--db", str(database), "train", "--model", str(folder),
                               "--train", str(train), "--validation", str(validation), "--threads",
                               str(args.threads), "--report", str(case / "ours.json"), "--eval-every", "0",
                               "--evals-per-epoch", "1", *our_flags, *common.flags(settings)])
            common.run_logged([str(common.CLI), "--db", str(database), "export", "1", str(case / "ours-model"),
                               "--last"])
            common.run_logged([sys.executable, str(HERE / "hf_trainer_run.py"), "--model", str(folder),
                               "--train", str(train), "--validation", str(validation), "--threads",
                               str(args.threads), "--report", str(case / "reference.json"), "--output-dir",
                               str(case / "hf-output"), "--save-model", str(case / "reference-model"),
                               *reference_flags, *common.flags(settings)])
            # Ours kept the start folder's head only if it numbered the labels as the folder does.
            labels_match = id2label(case / "ours-model") == id2label(folder) == list(labels)
            ours = json.loads((case / "ours.json").read_text())["steps"]
            reference = json.loads((case / "reference.json").read_text())["steps"]
            losses = [(o["loss"], r["loss"]) for o, r in zip(ours, reference)]
            loss_difference = max(abs(o - r) for o, r in losses)
            worst_step = max(range(len(losses)), key=lambda i: abs(losses[i][0] - losses[i][1])) + 1
            weight_difference, worst_tensor, unmatched = largest_weight_difference(
                case / "ours-model", case / "reference-model")
            row = {"model": model_name, "task": task, "labels": list(labels), "labels_match": labels_match,
                   "problem_type": problem_type, "steps": len(losses), "steps_ours": len(ours),
                   "steps_reference": len(reference), "settings": settings,
                   "largest_loss_difference": loss_difference, "at_step": worst_step,
                   "first_losses": losses[:3], "last_loss": losses[-1],
                   "largest_weight_difference": weight_difference, "in_tensor": worst_tensor,
                   "tensors_in_one_only": unmatched,
                   "passed": loss_difference <= TOLERANCE and weight_difference <= TOLERANCE
                   and len(ours) == len(reference) == args.steps and labels_match}
            failed = failed or not row["passed"]
            results["rows"].append(row)
            print(f"{model_name} {task}: {len(losses)} steps; largest loss difference {loss_difference:.2e} (step "
                  f"{worst_step}); largest weight difference {weight_difference:.2e} ({worst_tensor}); "
                  f"{'within' if row['passed'] else 'NOT within'} {TOLERANCE:g}"
                  + ("" if labels_match else "; the label ids differ") + (f"; tensors in one only: {unmatched}"
                                                                         if unmatched else ""), flush=True)
    # Rows of models and tasks not run this time stay, with the commit they were measured at.
    earlier = common.load_result("training_parity") or {"rows": [], "machine": {}}
    for row in earlier["rows"]:
        row.setdefault("task", "single-label")  # rows from before --tasks
    ran = {(row["model"], row["task"]) for row in results["rows"]}
    def measured_at(machine):
        return f"{machine.get('commit')} ({machine.get('cpu')})"
    for row in results["rows"]:
        row["commit"] = measured_at(results["machine"])
    results["rows"] = [dict(row, commit=row.get("commit") or measured_at(earlier["machine"]))
                       for row in earlier["rows"] if (row["model"], row["task"]) not in ran] + results["rows"]
    common.save("training_parity", results)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
