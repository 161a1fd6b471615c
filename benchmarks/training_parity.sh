#!/usr/bin/env bash
# Training parity with Hugging Face Trainer (see training_parity.py). Needs the release build and the
# project's venv (scripts/setup.sh). Arguments go to training_parity.py, e.g. --models minilm bert-base --steps 50,
# --tasks multi-label regression token-classification (single-label without --tasks).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/training_parity.py" "$@"
