#!/usr/bin/env bash
# Class imbalance: plain, class weighting, focal loss and balanced sampling on the shared
# e-mails (see imbalance.py). Needs the release build and the project's venv (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/imbalance.py" "$@"
