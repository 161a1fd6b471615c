#!/usr/bin/env bash
# Data parallel, 1 process against 2 (see data_parallel.py). Needs the release build and the
# project's venv (scripts/setup.sh). Arguments go to data_parallel.py, e.g. --steps 30 --device cuda.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/data_parallel.py" "$@"
