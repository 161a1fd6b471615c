#!/usr/bin/env bash
# Likely label errors: confident learning against labels flipped on purpose in the shared
# e-mails (see label_errors.py). Needs the release build and the project's venv (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/label_errors.py" "$@"
