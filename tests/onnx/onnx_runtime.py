#!/usr/bin/env python3
"""Runs a model.onnx we exported in ONNX Runtime, for tests/onnx/OnnxExportTest.cpp.

  onnx_runtime.py MODEL INPUTS OUT

MODEL is model.onnx (its weights possibly in model.onnx.data beside it); INPUTS a safetensors
file with int64 input_ids, attention_mask, token_type_ids [batch, sequence]. Writes OUT (a
safetensors file with "logits") and OUT + ".json" describing the graph's inputs and outputs as
ONNX Runtime sees them, so the test checks names, types and dynamic axes too.
"""
import json
import sys

import numpy as np
import onnxruntime as ort
from safetensors.numpy import load_file, save_file

INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")


def main(model, inputs, out):
    options = ort.SessionOptions()
    # Exact arithmetic for the comparison: no fused or reordered kernels beyond the basic ones.
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    feed = {name: value.astype(np.int64) for name, value in load_file(inputs).items()
            if name in INPUT_NAMES}
    (logits,) = session.run(["logits"], feed)
    save_file({"logits": np.ascontiguousarray(logits, dtype=np.float32)}, out)
    described = {
        "inputs": [{"name": i.name, "type": i.type, "shape": i.shape} for i in session.get_inputs()],
        "outputs": [{"name": o.name, "type": o.type, "shape": o.shape}
                    for o in session.get_outputs()],
        "metadata": session.get_modelmeta().custom_metadata_map,
        "producer": session.get_modelmeta().producer_name,
    }
    with open(out + ".json", "w", encoding="utf-8") as f:
        json.dump(described, f)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
