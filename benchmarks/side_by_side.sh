#!/usr/bin/env bash
# Side by side with Hugging Face Trainer (see side_by_side.py). Needs the release build and the
# project's venv (scripts/setup.sh). Arguments go to side_by_side.py, e.g. --models minilm --quick.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/side_by_side.py" "$@"
