#!/usr/bin/env bash
# The technique matrix of our engine (see technique_matrix.py). Needs the release build and the venv.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec "${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}/bin/python" "$root/benchmarks/technique_matrix.py" "$@"
