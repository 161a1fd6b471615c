#!/usr/bin/env python3
"""Runs model.onnx files we exported in ONNX Runtime, for tests/onnx/OnnxExportTest.cpp.

  onnx_runtime.py MODEL INPUTS OUT [MODEL INPUTS OUT ...]

Each MODEL is a model.onnx (its weights possibly in model.onnx.data beside it); INPUTS a
safetensors file with int64 input_ids, attention_mask, token_type_ids [batch, sequence], of which
each graph is fed the ones it takes (its inputs are checked by name in the test). Writes OUT, a
safetensors file with
  "logits"          basic graph optimisations only: the exact comparison, no fused kernels
  "logits_default"  ONNX Runtime's default session (every optimisation), as users run it
and OUT + ".json" describing the graph's inputs and outputs as ONNX Runtime sees them, so the test
checks names, types and dynamic axes too.
"""
import json
import sys

import numpy as np
import onnxruntime as ort
from safetensors.numpy import load_file, save_file


def run(model, inputs, out):
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    default = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    taken = {i.name for i in session.get_inputs()}
    feed = {name: value.astype(np.int64) for name, value in load_file(inputs).items()
            if name in taken}
    (logits,) = session.run(["logits"], feed)
    (optimised,) = default.run(["logits"], feed)
    save_file({"logits": np.ascontiguousarray(logits, dtype=np.float32),
               "logits_default": np.ascontiguousarray(optimised, dtype=np.float32)}, out)
    described = {
        "inputs": [{"name": i.name, "type": i.type, "shape": i.shape} for i in session.get_inputs()],
        "outputs": [{"name": o.name, "type": o.type, "shape": o.shape}
                    for o in session.get_outputs()],
        "metadata": session.get_modelmeta().custom_metadata_map,
        "producer": session.get_modelmeta().producer_name,
        "graph": session.get_modelmeta().graph_name,
    }
    with open(out + ".json", "w", encoding="utf-8") as f:
        json.dump(described, f)


def main(arguments):
    if not arguments or len(arguments) % 3 != 0:
        sys.exit(__doc__)
    for i in range(0, len(arguments), 3):
        run(*arguments[i:i + 3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
