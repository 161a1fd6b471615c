#!/usr/bin/env python3
"""seqeval's figures for the entity-metric parity test (tests/core/EntityMetricsParityTest.cpp).

  seqeval_reference.py CASES OUT

CASES is a JSON list of {"mode": "conlleval"|"strict", "truth": [[tag, ...], ...],
"predicted": [[tag, ...], ...]}. OUT receives, per case, seqeval's classification_report
(output_dict) with NaN written as null, its accuracy_score, and the exact entity counts per type
(true positives, predicted, support) counted from seqeval's own entity readers: get_entities in
the default mode, scheme.Entities with IOBES in the strict mode.

Exits with 77 when seqeval is not installed, so the test can skip with a message.
"""
import json
import math
import sys
import warnings
from collections import defaultdict


def counts(truth, predicted, mode):
    from seqeval.metrics.sequence_labeling import get_entities
    from seqeval.scheme import IOBES, Entities

    def entities(sequences):
        by_type = defaultdict(set)
        if mode == "strict":
            for entity in (e for sentence in Entities(sequences, IOBES).entities for e in sentence):
                by_type[entity.tag].add((entity.sent_id, entity.start, entity.end))
        else:
            for type_name, start, end in get_entities(sequences):
                by_type[type_name].add((start, end))
        return by_type

    true_entities, predicted_entities = entities(truth), entities(predicted)
    result = {}
    for type_name in sorted(set(true_entities) | set(predicted_entities)):
        t, p = true_entities.get(type_name, set()), predicted_entities.get(type_name, set())
        result[type_name] = [len(t & p), len(p), len(t)]
    return result


def plain(value):
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    value = float(value)
    return None if math.isnan(value) else value


def main():
    try:
        from seqeval.metrics import accuracy_score, classification_report
        from seqeval.scheme import IOBES
    except ImportError as error:
        print(f"seqeval is not installed: {error}")
        return 77
    warnings.simplefilter("ignore")
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    results = []
    for case in cases:
        truth, predicted, mode = case["truth"], case["predicted"], case["mode"]
        if mode == "strict":
            report = classification_report(truth, predicted, output_dict=True, mode="strict",
                                           scheme=IOBES)
        else:
            report = classification_report(truth, predicted, output_dict=True)
        tokens = sum(len(s) for s in truth)
        results.append({"report": plain(report),
                        "accuracy": accuracy_score(truth, predicted) if tokens else None,
                        "counts": counts(truth, predicted, mode)})
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
