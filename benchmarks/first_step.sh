#!/usr/bin/env bash
# Time to the first step, command line and studio (see first_step.py). Needs the release build
# (the command line and the UI tests) and the project's venv.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec "${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}/bin/python" "$root/benchmarks/first_step.py" "$@"
