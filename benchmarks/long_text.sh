#!/usr/bin/env bash
# Texts longer than the max length: truncate, head+tail and windows side by side on the shared
# e-mails (see long_text.py). Needs the release build and the project's venv (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}
exec "$venv/bin/python" "$root/benchmarks/long_text.py" "$@"
