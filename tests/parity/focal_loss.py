#!/usr/bin/env python3
"""Focal loss as its references write it, for tests/core/FocalLossTest.cpp.

Reads cases (JSON: kind, gamma, balanced, logits, targets, the training labels or rows the
balanced weights come from) and writes each case's summed loss. Written apart from the engine:
  single-label and token classification: Lin et al. 2017's -alpha_t (1 - p_t)^gamma log p_t,
    with p_t = exp(-CE) (the usual way of writing it), alpha_t scikit-learn's balanced class
    weight N / (classes x n_c) of the truth, untagged tokens (-100) left out;
  multi-label: torchvision.ops.sigmoid_focal_loss's form (BCE-with-logits x (1 - p_t)^gamma),
    with BCE's pos_weight negatives / positives per label when balanced, the sum over labels
    divided by the label count (the engine's mean over examples x labels once divided by the
    examples).

  focal_loss.py IN OUT
"""
import json
import sys

import torch
import torch.nn.functional as F


def balanced_class_weights(train_labels, classes):
    counts = torch.bincount(torch.tensor(train_labels), minlength=classes).double()
    weights = torch.zeros(classes, dtype=torch.double)
    present = counts > 0
    weights[present] = len(train_labels) / (classes * counts[present])
    return weights


def positive_weights(train_rows):
    rows = torch.tensor(train_rows, dtype=torch.double)
    positives = rows.sum(0)
    total = rows.shape[0]
    weights = torch.ones(rows.shape[1], dtype=torch.double)
    usable = (positives > 0) & (positives < total)
    weights[usable] = (total - positives[usable]) / positives[usable]
    return weights


def softmax_focal(logits, targets, gamma, weights):
    keep = targets != -100
    logits, targets = logits[keep], targets[keep]
    ce = F.cross_entropy(logits, targets, reduction="none")
    p_t = torch.exp(-ce)
    loss = (1 - p_t) ** gamma * ce
    if weights is not None:
        loss = loss * weights[targets]
    return loss.sum().item()


def sigmoid_focal(logits, targets, gamma, pos_weight):
    p = torch.sigmoid(logits)
    ce = F.binary_cross_entropy_with_logits(logits, targets, reduction="none",
                                            pos_weight=pos_weight)
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce * ((1 - p_t) ** gamma)
    return (loss.sum() / logits.shape[1]).item()


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    results = []
    for case in cases:
        logits = torch.tensor(case["logits"], dtype=torch.double)
        gamma = case["gamma"]
        if case["kind"] == "multi-label":
            targets = torch.tensor(case["targets"], dtype=torch.double)
            weights = positive_weights(case["train"]) if case["balanced"] else None
            results.append(sigmoid_focal(logits, targets, gamma, weights))
        else:
            targets = torch.tensor(case["targets"], dtype=torch.long)
            weights = (balanced_class_weights(case["train"], logits.shape[1])
                       if case["balanced"] else None)
            results.append(softmax_focal(logits, targets, gamma, weights))
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
