#!/usr/bin/env bash
# Calibration before and after temperature scaling on the shared
# e-mails (see calibration.py). Needs the release build and the project's venv (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/calibration.py" "$@"
