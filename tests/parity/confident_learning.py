#!/usr/bin/env python3
"""Confident learning as cleanlab computes it, for tests/core/ConfidentLearningTest.cpp.

Reads cases (JSON: {"kind": "single", "labels": [N], "probabilities": [N, K]} or
{"kind": "multi", "truth": [N, L] of 0/1, "probabilities": [N, L]}) and writes, for each:
  issues: cleanlab.filter.find_label_issues(labels, pred_probs,
    return_indices_ranked_by="self_confidence"), its defaults otherwise (multi-label: labels as
    lists of the labels present, multi_label=True); n_jobs=1, which changes only the speed;
  quality: the score it ranks them by (rank.get_label_quality_scores, or the multi-label
    scorer find_label_issues uses: self-confidence, moving average 0.8);
  likely: single-label, each issue's argmax; labels: multi-label, each issue's labels flagged by
    multilabel_classification.filter.find_multilabel_issues_per_class, given the one of them of
    lowest per-label self-confidence (the engine's choice, from cleanlab's per-label scores) and
    likely the model's 0/1 for it;
  thresholds: count.get_confident_thresholds (multi-label: (L, 2) row by row);
  counted_joint, confident_joint: count.compute_confident_joint with calibrate False and True
    ([given][true]; multi-label: (L, 2, 2) as 2L rows of 2);
  prune_counts: filter._keep_at_least_n_per_class(confident_joint.T, 1), the matrix
    find_label_issues prunes by, transposed to [given][true] (multi-label: per label);
  ties: where the answer would depend on how numpy's default (unstable, SIMD on AVX-512) sort
    orders equal keys: equal remainders at the cut of calibration's rounding, equal margins
    p_j - p_k among the examples of a class, equal scores among the issues. The test's data
    must have none, so that a stable order is an honest comparison.

  confident_learning.py IN OUT
"""
import json
import sys
import warnings

import numpy as np
import cleanlab.count
import cleanlab.filter
import cleanlab.internal.multilabel_scorer as ml_scorer
from cleanlab.multilabel_classification.filter import find_multilabel_issues_per_class
from cleanlab.rank import get_label_quality_scores

TIES = []
_round_rows = cleanlab.count.round_preserving_row_totals


def _rounding_ties(matrix):
    """Rows whose rounding to a kept total must choose between equal remainders."""
    for row in np.atleast_2d(np.asarray(matrix, dtype=float)):
        ints = row.round()
        difference = np.round(np.sum(row).round() - np.sum(ints).round())
        changes = min(int(abs(difference)), len(row))
        if changes == 0 or changes == len(row):
            continue
        remainders = np.sort(row - ints)
        if difference > 0:
            remainders = remainders[::-1]
        if remainders[changes - 1] == remainders[changes]:
            TIES.append(f"calibration rounds {row.tolist()} with a tie")


def _watched_round_rows(matrix):
    _rounding_ties(matrix)
    return _round_rows(matrix)


cleanlab.count.round_preserving_row_totals = _watched_round_rows


def _margin_ties(labels, pred_probs):
    for k in range(pred_probs.shape[1]):
        rows = pred_probs[labels == k]
        for j in range(pred_probs.shape[1]):
            margins = rows[:, j] - rows[:, k]
            if j != k and len(np.unique(margins)) != len(margins):
                TIES.append(f"equal margins p_{j} - p_{k} among the examples labelled {k}")


def _score_ties(quality, what):
    if len(np.unique(quality)) != len(quality):
        TIES.append(f"equal {what} scores among the issues")


def _prune_counts(confident_joint):
    return cleanlab.filter._keep_at_least_n_per_class(confident_joint.T, 1, frac_noise=1.0).T


def single(case):
    labels = np.asarray(case["labels"], dtype=np.int64)
    pred_probs = np.asarray(case["probabilities"], dtype=np.float64)
    issues = cleanlab.filter.find_label_issues(
        labels, pred_probs, return_indices_ranked_by="self_confidence", n_jobs=1)
    quality = get_label_quality_scores(labels, pred_probs, method="self_confidence")[issues]
    counted = cleanlab.count.compute_confident_joint(labels, pred_probs, calibrate=False)
    joint = cleanlab.count.compute_confident_joint(labels, pred_probs)
    _margin_ties(labels, pred_probs)
    _score_ties(quality, "self-confidence")
    return {"issues": issues.tolist(), "quality": quality.tolist(),
            "likely": pred_probs.argmax(axis=1)[issues].tolist(),
            "thresholds": cleanlab.count.get_confident_thresholds(labels, pred_probs).tolist(),
            "counted_joint": counted.tolist(), "confident_joint": joint.tolist(),
            "prune_counts": _prune_counts(joint).tolist()}


def multi(case):
    truth = np.asarray(case["truth"], dtype=np.int64)
    pred_probs = np.asarray(case["probabilities"], dtype=np.float64)
    labels = [np.flatnonzero(row).tolist() for row in truth]
    issues = cleanlab.filter.find_label_issues(
        labels=labels, pred_probs=pred_probs, multi_label=True,
        return_indices_ranked_by="self_confidence", n_jobs=1)
    scorer = ml_scorer.MultilabelScorer(base_scorer=ml_scorer.ClassLabelScorer.SELF_CONFIDENCE)
    quality = ml_scorer.get_label_quality_scores(truth, pred_probs, method=scorer)[issues]
    per_label, _, _ = find_multilabel_issues_per_class(
        labels, pred_probs, return_indices_ranked_by="self_confidence", n_jobs=1)
    flagged = [[c for c in range(truth.shape[1]) if i in set(per_label[c].tolist())]
               for i in issues.tolist()]
    # The engine's own pick: of an issue's flagged labels, the lowest self-confidence (as
    # cleanlab scores each label), and what the model says of it (binary argmax).
    per_class = scorer.get_class_label_quality_scores(truth, pred_probs)
    given = [min(labels_of, key=lambda c: (per_class[i, c], c))
             for i, labels_of in zip(issues.tolist(), flagged)]
    likely = [int(np.argmax([1 - pred_probs[i, c], pred_probs[i, c]]))
              for i, c in zip(issues.tolist(), given)]
    thresholds = cleanlab.count.get_confident_thresholds(labels, pred_probs, multi_label=True)
    counted = cleanlab.count.compute_confident_joint(labels, pred_probs, multi_label=True,
                                                     calibrate=False)
    joint = cleanlab.count.compute_confident_joint(labels, pred_probs, multi_label=True)
    for c in range(truth.shape[1]):
        complement = np.stack([1 - pred_probs[:, c], pred_probs[:, c]], axis=1)
        _margin_ties(truth[:, c], complement)
    _score_ties(quality, "multi-label")
    return {"issues": issues.tolist(), "quality": quality.tolist(), "labels": flagged,
            "given": given, "likely": likely,
            "thresholds": thresholds.reshape(-1).tolist(),
            "counted_joint": counted.reshape(-1, 2).tolist(),
            "confident_joint": joint.reshape(-1, 2).tolist(),
            "prune_counts": np.concatenate([_prune_counts(cj) for cj in joint]).tolist()}


def main():
    warnings.simplefilter("ignore")  # multi_label=True's deprecation: still what it computes
    cases = json.load(open(sys.argv[1]))
    out = []
    for case in cases:
        TIES.clear()
        result = single(case) if case["kind"] == "single" else multi(case)
        result["ties"] = sorted(set(TIES))
        out.append(result)
    json.dump(out, open(sys.argv[2], "w"))


if __name__ == "__main__":
    main()
