#!/usr/bin/env python3
"""Reference outputs of every family's token classifier for tests/parity/TokenFamilyParityTest.cpp.

The cases of families.py (BERT, RoBERTa, XLM-RoBERTa, CamemBERT, DistilBERT, ELECTRA, ModernBERT
with every variant, the long ModernBERT past its default local window, mmBERT's and Ettin's
shapes, MPNet short and past its
relative buckets' 128, DeBERTa-v2/v3, EuroBERT with grouped-query attention), each built as
AutoModelForTokenClassification with a tag set, plus two sequence classifiers whose problem_type
is not the default (multi-label and regression), so that problem_type's round trip is checked
through transformers too. Nothing is downloaded: transformers builds random small models, every
parameter is perturbed, save_pretrained writes them beside MiniLM's vocab.txt.

  make OUT          one folder per case under OUT, each with expected.safetensors: eval-mode
                    logits of padded batches of single sequences and of pairs ([B, S, tags] for
                    the token classifiers), and case.json
  load OUT MODEL... loads folders we exported with the Auto class their config.json names
                    (ForTokenClassification: AutoModelForTokenClassification, otherwise
                    AutoModelForSequenceClassification) and writes each one's logits for the
                    inputs in MODEL/inputs.safetensors (OUT/<folder name>/loaded.safetensors),
                    its class, id2label and problem_type (loaded.json)
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from families import (CONFIG_EDITS, batch, cases, edit_config, logits_of,  # noqa: E402
                      vocab_file)

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

TAGS = {0: "O", 1: "B-PER", 2: "I-PER", 3: "B-LOC", 4: "I-LOC"}


def with_labels(config, id2label, problem_type=None):
    config.id2label = dict(id2label)
    config.label2id = {v: k for k, v in id2label.items()}
    config.problem_type = problem_type
    return config


def token_cases():
    """(name, config, pad id, token types, lengths, head, problem_type)."""
    for name, config, pad, types, lengths in cases():
        yield name, with_labels(config, TAGS), pad, types, lengths, "token", None
    # Sequence heads whose problem_type must survive our export.
    by_name = {name: (config, pad, types, lengths) for name, config, pad, types, lengths in cases()}
    config, pad, types, lengths = by_name["bert"]
    yield ("bert-multi-label", with_labels(config, {0: "spam", 1: "urgent", 2: "personal"},
                                           "multi_label_classification"),
           pad, types, lengths, "sequence", "multi_label_classification")
    config, pad, types, lengths = by_name["roberta"]
    yield ("roberta-regression", with_labels(config, {0: "LABEL_0"}, "regression"), pad, types,
           lengths, "sequence", "regression")


def auto_class(head):
    from transformers import AutoModelForSequenceClassification, AutoModelForTokenClassification

    return AutoModelForTokenClassification if head == "token" else AutoModelForSequenceClassification


def cmd_make(args):
    for index, (name, config, pad, types, lengths, head, problem) in enumerate(token_cases()):
        torch.manual_seed(200 + index)
        model = auto_class(head).from_config(config).eval()
        with torch.no_grad():
            for parameter in model.parameters():
                parameter.add_(torch.randn_like(parameter) * 0.05)
        folder = os.path.join(args.out, name)
        model.save_pretrained(folder)
        shutil.copy(vocab_file(), os.path.join(folder, "vocab.txt"))
        if name in CONFIG_EDITS:
            edit_config(folder, CONFIG_EDITS[name])
        tensors = {}
        for kind, pairs in (("single", False), ("pair", True)):
            inputs = batch(lengths, pad, pairs, seed=17 + index)
            for key, value in inputs.items():
                tensors[f"{kind}.{key}"] = value
            tensors[f"{kind}.logits"] = logits_of(model, inputs, types)
        save_file(tensors, os.path.join(folder, "expected.safetensors"))
        with open(os.path.join(folder, "case.json"), "w", encoding="utf-8") as f:
            json.dump({"name": name, "token_types": types, "class": type(model).__name__,
                       "head": head, "problem_type": problem,
                       "labels": [config.id2label[i] for i in range(len(config.id2label))]}, f)


def cmd_load(args):
    for folder in args.models:
        with open(os.path.join(folder, "config.json"), encoding="utf-8") as f:
            architecture = json.load(f)["architectures"][0]
        head = "token" if architecture.endswith("ForTokenClassification") else "sequence"
        model = auto_class(head).from_pretrained(folder).eval()
        inputs = load_file(os.path.join(folder, "inputs.safetensors"))
        with_types = "token_type_ids" in inputs
        out = os.path.join(args.out, os.path.basename(os.path.normpath(folder)))
        os.makedirs(out, exist_ok=True)
        save_file({"logits": logits_of(model, inputs, with_types)},
                  os.path.join(out, "loaded.safetensors"))
        with open(os.path.join(out, "loaded.json"), "w", encoding="utf-8") as f:
            json.dump({"class": type(model).__name__, "id2label": model.config.id2label,
                       "problem_type": model.config.problem_type}, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make")
    p.add_argument("out")
    p.set_defaults(run=cmd_make)
    p = sub.add_parser("load")
    p.add_argument("out")
    p.add_argument("models", nargs="+")
    p.set_defaults(run=cmd_load)
    args = parser.parse_args()
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
