#!/usr/bin/env python3
"""Calibration as its references compute it, for tests/core/CalibrationTest.cpp.

Reads cases (JSON: logits [N, classes], labels [N]) and writes, for each:
  ece, bins: expected calibration error over 15 bins and each bin's count, mean confidence and
    accuracy, as Guo et al.'s reference implementation computes them (gpleiss/
    temperature_scaling, _ECELoss: torch.linspace(0, 1, 16) boundaries, each bin (lower, upper],
    ECE the sum of |mean confidence - accuracy| x the bin's share of the examples);
  temperature: the minimiser of the mean NLL of softmax(logits / T), fitted as the reference
    fits it (torch.optim.LBFGS on the temperature, from 1.5) but with the strong-Wolfe line
    search, tolerances and rounds the engine uses, and checked against scipy's bounded scalar
    minimiser (an optimiser that shares no code with it): temperature_scipy;
  calibrated_ece: the ECE at that temperature.

  calibration.py IN OUT
"""
import json
import sys

import torch
import torch.nn.functional as F
from scipy.optimize import minimize_scalar


def ece_of(probabilities, labels, n_bins=15):
    confidences, predictions = torch.max(probabilities, 1)
    accuracies = predictions.eq(labels)
    boundaries = torch.linspace(0, 1, n_bins + 1, dtype=torch.double)
    ece = torch.zeros(1, dtype=torch.double)
    bins = []
    for lower, upper in zip(boundaries[:-1], boundaries[1:]):
        in_bin = confidences.gt(lower.item()) * confidences.le(upper.item())
        share = in_bin.double().mean()
        count = int(in_bin.sum().item())
        if count > 0:
            accuracy = accuracies[in_bin].double().mean()
            confidence = confidences[in_bin].mean()
            ece += torch.abs(confidence - accuracy) * share
            bins.append({"count": count, "confidence": confidence.item(), "accuracy": accuracy.item()})
        else:
            bins.append({"count": 0, "confidence": 0.0, "accuracy": 0.0})
    return ece.item(), bins


def fit_lbfgs(logits, labels):
    temperature = torch.full((1,), 1.5, dtype=torch.double, requires_grad=True)
    optimizer = torch.optim.LBFGS([temperature], lr=1.0, max_iter=100, tolerance_grad=1e-9,
                                  tolerance_change=1e-12, line_search_fn="strong_wolfe")

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(logits / temperature, labels)
        loss.backward()
        return loss

    # As the engine: up to three L-BFGS runs, until the derivative in log T is below 1e-6.
    for _ in range(3):
        optimizer.step(closure)
        closure()
        if abs(temperature.item() * temperature.grad.item()) <= 1e-6:
            break
    return temperature.item()


def fit_scipy(logits, labels):
    def nll(t):
        return F.cross_entropy(logits / t, labels).item()
    return minimize_scalar(nll, bounds=(1e-3, 100.0), method="bounded",
                           options={"xatol": 1e-10}).x


def main():
    cases = json.load(open(sys.argv[1]))
    out = []
    for case in cases:
        logits = torch.tensor(case["logits"], dtype=torch.double)
        labels = torch.tensor(case["labels"], dtype=torch.long)
        ece, bins = ece_of(logits.softmax(-1), labels)
        t = fit_lbfgs(logits, labels)
        calibrated, _ = ece_of((logits / t).softmax(-1), labels)
        out.append({"ece": ece, "bins": bins, "temperature": t,
                    "temperature_scipy": fit_scipy(logits, labels), "calibrated_ece": calibrated,
                    "nll": F.cross_entropy(logits, labels).item(),
                    "calibrated_nll": F.cross_entropy(logits / t, labels).item()})
    json.dump(out, open(sys.argv[2], "w"))


if __name__ == "__main__":
    main()
