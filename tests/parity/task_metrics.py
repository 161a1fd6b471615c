#!/usr/bin/env python3
"""Reference figures of the multi-label and regression metrics (issue 29, points 2 and 3) for
tests/core/TaskMetricsParityTest.cpp, from scikit-learn and scipy.

  task_metrics.py IN.json OUT.json

IN holds the cases the C++ test drew: {"multi_label": [{"labels": L, "probabilities": [...],
"truth": [...]}, ...], "regression": [{"predictions": [...], "truth": [...]}, ...],
"scaler": [[targets...], ...]}, row-major; a section may be left out. OUT gets, per
multi-label case, the figures at every candidate threshold (k / 20 for k = 1..19: the pooled
ones at each, every figure at FULL_REPORT_AT) and the tuned threshold; per regression case
RMSE, MAE, Pearson, Spearman and R2 (null where the reference gives NaN or refuses); per scaler
case StandardScaler's mean_ and scale_. Exit code 77 when scikit-learn or scipy is missing.
"""
import json
import math
import sys
import warnings

try:
    import numpy as np
    from scipy import stats
    from sklearn import metrics
    from sklearn.preprocessing import StandardScaler
except ImportError as missing:  # the test skips with this message
    print(f"scikit-learn or scipy missing: {missing}")
    sys.exit(77)

# The thresholds k / 20 at which every figure is compared, not only the threshold curve's.
FULL_REPORT_AT = (1, 5, 10, 13, 19)

warnings.simplefilter("ignore")  # zero-division and constant-input warnings are expected here


def finite_or_none(value):
    value = float(value)
    return None if math.isnan(value) else value


def multi_label(case):
    labels = case["labels"]
    probabilities = np.asarray(case["probabilities"], dtype=np.float64).reshape(-1, labels)
    truth = np.asarray(case["truth"], dtype=np.int64).reshape(-1, labels)
    points = []
    for k in range(1, 20):
        threshold = k / 20.0
        predicted = (probabilities >= threshold).astype(np.int64)
        # One column is read by scikit-learn as a binary target, not a multi-label one: name the
        # positive class so that it is the only label, as a one-column indicator matrix means.
        if labels == 1:
            y_true, y_pred, which = truth.ravel(), predicted.ravel(), [1]
        else:
            y_true, y_pred, which = truth, predicted, None
        micro = metrics.precision_recall_fscore_support(
            y_true, y_pred, labels=which, average="micro", zero_division=0)
        point = {
            "threshold": threshold,
            "micro_precision": float(micro[0]),
            "micro_recall": float(micro[1]),
            "micro_f1": float(micro[2]),
        }
        # Every figure at a few thresholds (each scikit-learn call costs milliseconds); the curve's
        # pooled figures at all of them.
        if k in FULL_REPORT_AT:
            precision, recall, f1, support = metrics.precision_recall_fscore_support(
                y_true, y_pred, labels=which, average=None, zero_division=0)
            point.update({
                "macro_f1": float(metrics.f1_score(y_true, y_pred, labels=which,
                                                   average="macro", zero_division=0)),
                "subset_accuracy": float(metrics.accuracy_score(truth, predicted)),
                "hamming_loss": float(metrics.hamming_loss(truth, predicted)),
                "precision": [float(v) for v in precision],
                "recall": [float(v) for v in recall],
                "f1": [float(v) for v in f1],
                "support": [int(v) for v in support],
            })
        points.append(point)
    # The documented rule, written independently: highest micro-F1, then nearest 0.5 (k = 10),
    # then the lower threshold.
    best = min(range(19), key=lambda i: (-points[i]["micro_f1"], abs((i + 1) - 10), i))
    return {"points": points, "tuned": points[best]["threshold"]}


def regression(case):
    predictions = np.asarray(case["predictions"], dtype=np.float64)
    truth = np.asarray(case["truth"], dtype=np.float64)
    result = {
        "rmse": float(metrics.root_mean_squared_error(truth, predictions)),
        "mae": float(metrics.mean_absolute_error(truth, predictions)),
        "pearson": None,
        "spearman": None,
        "r2": None,
    }
    if len(truth) >= 2:
        result["pearson"] = finite_or_none(stats.pearsonr(predictions, truth).statistic)
        result["spearman"] = finite_or_none(stats.spearmanr(predictions, truth).statistic)
        result["r2"] = finite_or_none(metrics.r2_score(truth, predictions))
    return result


def scaler(targets):
    fitted = StandardScaler().fit(np.asarray(targets, dtype=np.float64).reshape(-1, 1))
    return {"mean": float(fitted.mean_[0]), "scale": float(fitted.scale_[0])}


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    with open(sys.argv[1], encoding="utf-8") as source:
        cases = json.load(source)
    out = {
        "multi_label": [multi_label(case) for case in cases.get("multi_label", [])],
        "regression": [regression(case) for case in cases.get("regression", [])],
        "scaler": [scaler(targets) for targets in cases.get("scaler", [])],
    }
    with open(sys.argv[2], "w", encoding="utf-8") as sink:
        json.dump(out, sink)
    return 0


if __name__ == "__main__":
    sys.exit(main())
